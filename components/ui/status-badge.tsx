import type { FailureMode } from "@/lib/analysis/types";

// Every status is told by colour AND a text label (never colour alone), so the trace
// diff reads the same for colour-blind users and in a grey-scale screenshot.

export type TraceStatus = "correct" | "slip" | "propagated" | "missing" | "extra" | "revised";

export const STATUS_STYLE: Record<TraceStatus, { label: string; badge: string; row: string; mark: string; help: string }> = {
  correct: {
    label: "correct",
    badge: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
    row: "",
    mark: "bg-emerald-100 text-emerald-950",
    help: "matches the reference value",
  },
  slip: {
    label: "slip",
    badge: "bg-red-50 text-red-800 ring-red-600/40",
    row: "bg-red-50/60",
    mark: "bg-red-200 text-red-950",
    help: "a new error: wrong even from the model's own operand values",
  },
  propagated: {
    label: "propagated",
    badge: "bg-amber-50 text-amber-800 ring-amber-600/40",
    row: "bg-amber-50/60",
    mark: "bg-amber-200 text-amber-950",
    help: "an inherited error: right from the model's own earlier values, wrong against the reference",
  },
  missing: {
    label: "missing",
    badge: "bg-neutral-100 text-neutral-700 ring-neutral-500/40",
    row: "bg-neutral-50 text-neutral-500",
    mark: "bg-neutral-200",
    help: "the model never states this step",
  },
  extra: {
    label: "extra",
    badge: "bg-violet-50 text-violet-800 ring-violet-600/40",
    row: "bg-violet-50/60",
    mark: "bg-violet-200 text-violet-950",
    help: "a claimed step outside the procedure's steps",
  },
  revised: {
    label: "revised",
    badge: "bg-sky-50 text-sky-800 ring-sky-600/40",
    row: "bg-sky-50/60",
    mark: "bg-sky-200 text-sky-950",
    help: "stated again later with a different value",
  },
};

const ICON: Record<TraceStatus, string> = { correct: "✓", slip: "✗", propagated: "↳", missing: "∅", extra: "+", revised: "↺" };

export function StatusBadge({ status, className = "" }: { status: TraceStatus; className?: string }) {
  const s = STATUS_STYLE[status];
  return (
    <span
      title={s.help}
      data-status={status}
      className={`inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${s.badge} ${className}`}
    >
      <span aria-hidden="true">{ICON[status]}</span>
      {s.label}
    </span>
  );
}

export const MODE_LABEL: Record<FailureMode, string> = {
  "missing-answer": "missing answer",
  "format-error": "format error",
  "premature-answer": "premature answer",
  "self-correction": "self-correction",
  "under-executed": "under-executed",
  "extra-steps": "extra steps",
  slip: "slip",
};

export function ModeBadge({ mode }: { mode: FailureMode }) {
  return (
    <span className="inline-flex items-center rounded bg-neutral-100 px-1.5 py-0.5 text-xs whitespace-nowrap text-neutral-700 ring-1 ring-neutral-300 ring-inset">
      {MODE_LABEL[mode]}
    </span>
  );
}

export function OutcomeBadge({ correct, label }: { correct: boolean | null; label?: string }) {
  if (correct === null) return <span className="text-neutral-400">—</span>;
  return correct ? (
    <span className="inline-flex items-center gap-1 rounded-md bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-800 ring-1 ring-emerald-600/30 ring-inset">
      <span aria-hidden="true">✓</span>
      {label ?? "correct"}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-md bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-800 ring-1 ring-red-600/30 ring-inset">
      <span aria-hidden="true">✗</span>
      {label ?? "wrong"}
    </span>
  );
}
