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
