// Import options: one schema for `stepwise import` flags and POST /api/v1/import query params.
import { z } from "zod";
import { IMPORT_FORMATS } from "./formats";

/** A flag from a CLI boolean or a query string ("", "1", "true" / "0", "false"). */
const flag = (v: unknown) =>
  v === true || v === "" || v === "1" || v === "true" ? true : v === false || v === "0" || v === "false" ? false : v;

const name = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(200, `${what} is too long`);

export const importOptionsSchema = z.strictObject(
  {
    format: z.enum(IMPORT_FORMATS, { error: `format must be one of ${IMPORT_FORMATS.join(", ")}` }).default("auto"),
    /** lm-eval: the filter whose responses count (default: the first filter in the file) */
    filter: name("filter").optional(),
    /** lm-eval: the metric that means correct; Inspect: the scorer (defaults: exact_match, acc / the first scorer) */
    metric: name("metric").optional(),
    /** model name, when the file does not say it (or to override the name derived from it) */
    model: name("model").optional(),
    /** run key (a prefix when the file holds several runs) */
    key: name("key").optional(),
    /** METR: task weighting of the length fit */
    weighting: z
      .enum(["invsqrt_task_weight", "equal_task_weight"], { error: "weighting must be invsqrt_task_weight or equal_task_weight" })
      .default("invsqrt_task_weight"),
    maxErrors: z.coerce.number({ error: "max-errors must be a number" }).int().min(1).max(100000).optional(),
    /** Inspect: refuse a log with errored samples (default: import the completed ones and count the rest) */
    strict: z.preprocess(flag, z.boolean({ error: "strict must be true or false" })).default(false),
    /** a continuous score (in [0, 1]) counts as correct when ≥ this; without it such scores are refused */
    threshold: z.coerce
      .number({ error: "threshold must be a number" })
      .min(0, "threshold must be in [0, 1]")
      .max(1, "threshold must be in [0, 1]")
      .optional(),
  },
  { error: (iss) => (iss.code === "unrecognized_keys" ? `unknown option(s): ${iss.keys.join(", ")}` : undefined) },
);
export type ImportOptions = z.output<typeof importOptionsSchema>;

/** Parses options from plain strings (CLI flags, URL query); a readable message on error. */
export function parseImportOptions(raw: Record<string, unknown>): { ok: true; options: ImportOptions } | { ok: false; error: string } {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  const r = importOptionsSchema.safeParse(cleaned);
  if (r.success) return { ok: true, options: r.data };
  return { ok: false, error: r.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ") };
}
