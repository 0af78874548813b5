import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLines } from "../../lib/store/read-lines";

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

  it("drops the CR of CRLF line ends", async () => {
    expect(await collect([Buffer.from("a\r\nb\r\n")])).toEqual(["a", "b"]);
  });
});
