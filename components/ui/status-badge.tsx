import type { FailureMode } from "@/lib/analysis/types";

// Every status is told by colour AND a text label (never colour alone), so the trace
// diff reads the same for colour-blind users and in a grey-scale screenshot.

export type TraceStatus = "correct" | "slip" | "propagated" | "missing" | "extra" | "revised";

export const STATUS_STYLE: Record<TraceStatus, { label: string; badge: string; row: string; mark: string; help: string }> = {
  correct: {
    label: "correct",
    badge: "badge-correct",
    row: "",
    mark: "bg-emerald-100 text-emerald-950",
    help: "matches the reference value",
  },
  slip: {
    label: "slip",
    badge: "badge-slip",
    row: "bg-red-50/60",
    mark: "bg-red-200 text-red-950",
    help: "a new error: wrong even from the model's own operand values",
  },
  propagated: {
    label: "propagated",
    badge: "badge-propagated",
    row: "bg-amber-50/60",
    mark: "bg-amber-200 text-amber-950",
    help: "an inherited error: right from the model's own earlier values, wrong against the reference",
  },
  missing: {
    label: "missing",
    badge: "badge-missing",
    row: "bg-neutral-50 text-neutral-500",
    mark: "bg-neutral-200",
    help: "the model never states this step",
  },
  extra: {
    label: "extra",
    badge: "badge-extra",
    row: "bg-violet-50/60",
    mark: "bg-violet-200 text-violet-950",
    help: "a claimed step outside the procedure's steps",
  },
  revised: {
    label: "revised",
    badge: "badge-revised",
    row: "bg-sky-50/60",
    mark: "bg-sky-200 text-sky-950",
    help: "stated again later with a different value",
  },
};

// Each badge class draws its own icon (app/globals.css: ✓ ✗ ↳ ∅ + ↺), hidden from screen readers.

export function StatusBadge({ status, className = "" }: { status: TraceStatus; className?: string }) {
  const s = STATUS_STYLE[status];
  return (
    <span title={s.help} data-status={status} className={className ? `badge ${s.badge} ${className}` : `badge ${s.badge}`}>
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
  return <span className="badge-mode">{MODE_LABEL[mode]}</span>;
}

export function OutcomeBadge({ correct, label }: { correct: boolean | null; label?: string }) {
  if (correct === null) return <span className="text-neutral-400">—</span>;
  return correct ? (
    <span className="badge badge-correct">{label ?? "correct"}</span>
  ) : (
    <span className="badge badge-wrong">{label ?? "wrong"}</span>
  );
}
