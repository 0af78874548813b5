import { Pagination } from "@/components/table/pagination";
import { ButtonLink } from "@/components/ui/field";
import type { ItemPage } from "@/lib/queries/items";
import type { RunSummary } from "@/lib/queries/runs";
import { hasItemFilters, runItemsExportHref, runItemsHref, type RunParams } from "@/lib/url/run";
import { ItemFilters } from "./item-filters";
import { ItemTable } from "./item-table";
import { TraceStripLegend } from "./trace-strip";

/** Previous / Next carry a keyset cursor (lib/queries/items.ts): a deep page costs what page 2 does. */
function cursorFor(items: ItemPage, page: number): Partial<RunParams> {
  if (!items.cursors || page <= 1) return {};
  if (page === items.page + 1) return { after: items.cursors.last };
  if (page === items.page - 1) return { before: items.cursors.first };
  return {};
}

/** The "Items" tab: filters, the generation table, paging and exports. */
export function RunItems({ run, params, items }: { run: RunSummary; params: RunParams; items: ItemPage }) {
  const filtered = hasItemFilters(params);
  return (
    <div>
      <ItemFilters runKey={run.key} params={params} lengths={items.lengths} hasSteps={run.hasSteps} />
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-neutral-600" data-testid="item-count">
          {items.total}
          {items.more ? "+" : ""} {items.total === 1 && !items.more ? "generation" : "generations"}
          {filtered ? " match" : ""}
        </p>
        <div className="flex gap-2">
          <ButtonLink href={runItemsExportHref(run.key, params, "csv")} download>
            Export CSV
          </ButtonLink>
          <ButtonLink href={runItemsExportHref(run.key, params, "json")} download>
            Export JSON
          </ButtonLink>
        </div>
      </div>
      {run.hasSteps ? (
        <p className="mb-2 text-xs text-neutral-600">
          <TraceStripLegend />
        </p>
      ) : null}
      <ItemTable
        runKey={run.key}
        rows={items.rows}
        params={params}
        epochs={run.generations > run.items}
        selfConditioning={run.selfConditioning}
        filtered={filtered}
      />
      <Pagination
        page={items.page}
        pageCount={items.pageCount}
        total={items.total}
        more={items.more}
        pageSize={items.pageSize}
        noun="generations"
        hrefFor={(page) => runItemsHref(run.key, params, { page, ...cursorFor(items, page) })}
      />
    </div>
  );
}
