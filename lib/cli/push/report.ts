// What `stepwise push` prints: each run's URL on the server, or the server's refusal as it
// words it (with the file:line: field errors of a 422).
import type { Source } from "./sources";
import { serverBase, type ServerAnswer } from "./upload";

export function serverMessage(a: ServerAnswer): string {
  const error = a.body?.error;
  return typeof error === "string" ? error : a.text.trim().slice(0, 200) || `HTTP ${a.status}`;
}

export function printRefusal(source: Source, a: ServerAnswer) {
  console.error(`stepwise push: ${source.label}: the server answered ${a.status}: ${serverMessage(a)}`);
  const errors = Array.isArray(a.body?.errors) ? (a.body!.errors as unknown[]) : [];
  for (const e of errors.slice(0, 20)) {
    if (typeof e === "string") console.error(`  ${e}`);
    else if (e && typeof e === "object") {
      const x = e as { file?: string; line?: number; field?: string; message?: string };
      console.error(`  ${x.file ?? source.label}:${x.line ?? "?"}: ${x.field ?? "-"}: ${x.message ?? JSON.stringify(e)}`);
    }
  }
  if (errors.length > 20) console.error(`  … and ${errors.length - 20} more`);
}

export function report(server: URL, source: Source, a: ServerAnswer) {
  const runs = Array.isArray(a.body?.runs) ? (a.body!.runs as { key?: string; generations?: number; items?: number }[]) : [];
  if (runs.length === 0) console.log(`${source.label}: loaded (HTTP ${a.status})`);
  for (const r of runs) {
    if (!r.key) continue;
    const link = new URL(`${serverBase(server)}/runs/${encodeURIComponent(r.key)}`);
    const count = r.generations ?? r.items;
    console.log(`${source.label}: ${r.key}${count === undefined ? "" : ` (${count} generations)`} → ${link.href}`);
  }
}
