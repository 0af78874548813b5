"use client";

import { useMemo } from "react";
import { DataTable } from "@/components/table/data-table";
import type { ItemRow } from "@/lib/queries/items";
import { effectiveItemSort, runItemsSortHref, type ItemSort, type RunParams } from "@/lib/url/run";
import { itemColumns } from "./item-columns";

export function ItemTable({
  runKey,
  rows,
  params,
  epochs,
  selfConditioning,
  filtered,
}: {
  runKey: string;
  rows: ItemRow[];
  params: RunParams;
  epochs: boolean;
  selfConditioning: boolean;
  filtered: boolean;
}) {
  const columns = useMemo(() => itemColumns(runKey, { epochs, selfConditioning }), [runKey, epochs, selfConditioning]);
  const sort = effectiveItemSort(params);
  return (
    <DataTable
      columns={columns}
      data={rows}
      getRowId={(r) => `${r.itemId}#${r.epoch}`}
      sort={{ key: sort.sort, dir: sort.dir }}
      sortHref={(key) => runItemsSortHref(runKey, params, key as ItemSort)}
      caption="Generations of this run"
      rowTestId="item-row"
      rowClassName={(r) => (r.firstCorrect ? undefined : "bg-red-50/30")}
      emptyMessage={filtered ? "No generation matches these filters." : "This run has no generations."}
    />
  );
}
