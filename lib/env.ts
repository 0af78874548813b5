import path from "node:path";
import { z } from "zod";

// Typed configuration: read once, validated, with the defaults a newcomer needs.
const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "DATABASE_URL must be a file: (SQLite) or postgresql:// URL")
    .optional(),
  STEPWISE_ACCESS: z.enum(["open", "private"]).default("open"),
  STEPWISE_MAX_BODY_MB: z.coerce.number().positive().default(512),
  /** uploads to POST /api/v1/import (spooled to a temporary file; Inspect logs can be large) */
  STEPWISE_MAX_UPLOAD_MB: z.coerce.number().positive().default(2048),
  /** threads of a load or import sent to the server, past 8 MB or of unknown size (1: ~100 MB less memory each, slower) */
  STEPWISE_LOAD_THREADS: z.enum(["1", "2"]).default("2"),
  /** force the Secure flag on cookies (it is set anyway when a request arrives over https) */
  STEPWISE_SECURE_COOKIES: z
    .enum(["0", "1", "true", "false"])
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  STEPWISE_SESSION_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24 * 7),
  /** write API: a token bucket per token or user, refilled at RATE per minute up to BURST */
  STEPWISE_WRITE_RATE_PER_MIN: z.coerce.number().positive().default(30),
  STEPWISE_WRITE_BURST: z.coerce.number().int().positive().default(10),
  /** the origin users reach the server at behind a proxy (https://stepwise.example.org): links use it, and the CSRF check accepts only it */
  STEPWISE_PUBLIC_URL: z
    .string()
    .url("STEPWISE_PUBLIC_URL must be a URL such as https://stepwise.example.org")
    .refine((u) => /^https?:\/\//.test(u), "STEPWISE_PUBLIC_URL must be http(s)")
    .transform((u) => new URL(u).origin)
    .optional(),
  /** how many reverse proxies stand in front (0: none trusted): the client address for sign-in limits is that many entries from the right of X-Forwarded-For */
  STEPWISE_TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** jobs running at once over all server processes on the store; more wait queued (docs/runner.md) */
  STEPWISE_MAX_JOBS: z.coerce.number().int().min(1).max(64).default(2),
  /** a job whose server stopped renewing its lease for this long is resumed by another (or the restarted) server */
  STEPWISE_JOB_LEASE_SECONDS: z.coerce.number().min(2).max(600).default(15),
});

const parsed = envSchema.safeParse(process.env);
if (!parsed.success) {
  throw new Error("Invalid environment: " + parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
}

export const env = {
  ...parsed.data,
  DATABASE_URL: parsed.data.DATABASE_URL ?? "file:" + path.resolve(process.cwd(), "data/stepwise.db"),
};

export type Provider = "sqlite" | "postgres";
export function providerOf(url: string): Provider {
  return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}
export function sqlitePath(url: string): string {
  return url.replace(/^file:/, "");
}
