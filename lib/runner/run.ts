// `stepwise run` and dashboard jobs: sends a dataset's items to a chat-completions server with
// bounded concurrency and writes each result into the store as it arrives (lib/store/
// incremental.ts). Resume = skip every (item, epoch) already stored under the run key.
import { tryAnalyseItem } from "../analysis/analyse";
import type { NativeItem, RunHeader } from "../analysis/types";
import type { Store } from "../db";
import { HARNESS } from "../generate/dataset";
import { PROMPT_VERSION } from "../generate/prompts";
import { addGeneration, genKey, openIncrementalRun, refreshRun } from "../store/incremental";
import { ChatClient, ChatError, type ChatClientOptions } from "./client";
import { runConversation, type Completer } from "./conversation";
import type { Dataset } from "./dataset";
import type { RunSettings } from "./options";
import { BUILTIN_PRICES, costUsd, priceFor, type PriceTable } from "./pricing";

export interface RunProgress {
  key: string;
  /** generations stored, earlier sessions included */
  done: number;
  total: number;
  /** stored by this session */
  added: number;
  /** skipped because already stored (resume) */
  skipped: number;
  failed: number;
  retries: number;
  inFlight: number;
  startedAt: number;
  errors: string[];
  status: "running" | "complete" | "incomplete" | "failed";
}

export interface ExecuteOptions {
  settings: RunSettings;
  dataset: Dataset;
  prices?: PriceTable;
  apiKey?: string | null;
  signal?: AbortSignal;
  onProgress?: (p: RunProgress) => void;
  /** tests: replace the HTTP client or shorten back-off */
  client?: Completer;
  clientOptions?: Partial<ChatClientOptions>;
}

/** HTTP statuses that no retry fixes: stop the run instead of failing every item the same way. */
const FATAL = new Set([400, 401, 403, 404, 422]);
const MAX_ERRORS_KEPT = 20;

export function runHeader(settings: RunSettings, dataset: Dataset): RunHeader {
  const d = dataset.header;
  const config: RunHeader["config"] = {
    ...d.config,
    temperature: settings.temperature,
    epochs: settings.epochs,
    prompt_version: PROMPT_VERSION,
  };
  if (settings.maxTokens) config.max_tokens = settings.maxTokens;
  else delete config.max_tokens;
  return {
    key: settings.runKey,
    model: { name: settings.model },
    benchmark: d.benchmark,
    variant: d.variant,
    config,
    source: {
      harness: HARNESS,
      runner: "stepwise run",
      dataset: dataset.name.split(/[\\/]/).pop() ?? dataset.name,
      endpoint: redact(settings.endpoint),
    },
    created_at: new Date().toISOString(),
  };
}

/** The endpoint without credentials or query (it is shown in the dashboard). */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "";
  }
}

export async function executeRun(store: Store, opts: ExecuteOptions): Promise<RunProgress> {
  const { settings, dataset, signal } = opts;
  const header = runHeader(settings, dataset);
  const total = dataset.items.length * settings.epochs;
  const run = await openIncrementalRun(store, header, dataset.items.length);
  const tasks: NativeItem[] = [];
  for (const item of dataset.items)
    for (let e = 0; e < settings.epochs; e++) if (!run.stored.has(genKey(item.id, e))) tasks.push({ ...item, epoch: e });
  const p: RunProgress = {
    key: header.key,
    done: total - tasks.length,
    total,
    added: 0,
    skipped: total - tasks.length,
    failed: 0,
    retries: 0,
    inFlight: 0,
    startedAt: Date.now(),
    errors: [],
    status: "running",
  };
  const price = priceFor(settings.model, { ...BUILTIN_PRICES, ...opts.prices });
  const client =
    opts.client ??
    new ChatClient({
      endpoint: settings.endpoint,
      model: settings.model,
      apiKey: opts.apiKey,
      timeoutMs: settings.timeoutMs,
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
      onRetry: () => (p.retries++, opts.onProgress?.(p)),
      ...opts.clientOptions,
      retry: { ...opts.clientOptions?.retry, maxRetries: settings.maxRetries },
    });
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  const note = (msg: string) => p.errors.length < MAX_ERRORS_KEPT && p.errors.push(msg);

  // Metrics refreshes are serialised and spaced: every refreshEvery results (1% of a big run)
  // or 5 s, and never closer than 5× the last refresh took, so that recomputing the metrics of a
  // large run (bootstrap included) stays a small share of the work.
  let sinceRefresh = 0;
  let lastRefresh = Date.now();
  let refreshCost = 0;
  let refreshing: Promise<unknown> = Promise.resolve();
  const maybeRefresh = () => {
    const gap = Date.now() - lastRefresh;
    const due = sinceRefresh >= Math.max(settings.refreshEvery, Math.ceil(total / 100)) || (sinceRefresh > 0 && gap > 5000);
    if (!due || gap < 5 * refreshCost) return;
    sinceRefresh = 0;
    lastRefresh = Date.now();
    refreshing = refreshing
      .then(async () => {
        const t = Date.now();
        await refreshRun(store, run, null);
        refreshCost = Date.now() - t;
      })
      .catch((e) => note(`metrics refresh: ${(e as Error).message}`));
  };

  async function one(task: NativeItem) {
    const conv = await runConversation(client, header, task, stop.signal);
    const item: NativeItem = {
      ...task,
      output: conv.output,
      usage:
        conv.promptTokens === null && conv.completionTokens === null
          ? null
          : { prompt_tokens: conv.promptTokens ?? undefined, completion_tokens: conv.completionTokens ?? undefined },
      latency_ms: conv.latencyMs,
      cost_usd: costUsd(price, conv.promptTokens, conv.completionTokens),
      metadata: withRunnerInfo(task.metadata, conv.requests, conv.retries),
    };
    const r = tryAnalyseItem(header, item);
    if (!r.ok) throw new Error(`item ${task.id}: ${r.errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`);
    if (await addGeneration(store, run, item, r.analysis)) {
      p.added++;
      sinceRefresh++;
    }
    p.done++;
    maybeRefresh();
  }

  let next = 0;
  let streak = 0; // generations failed in a row
  async function worker() {
    while (next < tasks.length && !stop.signal.aborted) {
      const task = tasks[next++];
      p.inFlight++;
      try {
        await one(task);
        streak = 0;
      } catch (e) {
        if (stop.signal.aborted) break;
        p.failed++;
        streak++;
        note(`${task.id}#${task.epoch}: ${(e as Error).message}`);
        if (e instanceof ChatError && e.status !== null && FATAL.has(e.status)) stop.abort(new Error(`stopped: ${(e as Error).message}`));
        // Every request failing after its retries means the server is down or wrong: stop.
        if (streak >= Math.max(10, 2 * settings.concurrency)) {
          note(`stopped after ${streak} generations failed in a row`);
          stop.abort(new Error("too many failures in a row"));
        }
      } finally {
        p.inFlight--;
        opts.onProgress?.(p);
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, Math.max(1, tasks.length)) }, worker));
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await refreshing;
  }
  const counts = await refreshRun(store, run, total);
  p.done = counts.generations;
  p.status = counts.status === "complete" ? "complete" : p.failed > 0 ? "failed" : "incomplete";
  opts.onProgress?.(p);
  return p;
}

function withRunnerInfo(metadata: unknown, requests: number, retries: number): unknown {
  const runner = { requests, retries };
  if (metadata === undefined || metadata === null) return { runner };
  if (typeof metadata === "object" && !Array.isArray(metadata)) return { ...(metadata as object), runner };
  return metadata;
}
