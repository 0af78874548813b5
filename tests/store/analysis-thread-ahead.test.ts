import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AnalysisThread, analysisThreadUrl } from "../../lib/store/analysis-thread-start";
import { AHEAD_EVENTS } from "../../lib/store/done-ahead";
import type { ThreadEvent } from "../../lib/store/parallel-source";
import { EXAMPLES } from "../helpers/fixtures";

// Which generations the analysis thread does the loader's part of, by default: those it makes
// while the loader has more than AHEAD_EVENTS of its events untaken, and none where the loader
// waits on a server (PostgreSQL), where that thread is the busier one.
const LINES = AHEAD_EVENTS + 300;

function batch(): { bytes: Uint8Array<ArrayBuffer>; offsets: Uint32Array<ArrayBuffer> } {
  const [run, ...rest] = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8").trim().split("\n");
  const next = rest.findIndex((l) => JSON.parse(l).type === "run");
  const items = next < 0 ? rest : rest.slice(0, next); // the first run's
  const lines = [run];
  for (let k = 0; k < LINES; k++) lines.push(JSON.stringify({ ...JSON.parse(items[k % items.length]), id: `item-${k}` }));
  const encoded = lines.map((l) => Buffer.from(l + "\n"));
  const offsets = new Uint32Array(encoded.length + 1);
  encoded.forEach((b, i) => (offsets[i + 1] = offsets[i] + b.length));
  return { bytes: new Uint8Array(Buffer.concat(encoded)), offsets };
}

/** How many of the batch's generations came back with the loader's part done, none taken meanwhile. */
async function doneAhead(loaderWaitsOnServer: boolean): Promise<{ generations: number; ahead: number }> {
  const thread = new AnalysisThread(analysisThreadUrl, { file: "ahead.jsonl" });
  try {
    const { bytes, offsets } = batch();
    thread.post({ kind: "lines", first: 1, bytes, offsets, compressesOutputs: true, loaderWaitsOnServer }, [bytes.buffer, offsets.buffer]);
    const events: ThreadEvent[] = [];
    for (;;) {
      const reply = await thread.next();
      expect(reply.errors).toEqual([]);
      events.push(...reply.events);
      if (reply.done) break;
    }
    const generations = events.filter((e) => e.kind === "prepared");
    return { generations: generations.length, ahead: generations.filter((e) => e.p.ahead !== undefined).length };
  } finally {
    await thread.stop();
  }
}

describe("the analysis thread's part of the loader's work", () => {
  it("is done for the generations past the loader's backlog where the loader writes itself", async () => {
    // the run's event is one of the events untaken
    expect(await doneAhead(false)).toEqual({ generations: LINES, ahead: LINES + 1 - AHEAD_EVENTS });
  }, 30_000);

  it("is never done where the loader waits on a server", async () => {
    expect(await doneAhead(true)).toEqual({ generations: LINES, ahead: 0 });
  }, 30_000);
});
