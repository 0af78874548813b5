import { Link } from "@/components/ui/link";
import { FailureModesByLengthChart } from "@/components/charts/failure-modes-by-length-chart";
import { FirstDivergenceHistogram } from "@/components/charts/first-divergence-histogram";
import { Card, EmptyState } from "@/components/ui/card";
import { fmtInt, fmtPct } from "@/components/ui/format";
import { MODE_LABEL } from "@/components/ui/status-badge";
import { modeRules } from "@/lib/analysis/mode-rules";
import { FAILURE_MODES } from "@/lib/analysis/types";
import type { RunSummary } from "@/lib/queries/runs";
import { runHref, runItemsTemplate } from "@/lib/url/run";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";

/** The "Failures" tab: failure modes by length, first-divergence histogram, mode totals. */
export function RunFailures({ run }: { run: RunSummary }) {
  const m = run.metrics;
  const rules = modeRules(run.benchmark, run.selfConditioning);
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <Card
        title="Failure modes by length"
        description="Share of each length's generations showing each mode (several may hold at once, so they are not stacked). Click a cell to open those items."
      >
        <FailureModesByLengthChart
          rows={run.extras.modes_by_length}
          itemsHref={runItemsTemplate(run.key, { minLen: "{length}", maxLen: "{length}", mode: "{mode}" })}
        />
      </Card>
      <Card
        title="First divergence"
        description="The first step where the model leaves the reference execution. Click a bar to open those items."
      >
        {m.first_divergence_histogram ? (
          <FirstDivergenceHistogram
            bins={m.first_divergence_histogram}
            maxLength={run.extras.max_length}
            itemsHref={runItemsTemplate(run.key, { div: "{step}-{stepMax}" })}
          />
        ) : (
          <EmptyState title="Step-level analysis unavailable">This run has no per-step data, so there is no first divergence.</EmptyState>
        )}
      </Card>
      <Card className="lg:col-span-2" title="Failure modes" description={`Counts over ${fmtInt(m.generations)} generations.`}>
        <div className="overflow-x-auto">
          <Table density="inline" className="w-full">
            <TableHeader>
              <TableRow>
                <TableHead>Mode</TableHead>
                <TableHead>Rule</TableHead>
                <TableHead align="right">Generations</TableHead>
                <TableHead align="right">Share</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {FAILURE_MODES.map((mode) => (
                <TableRow key={mode}>
                  <TableCell className="whitespace-nowrap">
                    {m.failure_modes[mode] > 0 ? (
                      <Link
                        className="font-medium text-sky-800 hover:underline"
                        href={runHref(run.key, { tab: "items", mode })}
                        prefetch={false}
                      >
                        {MODE_LABEL[mode]}
                      </Link>
                    ) : (
                      <span className="text-neutral-500">{MODE_LABEL[mode]}</span>
                    )}
                  </TableCell>
                  <TableCell className="text-neutral-600">
                    {rules[mode] ?? (
                      <span className="text-neutral-400 italic">
                        does not apply to {run.selfConditioning ? "self-conditioning runs" : run.benchmark}
                      </span>
                    )}
                  </TableCell>
                  <TableCell align="right">{rules[mode] === null ? "—" : fmtInt(m.failure_modes[mode])}</TableCell>
                  <TableCell align="right">
                    {rules[mode] === null ? "—" : fmtPct(m.generations ? m.failure_modes[mode] / m.generations : null, 1)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </Card>
    </div>
  );
}
