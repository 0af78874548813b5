/**
 * The same bytes as a Buffer, without a copy: a Buffer sent from another thread arrives as a
 * plain Uint8Array, and the drivers and Buffer's own methods want a Buffer.
 */
export const asBuffer = (b: Uint8Array): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
