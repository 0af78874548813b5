import { deflateRawSync } from "node:zlib";

// Level 3, not zlib's 6, for every record: a load deflates three per generation (output, step
// trace, item), and on ~0.6 / 1.2 / 2.5 kB records level 6 costs 40–80% more CPU for 3–10%
// fewer bytes (docs/performance.md, "Load").
const LEVEL = 3;

/**
 * Raw deflate into a Buffer that owns exactly its bytes. deflateRawSync returns a view of its
 * 16 KB output chunk, so each small record kept in a batch, or sent to the loader's thread
 * (structured clone copies the whole ArrayBuffer), would hold 16 KB (docs/performance.md,
 * "Memory").
 */
export function deflateExact(data: string | Uint8Array): Buffer {
  const view = deflateRawSync(data, { level: LEVEL });
  if (view.buffer.byteLength === view.length) return view;
  const own = new Uint8Array(view.length);
  own.set(view);
  return Buffer.from(own.buffer, 0, own.length);
}
