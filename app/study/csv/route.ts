import type { NextRequest } from "next/server";
import { csvResponse, toCsv } from "@/app/export/csv";
import { apiRoute } from "@/lib/api/errors";
import { authorizeExport } from "@/lib/auth/request";
import { getStore } from "@/lib/db";
import { getStudy } from "@/lib/queries/study";
import { parseStudyParams } from "@/lib/url/study";

export const dynamic = "force-dynamic";

// The study table as CSV (one row per series × x), the same parameters and query as the page.
// Checked like the other exports (from the request itself, before any read): a stranger is
// sent to sign in and gets no data.
export const GET = apiRoute(async (request: NextRequest) => {
  const gate = await authorizeExport(await getStore(), request);
  if (!gate.ok) return gate.response;
  const r = await getStudy(gate.ctx, parseStudyParams(request.nextUrl.searchParams));
  if (r.problem) return new Response(r.problem + "\n", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  const rows = r.data.flatMap((s) =>
    s.points.map((pt) => [
      s.name,
      pt.x,
      pt.value,
      pt.ci?.[0] ?? null,
      pt.ci?.[1] ?? null,
      pt.n,
      pt.models,
      pt.method,
      pt.censored,
      pt.runs.join(" "),
    ]),
  );
  // censored: the value is a lower bound (a run behind it never fell below 50%; H₀.₅ only)
  const header = ["series", r.x, r.metric, "ci_lo", "ci_hi", "n", "models", "interval", "censored", "runs"];
  return csvResponse(`study-${r.benchmark ?? "none"}-${r.metric}-by-${r.x}`, toCsv(header, rows));
});
