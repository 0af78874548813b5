/** Splits a byte stream into lines without holding more than one chunk and one line. */
export async function* readLines(
  stream: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  onBytes?: (n: number) => void,
) {
  const decoder = new TextDecoder("utf-8");
  let rest = "";
  for await (const chunk of stream) {
    onBytes?.(typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength);
    rest += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let nl: number;
    let start = 0;
    while ((nl = rest.indexOf("\n", start)) !== -1) {
      yield rest.slice(start, nl).replace(/\r$/, "");
      start = nl + 1;
    }
    rest = rest.slice(start);
  }
  rest += decoder.decode();
  if (rest.length > 0) yield rest.replace(/\r$/, "");
}
