import { Link } from "@/components/ui/link";
import { FailureModesByLengthChart } from "@/components/charts/failure-modes-by-length-chart";
import { FirstDivergenceHistogram } from "@/components/charts/first-divergence-histogram";
import { Card, EmptyState } from "@/components/ui/card";
import { fmtInt, fmtPct } from "@/components/ui/format";
import { MODE_LABEL } from "@/components/ui/status-badge";
import { FAILURE_MODES } from "@/lib/analysis/types";
import type { RunSummary } from "@/lib/queries/runs";
import { runHref, runItemsTemplate } from "@/lib/url/run";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";

const MODE_HELP: Record<(typeof FAILURE_MODES)[number], string> = {
  "missing-answer": "no final answer anywhere",
  "format-error": "an answer is present but unparseable",
  "premature-answer": "the first answer comes before the trace states the last step",
  "self-correction": "two or more distinct answers, the first one wrong",
  "under-executed": "fewer than L distinct reference steps stated",
  "extra-steps": "a claimed step outside 1..L",
  slip: "at least one new error at a step",
};

/** The "Failures" tab: failure modes by length, first-divergence histogram, mode totals. */
export function RunFailures({ run }: { run: RunSummary }) {
  const m = run.metrics;
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
                  <TableCell className="text-neutral-600">{MODE_HELP[mode]}</TableCell>
                  <TableCell align="right">{fmtInt(m.failure_modes[mode])}</TableCell>
                  <TableCell align="right">{fmtPct(m.generations ? m.failure_modes[mode] / m.generations : null, 1)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </Card>
    </div>
  );
}
