import { deflateRawSync } from "node:zlib";

/**
 * Raw deflate into a Buffer that owns exactly its bytes. deflateRawSync returns a view of its
 * 16 KB output chunk, so each small record kept in a batch, or sent to the loader's thread
 * (structured clone copies the whole ArrayBuffer), would hold 16 KB (docs/performance.md,
 * "Memory").
 */
export function deflateExact(data: string | Uint8Array, level = 6): Buffer {
  const view = deflateRawSync(data, { level });
  if (view.buffer.byteLength === view.length) return view;
  const own = new Uint8Array(view.length);
  own.set(view);
  return Buffer.from(own.buffer, 0, own.length);
}
