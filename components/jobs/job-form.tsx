"use client";
// Launch form: the same options as `stepwise run`, checked with the same zod schema as the API
// (lib/runner/options.ts) before anything is sent; the dataset file is read in the browser and
// posted as text to POST /api/v1/jobs with the API token as a bearer token. method="post" so a
// submit before hydration never puts the token into a URL.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { CONTROL, Field } from "@/components/ui/field";
import { describeIssues, jobRequestSchema } from "@/lib/runner/options";

const TEXT_FIELDS: { name: string; label: string; placeholder?: string; type?: string; required?: boolean }[] = [
  { name: "endpoint", label: "Endpoint (OpenAI-compatible base URL)", placeholder: "http://127.0.0.1:8000/v1", required: true },
  { name: "model", label: "Model", placeholder: "Qwen3-32B", required: true },
  { name: "runKey", label: "Run key (same key = resume)", placeholder: "qwen3-32b__lb3__2026-05-01", required: true },
  { name: "apiKeyEnv", label: "API key env var on the server (optional)", placeholder: "OPENAI_API_KEY" },
  { name: "concurrency", label: "Concurrency", placeholder: "4", type: "number" },
  { name: "epochs", label: "Epochs", placeholder: "1", type: "number" },
  { name: "temperature", label: "Temperature", placeholder: "0", type: "number" },
  { name: "maxTokens", label: "Max tokens (optional)", type: "number" },
  { name: "timeoutMs", label: "Timeout per request (ms)", placeholder: "120000", type: "number" },
  { name: "maxRetries", label: "Max retries", placeholder: "6", type: "number" },
];

export function JobForm() {
  const router = useRouter();
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const file = form.get("dataset");
    const input: Record<string, unknown> = {};
    for (const f of TEXT_FIELDS) {
      const v = String(form.get(f.name) ?? "").trim();
      if (v !== "") input[f.name] = v;
    }
    if (file instanceof File && file.size > 0) {
      input.dataset = await file.text();
      input.datasetName = file.name;
    }
    const parsed = jobRequestSchema.safeParse(input);
    if (!parsed.success) return setErrors(describeIssues(parsed.error));
    setBusy(true);
    setErrors([]);
    try {
      const res = await fetch("/api/v1/jobs", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${String(form.get("token") ?? "").trim()}` },
        body: JSON.stringify(parsed.data),
      });
      const body = (await res.json().catch(() => ({}))) as { id?: string; error?: string; errors?: string[] };
      if (!res.ok || !body.id) return setErrors([body.error ?? `HTTP ${res.status}`, ...(body.errors ?? [])]);
      router.push(`/jobs/${body.id}`);
    } catch (err) {
      setErrors([(err as Error).message]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" onSubmit={submit} className="grid gap-3 sm:grid-cols-2" aria-label="Launch a run">
      <Field label="Dataset (JSONL from `stepwise generate`)" htmlFor="job-dataset" className="sm:col-span-2">
        <input id="job-dataset" name="dataset" type="file" accept=".jsonl,.json,.txt" required className={CONTROL} />
      </Field>
      {TEXT_FIELDS.map((f) => (
        <Field key={f.name} label={f.label} htmlFor={`job-${f.name}`}>
          <input
            id={`job-${f.name}`}
            name={f.name}
            type={f.type ?? "text"}
            step="any"
            placeholder={f.placeholder}
            required={f.required}
            className={CONTROL}
          />
        </Field>
      ))}
      <Field label="API token (from `stepwise token create`)" htmlFor="job-token" className="sm:col-span-2">
        <input id="job-token" name="token" type="password" autoComplete="off" required className={CONTROL} />
      </Field>
      {errors.length ? (
        <ul role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 sm:col-span-2">
          {errors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
      <div className="sm:col-span-2">
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-sky-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-sky-700 disabled:opacity-60"
        >
          {busy ? "Starting…" : "Start run"}
        </button>
      </div>
    </form>
  );
}
