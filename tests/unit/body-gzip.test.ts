// gzip request bodies (`stepwise push`): decoded on the way in, the limit counting the bytes on
// the wire and the decompressed bytes, so a gzip bomb gets the 413 after inflating at most the
// limit plus a chunk.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { BodyTooLargeError, decodedBody } from "../../lib/api/body-limit";

const request = (body: Uint8Array, encoding?: string) =>
  new Request("http://x/api/v1/runs", {
    method: "POST",
    body: new Blob([body as BlobPart]).stream(),
    headers: encoding ? { "content-encoding": encoding } : {},
    duplex: "half",
  } as RequestInit);

async function drain(s: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c);
  return Buffer.concat(parts);
}

describe("gzip request bodies", () => {
  const text = Buffer.from('{"type":"run"}\n'.repeat(5000));

  it("decodes a gzip body and passes a plain one through", async () => {
    for (const [body, enc] of [
      [zlib.gzipSync(text), "gzip"],
      [zlib.gzipSync(text), "x-gzip"],
      [text, undefined],
      [text, "identity"],
    ] as const) {
      const d = decodedBody(request(body, enc), 1 << 20);
      if (!d.ok) throw new Error("refused");
      expect((await drain(d.stream)).equals(text)).toBe(true);
      expect(d.exceeded()).toBe(false);
    }
  });

  it("stops a gzip bomb at the limit of decompressed bytes", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 << 20)); // 64 MB of zeros in ~64 kB
    expect(bomb.length).toBeLessThan(1 << 20);
    const d = decodedBody(request(bomb, "gzip"), 1 << 20);
    if (!d.ok) throw new Error("refused");
    let inflated = 0;
    await expect(
      (async () => {
        for await (const c of d.stream) inflated += (c as Buffer).length;
      })(),
    ).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(d.exceeded()).toBe(true);
    expect(inflated).toBeLessThanOrEqual(1 << 20);
    expect(d.corrupt()).toBeNull();
  });

  it("counts the wire bytes too", async () => {
    // stored (level 0) gzip is a little larger than its content: a limit between the two sizes
    const stored = zlib.gzipSync(Buffer.alloc(300_000, 1), { level: 0 });
    expect(stored.length).toBeGreaterThan(300_010);
    const d = decodedBody(request(stored, "gzip"), 300_005);
    if (!d.ok) throw new Error("refused");
    await expect(drain(d.stream)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(d.exceeded()).toBe(true);
  });

  it("tells a corrupt or truncated gzip body from a large one", async () => {
    const gz = zlib.gzipSync(text);
    for (const bad of [Buffer.from("not gzip at all"), gz.subarray(0, gz.length - 20)]) {
      const d = decodedBody(request(bad, "gzip"), 1 << 20);
      if (!d.ok) throw new Error("refused");
      await expect(drain(d.stream)).rejects.toThrow();
      expect(d.exceeded()).toBe(false);
      expect(d.corrupt()).toMatch(/not valid gzip/);
    }
  });

  it("refuses other encodings with 415", async () => {
    const d = decodedBody(request(text, "br"), 1 << 20);
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.response.status).toBe(415);
      expect((await d.response.json()).error).toMatch(/Content-Encoding br is not supported/);
    }
  });
});
