import { describe, expect, it } from "vitest";
import { AnalysisThread } from "../../lib/store/analysis-thread-start";

// Replies come on the thread's channel, or (PostgreSQL) wait serialized on a port of their own
// until the loader takes them; either way a failure of the thread comes after the replies it
// sent before failing.
describe("the analysis thread's replies", () => {
  it.each([false, true])("are taken in order, then the thread's failure, named (replies on their own port: %s)", async (repliesOnPort) => {
    const thread = new AnalysisThread(new URL("../helpers/failing-analysis-thread.mjs", import.meta.url), { file: "f.jsonl" });
    try {
      thread.post({
        kind: "lines",
        first: 1,
        bytes: new Uint8Array(0),
        offsets: new Uint32Array([0]),
        compressesOutputs: false,
        loaderWaitsOnServer: repliesOnPort,
      });
      // taken only after the thread has failed: the reply it sent first still comes first
      await new Promise((r) => setTimeout(r, 300));
      const reply = await thread.next();
      expect(reply.errors.map((e) => e.message)).toEqual(["first"]);
      await expect(thread.next()).rejects.toThrow(/f\.jsonl: the analysis thread failed: boom; nothing was loaded/);
    } finally {
      await thread.stop();
    }
  });
});
