import type { Db } from "../db";
import { decodeItemContent } from "./item-content";
import { storedOutput } from "./output-text";

// `stepwise export`: a run back as native JSONL (SPEC §5), streamed page by page so a run of
// any size never sits in memory. Loading the output into an empty store gives the same
// metrics (tests/store/export.test.ts).
const PAGE = 500;

export async function* exportRun(prisma: Db, key: string): AsyncGenerator<string> {
  const run = await prisma.run.findUnique({ where: { key }, include: { model: true } });
  if (!run) throw new Error(`no run with key '${key}'`);
  const m = run.model;
  yield JSON.stringify({
    type: "run",
    key: run.key,
    model: { name: m.name, family: m.family, params_b: m.paramsB, thinking: m.thinking },
    benchmark: run.benchmark,
    variant: JSON.parse(run.variantJson),
    config: JSON.parse(run.config),
    source: JSON.parse(run.source),
    created_at: run.createdAt,
  });
  let cursor = 0;
  for (;;) {
    const page = await prisma.generation.findMany({
      where: { runId: run.id, id: { gt: cursor } },
      orderBy: { id: "asc" },
      take: PAGE,
      include: { item: { select: { key: true, length: true, contentId: true, content: { select: { body: true } } } } },
    });
    if (page.length === 0) return;
    // an item's epochs usually share a page: decode its record once
    let contentId = -1;
    let content = { input: {}, reference: [] } as ReturnType<typeof decodeItemContent>;
    for (const g of page) {
      if (g.item.contentId !== contentId) {
        contentId = g.item.contentId;
        content = decodeItemContent(g.item.content.body);
      }
      const { input, reference } = content;
      const given = g.given ? (JSON.parse(g.given) as Record<string, unknown>) : {};
      const usage =
        given.usage ??
        (g.promptTokens !== null || g.completionTokens !== null
          ? { prompt_tokens: g.promptTokens, completion_tokens: g.completionTokens }
          : undefined);
      const line: Record<string, unknown> = {
        type: "item",
        id: g.item.key,
        length: g.item.length,
        epoch: g.epoch,
        input,
      };
      if (given.output !== "none") {
        const text = storedOutput(g.output, g.outputDeflated);
        line.output = given.output === "turns" ? (JSON.parse(text) as string[]) : text;
      }
      if (run.benchmark === "generic") line.reference = reference;
      if (given.steps !== undefined) line.steps = given.steps;
      if (given.answer !== undefined) line.answer = given.answer;
      if (usage !== undefined) line.usage = usage;
      if (g.latencyMs !== null) line.latency_ms = g.latencyMs;
      if (g.costUsd !== null) line.cost_usd = g.costUsd;
      if (g.metadata !== null) line.metadata = JSON.parse(g.metadata);
      yield JSON.stringify(line);
    }
    cursor = page[page.length - 1].id;
  }
}
