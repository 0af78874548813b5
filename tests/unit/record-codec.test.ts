import fc from "fast-check";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressRecord, decompressRecordText, isZstdRecord } from "../../lib/store/record-codec";
import { compressOutput, storedOutput } from "../../lib/store/output-text";
import { decodeItemContent, encodeItemContent } from "../../lib/store/item-content";
import { decodeStepTrace, encodeStepTrace } from "../../lib/store/step-trace";

// Records are copies, not views of the compressor's scratch (they are kept until their batch
// is written; none is sent between threads: tests/unit/prepared-generation.test.ts); records
// written before (raw deflate) still read.

describe("compressRecord", () => {
  it("round-trips any text, and a record stays as it was when the next one is made", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40_000, unit: "grapheme" }), fc.string({ maxLength: 40_000 }), (text, next) => {
        const record = compressRecord(text);
        const bytes = Buffer.from(record);
        compressRecord(next);
        expect(record.equals(bytes)).toBe(true);
        expect(isZstdRecord(record)).toBe(true);
        expect(decompressRecordText(record, 1 << 20)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("reads raw deflate records, as stores made before hold them", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20_000, unit: "grapheme" }), fc.integer({ min: 0, max: 9 }), (text, level) => {
        const old = deflateRawSync(text, { level });
        expect(isZstdRecord(old)).toBe(false);
        expect(decompressRecordText(old, 1 << 20)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a record that would grow past the limit, and a damaged one", () => {
    const record = compressRecord("x".repeat(10_000));
    expect(() => decompressRecordText(record, 9_999)).toThrow(/more than 9999/);
    expect(() => decompressRecordText(deflateRawSync("x".repeat(10_000)), 9_999)).toThrow();
    const damaged = Buffer.from(record);
    damaged[damaged.length - 2] ^= 0xff;
    expect(() => decompressRecordText(damaged, 1 << 20)).toThrow();
  });

  it("works on a worker thread: the native binding loads on any thread of the process", async () => {
    // the native binding loaded on a second thread of the same process
    const code = `
      const { parentPort } = require("node:worker_threads");
      const zstd = require(${JSON.stringify(createRequire(import.meta.url).resolve("zstd-napi/binding"))});
      const c = new zstd.CCtx();
      const src = Buffer.from("Step 1: 2 + 3 = 5\\n".repeat(50));
      const dst = Buffer.alloc(zstd.compressBound(src.length));
      const n = c.compress2(dst, src);
      parentPort.postMessage(dst.subarray(0, n));`;
    const worker = new Worker(code, { eval: true });
    const frame = await new Promise<Uint8Array>((resolve, reject) => worker.once("message", resolve).once("error", reject));
    await worker.terminate();
    expect(decompressRecordText(frame, 1 << 20)).toBe("Step 1: 2 + 3 = 5\n".repeat(50));
  });

  it("is what the output, item and step trace records are built with", () => {
    const output = compressOutput("x".repeat(300))!;
    expect(output.length).toBeLessThan(100);
    expect(storedOutput("", output)).toBe("x".repeat(300));
    const { body, hash } = encodeItemContent(JSON.stringify({ text: "a".repeat(500) }), null);
    expect(isZstdRecord(body)).toBe(true);
    expect(hash.length).toBe(16);
    expect(decodeItemContent(body).input).toEqual({ text: "a".repeat(500) });
    const trace = encodeStepTrace([{ status: "correct", expected: 5, claimed: 5, recomputed: null, span: [0, 4] }])!;
    expect(isZstdRecord(trace)).toBe(true);
    expect(decodeStepTrace(trace)).toEqual([{ step: 1, status: "correct", expected: "5", claimed: "5", recomputed: null, span: [0, 4] }]);
  });
});
