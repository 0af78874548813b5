// Every real third-party file in the shared realdata folder (located by
// tests/helpers/shared-data.ts) that an importer accepts keeps its own reported score after
// import (read in place; never copied into the repository). Files no importer takes are listed
// with the reason the importer gives. Skips, saying why, when the folder is absent.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { importFile } from "../../lib/import";
import { parseImportOptions } from "../../lib/import/options";
import { describeRealdata, REALDATA as REAL } from "../helpers/shared-data";
import { STORE_KINDS, storedMetrics } from "../helpers/stores";

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name === "README.md" ? [] : [path.join(dir, e.name)]))
    .sort();
}

const options = parseImportOptions({});
if (!options.ok) throw new Error(options.error);

/** The score a file reports about itself, per run key, beside what the store now says. */
async function ownScores(store: Store, file: string, format: string, runKeys: string[]): Promise<[string, number, number][]> {
  const pairs: [string, number, number][] = [];
  if (format === "selfcond") {
    const doc = JSON.parse(fs.readFileSync(file, "utf8")) as { data: Record<string, { accuracy: number }> };
    const m = (await storedMetrics(store, runKeys[0]))!;
    for (const p of m.self_conditioning!.points) {
      const rate = Object.keys(doc.data).find((r) => Number(r) === p.induced_error_rate)!;
      pairs.push([`${path.basename(file)} rate ${rate}`, doc.data[rate].accuracy, p.accuracy]);
    }
  } else {
    // Inspect and lm-eval files report accuracy in their header/results; compare the stored first-answer accuracy.
    const run = await store.prisma.run.findUniqueOrThrow({ where: { key: runKeys[0] } });
    const reported = reportedAccuracy(file, format, JSON.parse(run.config));
    if (reported !== null) pairs.push([path.basename(file), reported, run.firstAccuracy ?? NaN]);
  }
  return pairs;
}

function reportedAccuracy(file: string, format: string, config: Record<string, unknown>): number | null {
  if (format === "lm-eval") {
    const dir = path.dirname(file);
    const stamp = /_(\d{4}-\d{2}-\d{2}T[\d.-]+)\.jsonl$/.exec(file)?.[1];
    const res =
      stamp && fs.existsSync(path.join(dir, `results_${stamp}.json`))
        ? JSON.parse(fs.readFileSync(path.join(dir, `results_${stamp}.json`), "utf8"))
        : null;
    const task = /^samples_(.+)_\d{4}-/.exec(path.basename(file))?.[1];
    const v = res?.results?.[task ?? ""]?.[`${config.metric},${config.filter}`];
    return typeof v === "number" ? v : null;
  }
  return null; // Inspect: the header's metric is read by the importer's own test; none in realdata today
}

describeRealdata("real third-party files in the shared realdata folder", () => {
  describe.each(STORE_KINDS)("on $name", (kind) => {
    let store: Store;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ store, drop } = await kind.create());
    });
    afterAll(async () => drop?.());

    it(
      "imports every file it can; each keeps its own reported score; the rest are refused with a reason",
      { timeout: 300_000 },
      async () => {
        const files = walk(REAL);
        let compared = 0;
        const refused: string[] = [];
        for (const file of files) {
          const r = await importFile(store, file, file, options.ok ? options.options : ({} as never));
          if (!r.ok) {
            expect(r.errors[0].message.length, file).toBeGreaterThan(10);
            refused.push(`${path.relative(REAL, file)}: ${r.errors[0].message}`);
            continue;
          }
          const pairs = await ownScores(
            store,
            file,
            r.format!,
            r.runs.map((x) => x.key),
          );
          for (const [what, reported, stored] of pairs) {
            expect(stored, what).toBeCloseTo(reported, 9);
            compared++;
          }
        }
        // Today: the eight self-conditioning reproductions (40 rate accuracies); the aggregate-only
        // demo, METR's fitted CSVs and the word list are not results an importer takes.
        expect(compared).toBeGreaterThanOrEqual(40);
        expect(refused.some((r) => r.startsWith("illusion-repro-ping98k/standard_demo.json") && /no per-sample results/.test(r))).toBe(
          true,
        );
        console.log(`import-realdata: ${compared} reported scores kept; not importable:\n  ${refused.join("\n  ")}`);
      },
    );
  });
});
