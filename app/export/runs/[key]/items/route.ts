import type { NextRequest } from "next/server";
import { apiRoute } from "@/lib/api/errors";
import { authorizeRunExport } from "@/lib/auth/request";
import { getStore } from "@/lib/db";
import { getAllRunItems } from "@/lib/queries/items";
import { parseRunParams } from "@/lib/url/run";
import { routeParam } from "@/lib/url/shared";
import { csvResponse, EXPORT_LIMIT, jsonResponse, toCsv } from "../../../csv";

export const dynamic = "force-dynamic";

// A run's item table as filtered and sorted on the run page, every page.
export const GET = apiRoute(async (request: NextRequest, { params }: { params: Promise<{ key: string }> }) => {
  const key = routeParam((await params).key);
  const gate = await authorizeRunExport(await getStore(), request, key);
  if (!gate.ok) return gate.response;
  const sp = request.nextUrl.searchParams;
  const rows = await getAllRunItems(gate.ctx, gate.run, parseRunParams(sp), EXPORT_LIMIT);
  const name = `${key}-items`;
  if (sp.get("format") === "json") return jsonResponse(name, { run: key, total: rows.length, rows });
  const header = [
    "item",
    "epoch",
    "length",
    "induced_error_rate",
    "first_answer",
    "first_correct",
    "last_answer",
    "last_correct",
    "first_divergence",
    "divergence_kind",
    "modes",
    "clean",
    "statuses",
    "completion_tokens",
    "latency_ms",
  ];
  const body = rows.map((r) => [
    r.itemId,
    r.epoch,
    r.length,
    r.inducedErrorRate,
    r.firstAnswer,
    r.firstCorrect,
    r.lastAnswer,
    r.lastCorrect,
    r.firstDivergence,
    r.divergenceKind,
    r.modes.join(";"),
    r.clean,
    r.statuses,
    r.completionTokens,
    r.latencyMs,
  ]);
  return csvResponse(name, toCsv(header, body));
});
