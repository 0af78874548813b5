import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { LeaderboardFilters } from "@/components/leaderboard/leaderboard-filters";
import { LeaderboardLegends } from "@/components/leaderboard/leaderboard-legends";
import { LeaderboardTable } from "@/components/leaderboard/leaderboard-table";
import { Pagination } from "@/components/table/pagination";
import { ButtonLink } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { LinkTabs } from "@/components/ui/tabs";
import { requireReader } from "@/lib/auth/server";
import { getLeaderboard, getLeaderboardFilterOptions } from "@/lib/queries/leaderboard";
import { defaultBenchmark } from "@/lib/queries/leaderboard-rank";
import { glossaryHref } from "@/lib/url/glossary";
import { leaderboardExportHref, leaderboardHref, parseLeaderboardParams } from "@/lib/url/leaderboard";
import { selfCondHref } from "@/lib/url/selfcond";

export const metadata: Metadata = { title: "Leaderboard" };
export const dynamic = "force-dynamic";

export default async function LeaderboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requireReader();
  const asked = parseLeaderboardParams(await searchParams);
  const options = await getLeaderboardFilterOptions(ctx, asked);
  // One benchmark at a time: steps of different benchmarks are not the same unit.
  const params = { ...asked, benchmark: asked.benchmark ?? defaultBenchmark(options.benchmarks) };
  const board = await getLeaderboard(ctx, params);
  const tabs = options.benchmarks.map((b) => ({
    id: b,
    label: b,
    href: leaderboardHref({ q: params.q, demo: params.demo, benchmark: b }),
  }));
  if (options.sweeps) tabs.push({ id: "sweeps", label: `Self-conditioning sweeps (${options.sweeps}) →`, href: selfCondHref({}) });

  return (
    <>
      <PageHeader
        title="Leaderboard"
        subtitle={
          <>
            One row per run of one benchmark, ranked by H₀.₅: the number of leading steps a model executes with task accuracy ≥ 50%. Runs
            whose 95% CI overlaps the leader&apos;s are marked tied.{" "}
            <Link href={glossaryHref("horizon")} className="text-sky-800 underline">
              What the numbers mean
            </Link>
          </>
        }
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
      <LinkTabs label="Benchmark" tabs={tabs} current={params.benchmark ?? ""} />
      <LeaderboardFilters params={params} options={options} at={board.at} hiddenDemo={board.hiddenDemo} />
      <LeaderboardLegends />
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
