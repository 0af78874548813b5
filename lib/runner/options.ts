// One zod schema for the options of a run, shared by `stepwise run`, POST /api/v1/jobs and the
// dashboard's launch form, so the three accept and reject exactly the same things.
import { z } from "zod";

const int = z.coerce.number().int();
/** Environment variable names only: the key itself never travels in options or job records. */
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name, e.g. OPENAI_API_KEY");

export const runSettingsSchema = z.object({
  /** base URL of an OpenAI-compatible server; `/v1/chat/completions` is appended unless present */
  endpoint: z
    .string({ error: "required" })
    .url("must be a URL such as http://127.0.0.1:8000/v1")
    .refine((u) => /^https?:\/\//.test(u), "must be http(s)"),
  model: z.string({ error: "required" }).trim().min(1, "required"),
  runKey: z.string({ error: "required" }).trim().min(1, "required").max(300),
  concurrency: int.min(1).max(256).default(4),
  apiKeyEnv: envName.optional(),
  timeoutMs: int.min(100).max(3_600_000).default(120_000),
  maxRetries: int.min(0).max(20).default(6),
  epochs: int.min(1).max(100).default(1),
  temperature: z.coerce.number().min(0).max(2).default(0),
  maxTokens: int.min(1).max(1_000_000).optional(),
  /** refresh stored metrics after this many new generations (and at the end) */
  refreshEvery: int.min(1).max(100_000).default(25),
});

/** `stepwise run`: the dataset and the price table are files on this machine. */
export const runCliSchema = runSettingsSchema.extend({
  dataset: z
    .string({ error: "required (a dataset file written by `stepwise generate`)" })
    .min(1, "required (a dataset file written by `stepwise generate`)"),
  prices: z.string().min(1).optional(),
});

/** A job started from the dashboard or the API: the dataset travels as JSONL text. */
export const jobRequestSchema = runSettingsSchema.extend({
  datasetName: z.string().trim().min(1).max(200).default("uploaded dataset"),
  dataset: z
    .string({ error: "a dataset file (native JSONL from `stepwise generate`) is required" })
    .min(1, "a dataset file (native JSONL from `stepwise generate`) is required")
    .max(64 * 1024 * 1024, "at most 64 MB"),
});

export type RunSettings = z.output<typeof runSettingsSchema>;
export type JobRequest = z.output<typeof jobRequestSchema>;

/** Zod issues as "field: message" lines, naming the flag or form field. */
export function describeIssues(e: z.ZodError): string[] {
  return e.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`);
}
