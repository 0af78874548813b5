import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLineBatches, readLines, type LineBatch } from "../../lib/store/read-lines";

async function collect(chunks: Uint8Array[]) {
  const out: string[] = [];
  for await (const l of readLines(chunks)) out.push(l);
  return out;
}

describe("readLines", () => {
  it("splits any chunking of a text into the same lines, multi-byte characters included", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: "grapheme" }), { maxLength: 20 }),
        fc.array(fc.nat(40), { maxLength: 10 }),
        async (lines, cuts) => {
          const bytes = Buffer.from(lines.map((l) => l.replace(/[\r\n]/g, "")).join("\n"));
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks: Uint8Array[] = [];
          let last = 0;
          for (const p of [...points, bytes.length]) {
            chunks.push(bytes.subarray(last, p));
            last = p;
          }
          // A final newline ends the last line; it does not start an empty one.
          const expected = bytes.length === 0 ? [] : bytes.toString().split("\n");
          if (expected.length > 0 && expected[expected.length - 1] === "") expected.pop();
          expect(await collect(chunks)).toEqual(expected);
        },
      ),
    );
  });

  it("decodes any bytes as a streaming TextDecoder would: bad UTF-8, a BOM, CRs, chunks of one reused buffer", async () => {
    // the implementation before lines were decoded one by one (a streaming TextDecoder over whole chunks), as the oracle
    const viaTextDecoder = (chunks: Uint8Array[]): string[] => {
      const decoder = new TextDecoder("utf-8");
      const out: string[] = [];
      let rest = "";
      for (const chunk of chunks) {
        rest += decoder.decode(chunk, { stream: true });
        let nl: number;
        let start = 0;
        while ((nl = rest.indexOf("\n", start)) !== -1) {
          out.push(rest.slice(start, nl).replace(/\r$/, ""));
          start = nl + 1;
        }
        rest = rest.slice(start);
      }
      rest += decoder.decode();
      if (rest.length > 0) out.push(rest.replace(/\r$/, ""));
      return out;
    };
    // bytes that stress decoding: lead and continuation bytes, BOM parts, CR and LF
    const byte = fc.oneof(
      fc.constantFrom(0x0a, 0x0d, 0xef, 0xbb, 0xbf, 0x80, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0xc0),
      fc.integer({ min: 0, max: 255 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 60 }),
        fc.array(byte, { maxLength: 60 }),
        fc.array(fc.nat(80)),
        fc.boolean(),
        async (a, b, cuts, bom) => {
          const bytes = Buffer.from([...(bom ? [0xef, 0xbb, 0xbf] : []), ...a, ...b]);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
          const shared = Buffer.alloc(bytes.length + 1);
          function* reused() {
            let last = 0;
            for (const p of [...points, bytes.length]) {
              shared.fill(0x0a); // what a chunk left behind is overwritten before the next is read
              bytes.copy(shared, 0, last, p);
              yield shared.subarray(0, p - last);
              last = p;
            }
          }
          const got: string[] = [];
          for await (const l of readLines(reused())) got.push(l);
          const copies: Uint8Array[] = [];
          let last = 0;
          for (const p of [...points, bytes.length]) copies.push(bytes.subarray(last, (last = p)));
          expect(got).toEqual(viaTextDecoder(copies));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("tells a BOM from a stream that ends inside one's bytes", async () => {
    expect(await collect([Buffer.of(0xef), Buffer.of(0xbb)])).toEqual(["\uFFFD"]);
    expect(await collect([Buffer.of(0xef), Buffer.of(0xbb, 0xbf), Buffer.from("a\n")])).toEqual(["a"]);
    expect(await collect([Buffer.of(0xef, 0xbb, 0xbf)])).toEqual([]);
    expect(await collect([Buffer.of(0xef), Buffer.from("\n")])).toEqual(["\uFFFD"]);
  });

  it("drops the CR of CRLF line ends", async () => {
    expect(await collect([Buffer.from("a\r\nb\r\n")])).toEqual(["a", "b"]);
  });
});

describe("readLineBatches", () => {
  const decoded = (batches: LineBatch[]) =>
    batches.flatMap(({ bytes, offsets }) =>
      Array.from({ length: offsets.length - 1 }, (_, i) =>
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8", offsets[i], offsets[i + 1]),
      ),
    );

  it("gives readLines' lines, decoded one by one, for any bytes, chunking and batch limits, within the limits", async () => {
    const byte = fc.oneof(
      fc.constantFrom(0x0a, 0x0d, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0x80, 0xff),
      fc.integer({ min: 0, max: 255 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(byte, { maxLength: 120 }),
        fc.array(fc.nat(130)),
        fc.boolean(),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 24 }),
        async (body, cuts, bom, maxLines, maxBytes) => {
          const bytes = Buffer.from([...(bom ? [0xef, 0xbb, 0xbf] : []), ...body]);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
          const chunks: Buffer[] = [];
          let last = 0;
          for (const p of [...points, bytes.length]) chunks.push(bytes.subarray(last, (last = p)));
          const expected: string[] = [];
          for await (const l of readLines(chunks)) expected.push(l);
          // batches of spare buffers too small to use, and of one given back after each batch
          const spare = [new ArrayBuffer(1)];
          const batches: LineBatch[] = [];
          for await (const b of readLineBatches(chunks, maxLines, maxBytes, undefined, spare)) {
            const lines = b.offsets.length - 1;
            expect(lines).toBeGreaterThan(0);
            expect(lines).toBeLessThanOrEqual(maxLines);
            // over the limit only by the batch's last line
            if (lines > 1) expect(b.offsets[lines - 1]).toBeLessThan(maxBytes);
            expect(b.bytes.byteOffset).toBe(0);
            batches.push({ bytes: b.bytes.slice(), offsets: b.offsets });
            spare.push(b.bytes.buffer);
          }
          expect(decoded(batches)).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("counts the bytes read and takes a stream of strings as their UTF-8", async () => {
    let read = 0;
    const batches: LineBatch[] = [];
    for await (const b of readLineBatches(["é\r\nab", "c\n", "", "\nlast"], 2, 100, (n) => (read += n))) batches.push(b);
    expect(decoded(batches)).toEqual(["é", "abc", "", "last"]);
    expect(batches.map((b) => b.offsets.length - 1)).toEqual([2, 2]);
    expect(read).toBe(Buffer.byteLength("é\r\nabc\n\nlast"));
  });
});
