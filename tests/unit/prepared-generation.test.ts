import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NativeReader } from "../../lib/native/reader";
import { prepareGeneration } from "../../lib/store/rows";
import { EXAMPLES } from "../helpers/fixtures";

// What the analysis thread posts to the loader's for each generation holds no bytes: records are
// compressed by the thread that writes them, into slices of Node's buffer pool (lib/zstd.ts),
// and a slice posted to another thread would be copied with its whole 8 kB pool chunk.

/** Whether `v` holds a typed array or ArrayBuffer anywhere inside it. */
function holdsBytes(v: unknown): boolean {
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return true;
  if (Array.isArray(v)) return v.some(holdsBytes);
  if (v !== null && typeof v === "object") return Object.values(v).some(holdsBytes);
  return false;
}

describe("the rows the analysis thread prepares", () => {
  it("hold text and numbers, never bytes, for every example file", () => {
    let seen = 0;
    for (const file of fs.readdirSync(EXAMPLES).filter((f) => f.endsWith(".jsonl"))) {
      const reader = new NativeReader(file);
      const lines = fs.readFileSync(path.join(EXAMPLES, file), "utf8").split("\n");
      const events = [...lines.map((l, i) => reader.line(l, i + 1)), ...reader.end()];
      for (const ev of events) {
        if (ev?.kind !== "generation") continue;
        const p = prepareGeneration(ev);
        expect(holdsBytes(p), `${file} line ${ev.line}`).toBe(false);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(100);
  });
});
