// Typed arrays that grow in place: each is a view of a resizable ArrayBuffer, which reserves
// address space for its largest size and maps pages as it grows. Growing copies nothing and
// frees nothing, where a new array per growth (and the old one freed) left glibc's heap ~27 MB
// larger at the end of an 800,000-generation run: glibc raises its mmap threshold past every
// large block freed, so the next ones came from a heap that kept the holes (docs/performance.md,
// "Memory", stop 50). For a run's columns and the reader's item table.

type Growable = Int32Array | Int16Array | Uint8Array | Float64Array;
type GrowableKind<T extends Growable> = { new (buffer: ArrayBuffer): T; readonly BYTES_PER_ELEMENT: number };

/** A typed array of `length` zeros that `grow` can lengthen up to `maxLength` entries. */
export function growable<T extends Growable>(Kind: GrowableKind<T>, length: number, maxLength: number): T {
  const width = Kind.BYTES_PER_ELEMENT;
  return new Kind(new ArrayBuffer(length * width, { maxByteLength: maxLength * width }));
}

/**
 * Lengthens an array made by `growable` in place to `length` entries (the new ones zero), by
 * half again at least; throws past its largest length, naming `what`.
 */
export function grow(a: Growable, length: number, what: string): void {
  const buffer = a.buffer as ArrayBuffer;
  const max = buffer.maxByteLength / a.BYTES_PER_ELEMENT;
  const next = Math.min(Math.max(length, Math.ceil(a.length * 1.5)), max);
  if (next < length || next === a.length) throw new Error(`more than ${max} ${what}: too many for one run`);
  buffer.resize(next * a.BYTES_PER_ELEMENT);
}
