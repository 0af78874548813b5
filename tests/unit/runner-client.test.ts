// The chat client's retry policy against a real loopback server: which failures are retried,
// how long it waits (Retry-After, full jitter), and when it gives up.
import { afterEach, describe, expect, it } from "vitest";
import { ChatClient, ChatError, completionsUrl, readCompletion } from "../../lib/runner/client";
import { stripThinking } from "../../lib/runner/conversation";
import { costUsd, priceFor } from "../../lib/runner/pricing";
import { backoffDelay, parseRetryAfter } from "../../lib/runner/retry";
import { startFakeLlm, type Fault, type FakeLlmServer } from "../helpers/fake-llm-server";

const ARITH =
  "Execute the following procedure of 3 steps. It defines the variables S1 to S3.\n\nS1 = x = 2\nS2 = y = 3\nS3 = S1 + S2\n\nRules:";
const messages = [{ role: "user" as const, content: ARITH }];

let server: FakeLlmServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function clientWith(faults: Record<number, Fault>, extra: Partial<ConstructorParameters<typeof ChatClient>[0]> = {}) {
  server = await startFakeLlm({ p: 1, faults, retryAfterSeconds: 7 });
  const waits: number[] = [];
  const client = new ChatClient({
    endpoint: server.url,
    model: "fake-llm",
    timeoutMs: 300,
    retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 },
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
    ...extra,
  });
  return { client, waits };
}

describe("retry policy", () => {
  it("full jitter stays within [0, min(cap, base·2^n)]", () => {
    const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(3, policy, () => 0.999)).toBe(799);
    expect(backoffDelay(10, policy, () => 0.999)).toBe(999);
    expect(backoffDelay(4, policy, () => 0)).toBe(0);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-05-01T12:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Fri, 01 May 2026 12:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Fri, 01 May 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it("builds the completions URL from a base URL", () => {
    expect(completionsUrl("http://h:8000/v1")).toBe("http://h:8000/v1/chat/completions");
    expect(completionsUrl("http://h:8000/")).toBe("http://h:8000/v1/chat/completions");
    expect(completionsUrl("http://h/openai/v1/chat/completions")).toBe("http://h/openai/v1/chat/completions");
  });

  it("reads content and usage; a body without content is malformed", () => {
    expect(readCompletion('{"choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":3,"completion_tokens":1}}')).toEqual({
      content: "hi",
      promptTokens: 3,
      completionTokens: 1,
    });
    expect(() => readCompletion('{"choices":[]}')).toThrow(/malformed/);
    expect(() => readCompletion("<html>")).toThrow(/malformed/);
  });
});

describe("ChatClient against a loopback server", () => {
  it("honours Retry-After on 429 and retries 500, a hang and a malformed body", async () => {
    // A timeout long enough that only the hung request hits it on a busy machine.
    const { client, waits } = await clientWith(
      { 1: "429", 2: "500", 3: "hang", 4: "malformed" },
      { timeoutMs: 2000, retry: { maxRetries: 4, baseDelayMs: 100, maxDelayMs: 1000 } },
    );
    const r = await client.complete(messages);
    expect(r.attempts).toBe(5);
    expect(r.content).toContain("<answer>5</answer>");
    expect(r.promptTokens).toBeGreaterThan(0);
    expect(waits[0]).toBeGreaterThanOrEqual(7000); // Retry-After: 7, plus a little jitter
    expect(waits[0]).toBeLessThan(7100);
    expect(waits.slice(1)).toEqual([100, 200, 400]); // random 0.5 of 200, 400, 800
  });

  it("honours an HTTP-date Retry-After", async () => {
    const { client, waits } = await clientWith({ 1: "429-date" });
    await client.complete(messages);
    expect(waits[0]).toBeGreaterThan(5000); // 7 s ahead, to the second
  });

  it("gives up after maxRetries with a ChatError naming the last failure", async () => {
    const { client, waits } = await clientWith({ 1: "malformed", 2: "malformed", 3: "malformed", 4: "malformed" });
    await expect(client.complete(messages)).rejects.toThrow(/malformed.*gave up after 4 attempts/);
    expect(waits).toHaveLength(3);
  });

  it("times out a hung request", async () => {
    const { client } = await clientWith({ 1: "hang" }, { retry: { maxRetries: 0 } });
    const t = Date.now();
    await expect(client.complete(messages)).rejects.toThrow(/timed out after 300 ms/);
    expect(Date.now() - t).toBeLessThan(3000);
  });

  it("does not retry a 401 and reports its status", async () => {
    server = await startFakeLlm({ p: 1, apiKey: "k" });
    const client = new ChatClient({ endpoint: server.url, model: "m", timeoutMs: 1000, apiKey: "wrong" });
    const e = await client.complete(messages).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ChatError);
    expect((e as ChatError).status).toBe(401);
    expect(server.stats.requests).toBe(1);
    const ok = new ChatClient({ endpoint: server.url, model: "m", timeoutMs: 1000, apiKey: "k" });
    expect((await ok.complete(messages)).attempts).toBe(1);
  });

  it("retries a refused connection (network error)", async () => {
    const dead = await startFakeLlm({ p: 1 });
    const url = dead.url;
    await dead.close();
    const waits: number[] = [];
    const client = new ChatClient({
      endpoint: url,
      model: "m",
      timeoutMs: 500,
      retry: { maxRetries: 2 },
      sleep: async (ms) => void waits.push(ms),
    });
    await expect(client.complete(messages)).rejects.toThrow(/network error.*gave up after 3 attempts/);
    expect(waits).toHaveLength(2);
  });
});

describe("thinking and prices", () => {
  it("strips <think> blocks, closed or cut off", () => {
    expect(stripThinking("<think>a\nb</think>\n<answer>3</answer>")).toBe("<answer>3</answer>");
    expect(stripThinking("<think>x</think>A<think>y</think>B")).toBe("AB");
    expect(stripThinking("<answer>1</answer><think>never closed")).toBe("<answer>1</answer>");
  });

  it("prices known models per 1M tokens; unknown models cost null", () => {
    expect(costUsd(priceFor("openai/gpt-4o-mini"), 1_000_000, 1_000_000)).toBeCloseTo(0.75, 10);
    expect(costUsd(priceFor("my-model", { "my-model": { input: 1, output: 2 } }), 500, 250)).toBeCloseTo(0.001, 12);
    expect(costUsd(priceFor("unknown-model"), 100, 100)).toBeNull();
  });
});
