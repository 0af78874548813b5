"use client";

import { useMemo } from "react";
import { DataTable } from "@/components/table/data-table";
import type { LeaderboardRow } from "@/lib/queries/leaderboard";
import { leaderboardSortHref, type LeaderboardParams, type LeaderboardSortColumn } from "@/lib/url/leaderboard";
import { leaderboardColumns } from "./leaderboard-columns";

export function LeaderboardTable({
  rows,
  at,
  params,
  sort,
}: {
  rows: LeaderboardRow[];
  at: number[];
  params: LeaderboardParams;
  sort: { key: string; dir: "asc" | "desc" };
}) {
  const columns = useMemo(() => leaderboardColumns(at), [at]);
  return (
    <DataTable
      columns={columns}
      data={rows}
      getRowId={(r) => r.key}
      sort={sort}
      sortHref={(key) => leaderboardSortHref(params, key as LeaderboardSortColumn)}
      caption="Leaderboard: one row per run"
      rowTestId="leaderboard-row"
      rowClassName={(r) => (r.rank === "leader" ? "bg-sky-50/40" : undefined)}
      emptyMessage="No run matches these filters."
    />
  );
}
