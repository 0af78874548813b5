import type { NextRequest } from "next/server";
import { FAILURE_MODES } from "@/lib/analysis/types";
import { apiRoute } from "@/lib/api/errors";
import { authorizeExport } from "@/lib/auth/request";
import { getStore } from "@/lib/db";
import { getLeaderboard } from "@/lib/queries/leaderboard";
import { parseLeaderboardParams } from "@/lib/url/leaderboard";
import { csvResponse, EXPORT_LIMIT, jsonResponse, toCsv } from "../csv";

export const dynamic = "force-dynamic";

// The leaderboard as shown (same filters, sort and "accuracy at" lengths), every page.
export const GET = apiRoute(async (request: NextRequest) => {
  const gate = await authorizeExport(await getStore(), request);
  if (!gate.ok) return gate.response;
  const sp = request.nextUrl.searchParams;
  const params = parseLeaderboardParams(sp);
  const board = await getLeaderboard(gate.ctx, { ...params, page: 1, pageSize: EXPORT_LIMIT });
  if (sp.get("format") === "json") {
    return jsonResponse("leaderboard", { sort: board.sort, dir: board.dir, at: board.at, total: board.total, rows: board.rows });
  }
  const header = [
    "run",
    "model",
    "family",
    "params_b",
    "thinking",
    "benchmark",
    "variant",
    "items",
    "generations",
    "max_length",
    "h50",
    "h50_lo",
    "h50_hi",
    "h50_censored",
    "h80",
    "l50",
    "l50_lo",
    "l50_hi",
    "l50_extrapolated",
    "l80",
    "p",
    "predicted_horizon",
    "first_accuracy",
    "last_accuracy",
    "sc_slope",
    "rank",
    ...board.at.map((l) => `accuracy_at_${l}`),
    ...FAILURE_MODES.map((m) => `mode_${m}`),
  ];
  const rows = board.rows.map((r) => [
    r.key,
    r.model,
    r.family,
    r.paramsB,
    r.thinking,
    r.benchmark,
    r.variant,
    r.items,
    r.generations,
    r.maxLength,
    r.h50,
    r.h50Lo,
    r.h50Hi,
    r.h50Censored,
    r.h80,
    r.l50,
    r.l50Lo,
    r.l50Hi,
    r.l50Extrapolated,
    r.l80,
    r.p,
    r.predictedHorizon,
    r.firstAccuracy,
    r.lastAccuracy,
    r.scSlope,
    r.rank,
    ...r.accuracyAt.map((a) => a.accuracy),
    ...FAILURE_MODES.map((m) => r.failureModes[m]),
  ]);
  return csvResponse("leaderboard", toCsv(header, rows));
});
