// Chat-completions client over fetch for any OpenAI-compatible server (vLLM, llama.cpp,
// Ollama, hosted APIs). Every request has a timeout; 429/5xx, timeouts, network errors and
// malformed bodies are retried with back-off (lib/runner/retry.ts), honouring Retry-After.
import type { ChatMessage } from "../generate/prompts";
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus, MAX_RETRY_AFTER_MS, parseRetryAfter, type RetryPolicy } from "./retry";

export interface ChatClientOptions {
  endpoint: string;
  model: string;
  apiKey?: string | null;
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
  temperature?: number;
  maxTokens?: number;
  /** tests shorten waits; defaults to setTimeout */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** told about every failed attempt that will be retried */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  attempt: number;
  reason: string;
  delayMs: number;
}

export interface ChatReply {
  content: string;
  promptTokens: number | null;
  completionTokens: number | null;
  latencyMs: number;
  /** requests made, retries included */
  attempts: number;
}

/** A request that failed for good (not retryable, or out of retries). */
export class ChatError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "ChatError";
  }
}

class Retryable extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** `…/v1` or a bare host become `…/v1/chat/completions`; a full path is kept. */
export function completionsUrl(endpoint: string): string {
  const u = endpoint.replace(/\/+$/, "");
  if (/\/chat\/completions$/.test(u)) return u;
  if (/\/v\d+$/.test(u)) return u + "/chat/completions";
  return u + "/v1/chat/completions";
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(t);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Reads the assistant text and usage out of a response body; throws Retryable when malformed. */
export function readCompletion(body: string): { content: string; promptTokens: number | null; completionTokens: number | null } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Retryable(`malformed response body (not JSON): ${JSON.stringify(body.slice(0, 80))}`);
  }
  const content = (json as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new Retryable("malformed response body: no choices[0].message.content");
  const usage = (json as { usage?: Record<string, unknown> }).usage ?? {};
  return { content, promptTokens: num(usage.prompt_tokens), completionTokens: num(usage.completion_tokens) };
}

export class ChatClient {
  readonly url: string;
  private policy: RetryPolicy;
  private sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private opts: ChatClientOptions) {
    this.url = completionsUrl(opts.endpoint);
    this.policy = { ...DEFAULT_RETRY, ...opts.retry };
    this.sleep = opts.sleep ?? defaultSleep;
  }

  /** One completion; retries until it succeeds or the policy gives up (then ChatError). */
  async complete(messages: ChatMessage[], signal?: AbortSignal): Promise<ChatReply> {
    const body = JSON.stringify({
      model: this.opts.model,
      messages,
      temperature: this.opts.temperature ?? 0,
      ...(this.opts.maxTokens ? { max_tokens: this.opts.maxTokens } : {}),
      stream: false,
    });
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await this.once(body, signal);
        return { ...r, attempts: attempt + 1 };
      } catch (e) {
        if (signal?.aborted) throw new ChatError("cancelled", attempt + 1);
        if (!(e instanceof Retryable)) throw e instanceof ChatError ? new ChatError(e.message, attempt + 1, e.status) : e;
        if (attempt >= this.policy.maxRetries) throw new ChatError(`${e.message} (gave up after ${attempt + 1} attempts)`, attempt + 1);
        const jitter = backoffDelay(attempt, this.policy, this.opts.random);
        // Retry-After is the server's minimum; keep the jitter on top so waiters don't stampede.
        const delayMs = e.retryAfterMs !== null ? Math.min(MAX_RETRY_AFTER_MS, e.retryAfterMs) + Math.floor(jitter / 4) : jitter;
        this.opts.onRetry?.({ attempt: attempt + 1, reason: e.message, delayMs });
        await this.sleep(delayMs, signal);
      }
    }
  }

  private async once(body: string, signal?: AbortSignal): Promise<Omit<ChatReply, "attempts">> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(new Error("timeout")), this.opts.timeoutMs);
    const onAbort = () => ctl.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const started = performance.now();
    try {
      let res: Response;
      let text: string;
      try {
        res = await fetch(this.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
          body,
          signal: ctl.signal,
        });
        // The body read shares the timeout: a server that sends headers and then hangs is a timeout too.
        text = await res.text();
      } catch (e) {
        if (signal?.aborted) throw e;
        if (ctl.signal.aborted) throw new Retryable(`request timed out after ${this.opts.timeoutMs} ms`);
        throw new Retryable(
          `network error: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`,
        );
      }
      if (!res.ok) {
        const detail = text.slice(0, 200).replace(/\s+/g, " ");
        if (isRetryableStatus(res.status))
          throw new Retryable(`HTTP ${res.status}${detail ? `: ${detail}` : ""}`, parseRetryAfter(res.headers.get("retry-after")));
        throw new ChatError(`HTTP ${res.status} from ${this.url}${detail ? `: ${detail}` : ""}`, 1, res.status);
      }
      const parsed = readCompletion(text);
      return { ...parsed, latencyMs: Math.round(performance.now() - started) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }
}
