// A real HTTP server on 127.0.0.1 speaking the chat-completions protocol, answering like a
// model with a configurable per-step reliability: it reads the procedure back out of the
// prompt, computes the reference and perturbs it (lib/generate's simulator for arith, own
// running sums for dict-sum), so the runner is tested end to end against real sockets.
// Scripted faults: 429 with Retry-After, 500, a hung request, a malformed body.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatMessage } from "../../lib/generate/prompts";
import { createRng, hashSeed, type Rng } from "../../lib/generate/rng";
import { simulateArith } from "../../lib/generate/simulate-arith";
import { profileFromP } from "../../lib/generate/simulate";

export type Fault = "429" | "429-date" | "500" | "hang" | "malformed" | "no-content";

export interface FakeLlmOptions {
  /** per-step probability of a correct step (relative to the model's own earlier values) */
  p: number;
  seed?: number;
  /** request number (1-based, in arrival order) → fault served instead of an answer */
  faults?: Record<number, Fault>;
  /** wrap dict-sum replies in a <think> block (the runner must strip it from the history) */
  thinking?: boolean;
  /** Retry-After seconds sent with 429 */
  retryAfterSeconds?: number;
  /** delay before each answer, ms */
  delayMs?: number;
  /** answers with a 401 unless this bearer token is sent */
  apiKey?: string;
}

export interface FakeLlmServer {
  url: string;
  stats: { requests: number; answered: number; faults: Record<string, number>; thinkInHistory: number; models: Set<string> };
  close(): Promise<void>;
}

export async function startFakeLlm(opts: FakeLlmOptions): Promise<FakeLlmServer> {
  const stats: FakeLlmServer["stats"] = { requests: 0, answered: 0, faults: {}, thinkInHistory: 0, models: new Set() };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const n = ++stats.requests;
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) return send(res, 404, { error: { message: "not found" } });
      if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) return send(res, 401, { error: { message: "bad key" } });
      const fault = opts.faults?.[n];
      if (fault) {
        stats.faults[fault] = (stats.faults[fault] ?? 0) + 1;
        return serveFault(res, fault, opts.retryAfterSeconds ?? 1);
      }
      let body: { model: string; messages: ChatMessage[] };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(res, 400, { error: { message: "invalid JSON" } });
      }
      stats.models.add(body.model);
      for (const m of body.messages) if (m.role === "assistant" && m.content.includes("<think>")) stats.thinkInHistory++;
      const content = answer(body.messages, opts);
      const reply = () => {
        stats.answered++;
        const promptTokens = Math.ceil(body.messages.reduce((t, m) => t + m.content.length, 0) / 4);
        send(res, 200, {
          id: `chatcmpl-${n}`,
          object: "chat.completion",
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: promptTokens, completion_tokens: Math.ceil(content.length / 4), total_tokens: 0 },
        });
      };
      if (opts.delayMs) setTimeout(reply, opts.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // hung requests included
        server.close(() => resolve());
      }),
  };
}

function send(res: http.ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(json));
}

function serveFault(res: http.ServerResponse, fault: Fault, retryAfter: number) {
  switch (fault) {
    case "429":
      return send(res, 429, { error: { message: "rate limited" } }, { "retry-after": String(retryAfter) });
    case "429-date":
      return send(
        res,
        429,
        { error: { message: "rate limited" } },
        { "retry-after": new Date(Date.now() + retryAfter * 1000).toUTCString() },
      );
    case "500":
      return send(res, 500, { error: { message: "internal error" } });
    case "hang":
      return; // never answers: the client's timeout must fire
    case "malformed":
      res.writeHead(200, { "content-type": "application/json" });
      return res.end('{"choices": [{"message": {"content": "<answer>4');
    case "no-content":
      return send(res, 200, { choices: [] });
  }
}

/** The model's reply to a conversation, deterministic in (seed, messages). */
export function answer(messages: ChatMessage[], opts: Pick<FakeLlmOptions, "p" | "seed" | "thinking">): string {
  const rng = createRng(hashSeed("fake-llm", opts.seed ?? 0, JSON.stringify(messages)));
  const system = messages.find((m) => m.role === "system")?.content ?? "";
  const users = messages.filter((m) => m.role === "user");
  const last = users[users.length - 1]?.content ?? "";
  if (/^Execute the following procedure/.test(last)) return arithReply(last, opts.p, rng);
  if (/Dictionary \(word: value\)/.test(system)) return turnReply(messages, dictionary(system), opts, rng);
  if (/Dictionary \(word: value\)/.test(last)) return singleTurnReply(last, opts.p, rng);
  return "I can only do arithmetic procedures and running sums.";
}

function arithReply(prompt: string, p: number, rng: Rng): string {
  const head = prompt.split("\nRules:")[0];
  const x = Number(/^S1 = x = (\S+)$/m.exec(head)?.[1]);
  const y = Number(/^S2 = y = (\S+)$/m.exec(head)?.[1]);
  const steps = [...head.matchAll(/^S(\d+) = S(\d+) ([-+*/]) S(\d+)$/gm)].map((m) => ({ op: m[3], a: Number(m[2]), b: Number(m[4]) }));
  const L = steps.length + 2;
  return simulateArith(profileFromP(p), { id: `fake-${L}`, length: L, input: { x, y, steps } }, rng);
}

function dictionary(text: string): Record<string, number> {
  const block = text.split("Dictionary (word: value):\n")[1]?.split("\n\n")[0] ?? "";
  return Object.fromEntries(
    block
      .split("\n")
      .map((l) => l.split(": "))
      .map(([w, v]) => [w, Number(v)]),
  );
}

const keysOf = (userText: string) =>
  userText
    .replace(/^Keys?: /, "")
    .split(", ")
    .map((k) => k.trim());
const answerOf = (text: string): number | null => {
  const m = /<answer>\s*(-?\d+)\s*<\/answer>/.exec(text.replace(/<think>[\s\S]*?<\/think>/g, ""));
  return m ? Number(m[1]) : null;
};

/** A wrong update: never equal to the right one. */
function slip(rng: Rng, correct: number): number {
  const off = rng.int(1, 20);
  return rng.chance(0.5) ? correct + off : correct - off;
}

/** Multi-turn and self-conditioning: add this turn's values to the model's own last answer. */
function turnReply(messages: ChatMessage[], dict: Record<string, number>, opts: Pick<FakeLlmOptions, "p" | "thinking">, rng: Rng): string {
  const own = [...messages].reverse().find((m) => m.role === "assistant");
  const prev = own ? (answerOf(own.content) ?? 0) : 0;
  const keys = keysOf(messages[messages.length - 1].content);
  const values = keys.map((k) => dict[k] ?? 0);
  const correct = prev + values.reduce((a, b) => a + b, 0);
  const value = rng.chance(opts.p ** keys.length) ? correct : slip(rng, correct);
  const body = `<answer>${value}</answer>`;
  return opts.thinking ? `<think>${keys.map((k, i) => `${k} is ${values[i]}`).join(", ")}; ${prev} plus that.</think>\n${body}` : body;
}

function singleTurnReply(prompt: string, p: number, rng: Rng): string {
  const dict = dictionary(prompt);
  let own = 0;
  const sums: number[] = [];
  for (const m of prompt.matchAll(/^Turn \d+: (.+)$/gm)) {
    const values = m[1].split(", ").map((k) => dict[k.trim()] ?? 0);
    const correct = own + values.reduce((a, b) => a + b, 0);
    own = rng.chance(p ** values.length) ? correct : slip(rng, correct);
    sums.push(own);
  }
  return `<answer>${sums.join(", ")}</answer>`;
}
