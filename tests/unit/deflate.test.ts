import fc from "fast-check";
import { MessageChannel } from "node:worker_threads";
import { inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflateExact } from "../../lib/store/deflate";
import { deflateOutput } from "../../lib/store/output-text";
import { encodeItemContent } from "../../lib/store/item-content";

// Records kept in batches and sent between threads own exactly their bytes (node:zlib's own
// result is a view of a 16 KB chunk, which structured clone would copy whole).

describe("deflateExact", () => {
  it("round-trips any text and owns exactly its bytes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40_000 }), (text) => {
        const record = deflateExact(text);
        expect(record.buffer.byteLength).toBe(record.length);
        expect(inflateRawSync(record).toString("utf8")).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("sends only its own bytes to another thread", async () => {
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<Uint8Array>((resolve) => port2.once("message", resolve));
    const record = deflateOutput("Step 1: 2 + 3 = 5\n".repeat(20))!;
    port1.postMessage(record);
    const copy = await received;
    port1.close();
    expect(copy.buffer.byteLength).toBe(record.length);
  });

  it("is what the output and item records are built with", () => {
    expect(deflateOutput("x".repeat(300))!.buffer.byteLength).toBeLessThan(100);
    const { body, hash } = encodeItemContent(JSON.stringify({ text: "a".repeat(500) }), null);
    expect(body.buffer.byteLength).toBe(body.length);
    expect(hash.length).toBe(16);
  });
});
