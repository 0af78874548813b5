"use client";

import { useRowLinkNavigation } from "@/components/ui/link";
import { SegmentedLinks } from "@/components/charts/controls/segmented-links";
import { Pagination } from "@/components/table/pagination";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeader, TableRow } from "@/components/table/table";
import type { CompareData, CompareRun, Outcome, PairItem } from "@/lib/queries/compare";
import { COMPARE_PAGE_SIZE, compareHref, type CompareParams, type CompareShow } from "@/lib/url/compare";
import { generationPath } from "@/lib/url/shared";

// A client leaf rendered on the server: its payload is the page's 50 rows of data rather than their
// elements (docs/decisions.md, "Charts are client components, rendered on the server"). One short
// class per cell (app/globals.css, "Cells of the compare item list"). The generation links are
// plain anchors opened client-side by one handler on the body, not a Next `Link` each.
const OUTCOME: Record<Outcome, { label: string; cls: string }> = {
  regression: { label: "A only (regression)", cls: "outcome outcome-regression" },
  improvement: { label: "B only (improvement)", cls: "outcome outcome-improvement" },
  neither: { label: "both wrong", cls: "outcome outcome-neither" },
  both: { label: "both right", cls: "outcome outcome-both" },
};

const SHOWS: { id: CompareShow; label: string }[] = [
  { id: "discordant", label: "Discordant" },
  { id: "regressions", label: "Regressions" },
  { id: "improvements", label: "Improvements" },
  { id: "both-wrong", label: "Both wrong" },
  { id: "shift", label: "Divergence shift" },
  { id: "all", label: "All" },
];

/** A's or B's outcome as the cell itself: no element inside. */
function Verdict({ ok }: { ok: boolean }) {
  return <TableCell className={ok ? "verdict-right" : "verdict-wrong"}>{ok ? "✓ right" : "✗ wrong"}</TableCell>;
}

function shift(it: PairItem): string {
  if (it.aDiv == null || it.bDiv == null) return "—";
  const d = it.bDiv - it.aDiv;
  return d === 0 ? "0" : (d > 0 ? "+" : "−") + Math.abs(d);
}

/** What the list shows of a run: its key for the links, its label for their names. */
type RunName = Pick<CompareRun, "key" | "label">;

/** Items of one pair, regressions first; each links to both generations. */
export function ItemList({
  items,
  a,
  b,
  p,
  runKeys,
}: {
  items: CompareData["items"];
  a: RunName;
  b: RunName;
  p: CompareParams;
  runKeys: string[];
}) {
  const { rows, total, page, pages } = items;
  const onRowLinkClick = useRowLinkNavigation();
  const at = (change: Partial<CompareParams>) => compareHref({ ...p, runs: runKeys, page: 1, ...change });
  return (
    <div>
      <SegmentedLinks
        label="Show"
        testId="compare-show"
        current={p.show}
        options={SHOWS.map((s) => ({ id: s.id, label: s.label, href: at({ show: s.id }) }))}
      />
      <TableFrame className="mt-3">
        <Table className="min-w-full" data-testid="compare-items">
          <TableCaption>
            Items of {a.label} (A) and {b.label} (B)
          </TableCaption>
          <TableHeader className="bg-neutral-50">
            <TableRow>
              <TableHead>Item</TableHead>
              <TableHead align="right">Length</TableHead>
              <TableHead>Outcome</TableHead>
              <TableHead>A</TableHead>
              <TableHead>B</TableHead>
              <TableHead align="right" title="Step of the first divergence in A and B">
                First divergence A → B
              </TableHead>
              <TableHead align="right">Shift</TableHead>
              <TableHead>Generations</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody onClick={onRowLinkClick}>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={8} align="center" className="py-6! text-neutral-500">
                  No items in this group.
                </TableCell>
              </TableRow>
            ) : (
              rows.map((it) => (
                <TableRow key={it.itemKey} data-testid="compare-item">
                  <TableCell className="pair-item" title={it.itemKey}>
                    {it.itemKey}
                  </TableCell>
                  <TableCell align="right">{it.length}</TableCell>
                  <TableCell>
                    <span className={OUTCOME[it.outcome].cls}>{OUTCOME[it.outcome].label}</span>
                  </TableCell>
                  <Verdict ok={it.aCorrect} />
                  <Verdict ok={it.bCorrect} />
                  <TableCell align="right">{`${it.aDiv ?? "none"} → ${it.bDiv ?? "none"}`}</TableCell>
                  <TableCell align="right">{shift(it)}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    <a
                      href={generationPath(a.key, it.itemKey)}
                      className="pair-link"
                      aria-label={`Generation of ${a.label} on ${it.itemKey}`}
                    >
                      A
                    </a>
                    <a
                      href={generationPath(b.key, it.itemKey)}
                      className="pair-link"
                      aria-label={`Generation of ${b.label} on ${it.itemKey}`}
                    >
                      B
                    </a>
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableFrame>
      <Pagination
        page={page}
        pageCount={pages}
        total={total}
        pageSize={COMPARE_PAGE_SIZE}
        noun="items"
        hrefFor={(n) => compareHref({ ...p, runs: runKeys, page: n })}
      />
    </div>
  );
}
