import { csvResponse, toCsv } from "@/app/export/csv";
import { getStudy } from "@/lib/queries/study";
import { parseStudyParams } from "@/lib/url/study";
import { requireReader } from "@/lib/auth/server";

export const dynamic = "force-dynamic";

// The study table as CSV (one row per series × x), the same parameters and query as the page.
export async function GET(request: Request) {
  const p = parseStudyParams(new URL(request.url).searchParams);
  const r = await getStudy(await requireReader(), p);
  if (r.problem) return new Response(r.problem + "\n", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  const rows = r.data.flatMap((s) =>
    s.points.map((pt) => [s.name, pt.x, pt.value, pt.ci?.[0] ?? null, pt.ci?.[1] ?? null, pt.n, pt.models, pt.method, pt.runs.join(" ")]),
  );
  const header = ["series", r.x, r.metric, "ci_lo", "ci_hi", "n", "models", "interval", "runs"];
  return csvResponse(`study-${r.benchmark ?? "none"}-${r.metric}-by-${r.x}`, toCsv(header, rows));
}
