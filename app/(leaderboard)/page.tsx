import type { Metadata } from "next";
import { LeaderboardFilters } from "@/components/leaderboard/leaderboard-filters";
import { LeaderboardTable } from "@/components/leaderboard/leaderboard-table";
import { Pagination } from "@/components/table/pagination";
import { ButtonLink } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { requireReader } from "@/lib/auth/server";
import { getLeaderboard, getLeaderboardFilterOptions } from "@/lib/queries/leaderboard";
import { leaderboardExportHref, leaderboardHref, parseLeaderboardParams } from "@/lib/url/leaderboard";

export const metadata: Metadata = { title: "Leaderboard" };
export const dynamic = "force-dynamic";

export default async function LeaderboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requireReader();
  const params = parseLeaderboardParams(await searchParams);
  const [board, options] = await Promise.all([getLeaderboard(ctx, params), getLeaderboardFilterOptions(ctx)]);

  return (
    <>
      <PageHeader
        title="Leaderboard"
        subtitle="One row per run. H₀.₅ is the number of leading steps a model executes with task accuracy ≥ 50%; runs whose 95% CI overlaps their benchmark leader's are marked tied."
        actions={
          <>
            <ButtonLink href={leaderboardExportHref(params, "csv")} download>
              Export CSV
            </ButtonLink>
            <ButtonLink href={leaderboardExportHref(params, "json")} download>
              Export JSON
            </ButtonLink>
          </>
        }
      />
      <LeaderboardFilters params={params} options={options} at={board.at} />
      <LeaderboardTable rows={board.rows} at={board.at} params={params} sort={{ key: board.sort, dir: board.dir }} />
      <Pagination
        page={board.page}
        pageCount={board.pageCount}
        total={board.total}
        pageSize={board.pageSize}
        noun="runs"
        hrefFor={(page) => leaderboardHref({ ...params, page })}
      />
    </>
  );
}
