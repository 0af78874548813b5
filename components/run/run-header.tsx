import { Link } from "@/components/ui/link";
import { RunProgress } from "@/components/run/run-progress";
import { PageHeader } from "@/components/ui/page-header";
import { fmtModelSize } from "@/components/ui/format";
import type { RunSummary } from "@/lib/queries/runs";
import { importNotes } from "@/lib/import/provenance";
import { expectedGenerations } from "@/lib/runner/progress";
import { DeleteRunForm } from "@/components/auth/delete-run-form";
import { compareHref } from "@/lib/url/compare";
import { curvesHref } from "@/lib/url/curves";
import { leaderboardHref } from "@/lib/url/leaderboard";

/** Breadcrumb, model and run identity, and links into the other views for this run. */
export function RunHeader({ run, canDelete = false }: { run: RunSummary; canDelete?: boolean }) {
  const params = Object.entries(run.variantParams).filter(([k, v]) => k !== "name" && (typeof v !== "object" || Array.isArray(v)));
  const modelLine = [run.model.family, fmtModelSize(run.model.paramsB)].filter(Boolean).join(" · ");
  const notes = importNotes(run.source, run.config);
  const linkClass =
    "inline-flex items-center rounded-md border border-neutral-300 bg-white px-2.5 py-1.5 text-sm font-medium text-neutral-700 shadow-sm hover:bg-neutral-50";
  return (
    <PageHeader
      eyebrow={
        <nav aria-label="Breadcrumb" className="flex flex-wrap items-center gap-1">
          <Link href="/" className="hover:underline">
            Leaderboard
          </Link>
          <span aria-hidden="true">/</span>
          <Link href={leaderboardHref({ benchmark: run.benchmark })} className="hover:underline">
            {run.benchmark}
          </Link>
          <span aria-hidden="true">/</span>
          <Link href={leaderboardHref({ benchmark: run.benchmark, variant: run.variant })} className="hover:underline">
            {run.variant}
          </Link>
        </nav>
      }
      title={
        <span className="inline-flex flex-wrap items-center gap-2">
          {run.model.name}
          {run.model.thinking ? (
            <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200 ring-inset">
              thinking
            </span>
          ) : null}
          {run.status !== "complete" ? (
            <span className="rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-300 ring-inset">
              {run.status}
            </span>
          ) : null}
        </span>
      }
      subtitle={
        <div className="space-y-0.5">
          <div className="font-mono text-xs break-all text-neutral-500">{run.key}</div>
          <RunProgress
            status={run.status}
            done={run.generations}
            total={expectedGenerations(run.expectedItems, run.config)}
            updatedAt={run.loadedAt}
          />
          <div data-testid="run-params">
            {modelLine}
            {params.length ? (
              <span className="text-neutral-500">
                {/* the separator only between the model's line and the parameters, never leading */}
                {modelLine ? " · " : ""}
                {params.map(([k, v]) => `${k}=${Array.isArray(v) ? `[${v.join(", ")}]` : String(v)}`).join(" · ")}
              </span>
            ) : null}
          </div>
          {notes.map((n) => (
            <div key={n} className="text-sm text-amber-800" data-testid="import-note">
              {n}
            </div>
          ))}
        </div>
      }
      actions={
        <>
          <Link href={curvesHref({ runs: [run.key] })} className={linkClass}>
            Curves
          </Link>
          <Link href={compareHref({ runs: [run.key] })} className={linkClass}>
            Compare…
          </Link>
          {canDelete ? <DeleteRunForm runKey={run.key} generations={run.generations} /> : null}
        </>
      }
    />
  );
}
