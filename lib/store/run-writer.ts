import { SummaryColumns } from "../analysis/summary-columns";
import type { RunHeader } from "../analysis/types";
import type { GenerationEvent } from "../native/reader";
import { compressRecord } from "./record-codec";
import { contentsOfRun, dropUnusedContents, sealItemContent, storeContents, type ItemContent } from "./item-content";
import type { RawTx } from "./raw";
import { PostingBuilder, writePostings } from "./search-postings";
import { writeSignposts } from "./signposts";
import {
  GEN_COLS,
  GEN_EPOCH,
  GEN_ORDINAL,
  GEN_STEP_TRACE,
  ITEM_COLS,
  ITEM_CONTENT,
  compressRowOutput,
  prepareGeneration,
  type PreparedGeneration,
  WRITER_BATCH,
} from "./rows";
import { ensureRunRefs, renumber, writeRunMetrics } from "./run-record";
import { deleteRowsInSlices, giveTurn } from "./delete-run";

// Writes one run inside a load transaction: header rows first, generations in batches,
// then the metrics and stored aggregates once the run's last item has been seen.

const ID_BLOCK = 1000;

// On the server the loader's thread is the one that answers requests: there a SQLite batch is
// written in slices of one statement's rows, each followed by a turn of the event loop, so that
// pages asked for meanwhile are not held for a whole batch (/about's p95 during a 117 MB upload
// ~1.0–1.5 s → ~0.2–0.3 s, for ~8% more upload time; docs/performance.md, "Load"). The CLI
// writes whole batches. PostgreSQL's driver waits on the network anyway.
const SHARED_SLICE_ROWS = 64;

/** Hands out ids reserved in blocks, so a load makes one id query per thousand rows. */
class IdPool {
  private next = new Map<string, [number, number]>();
  constructor(private tx: RawTx) {}
  async take(table: string): Promise<number> {
    let range = this.next.get(table);
    if (!range || range[0] > range[1]) {
      const first = await this.tx.reserveIds(table, ID_BLOCK);
      range = [first, first + ID_BLOCK - 1];
      this.next.set(table, range);
    }
    return range[0]++;
  }
}

export class RunWriter {
  /** what the run's metrics need, kept until its last generation; also numbers its items */
  readonly summaries = new SummaryColumns();
  /** Item row id by the summaries' item index */
  private itemIds: number[] = [];
  private itemRows: unknown[][] = [];
  /** the content record of each row of itemRows */
  private itemContents: ItemContent[] = [];
  private genRows: unknown[][] = [];
  /** SQLite: the run's search-index rows, built as its generations are written (lib/store/search-postings.ts) */
  private readonly postings: PostingBuilder | null;
  steps = 0;
  private ordinal = 0;
  // The (itemId, epoch) of the last generation: while each comes after the one before, the
  // load order is the item order and the running count is each generation's ordinal.
  private lastItem = -1;
  private lastEpoch = -1;
  private inOrder = true;

  private constructor(
    private tx: RawTx,
    private ids: IdPool,
    readonly header: RunHeader,
    readonly runId: number,
    /** a run with this key existed and was replaced */
    readonly replaced = false,
    /** the replaced run's content records: dropped at the end where the new run does not use them */
    private replacedContents: number[] = [],
    /** SQLite: add the outputs to the search index as they are written (lib/store/search-index.ts) */
    indexSearch = false,
    /** rows per slice of a batch, each slice followed by a turn of the event loop; null: whole batches */
    private readonly sliceRows: number | null = null,
  ) {
    this.openedSource = JSON.stringify(header.source ?? null);
    this.postings = indexSearch ? new PostingBuilder(runId) : null;
  }
  private readonly openedSource: string;

  /**
   * Replaces any run with this key (the enclosing transaction makes it atomic). `demo` marks
   * a run of `stepwise demo`, which the leaderboard hides once real runs exist.
   */
  static async open(
    tx: RawTx,
    header: RunHeader,
    {
      demo = false,
      searchIndex = false,
      sharesEventLoop = false,
    }: { demo?: boolean; searchIndex?: boolean; /** the server's: give its event loop turns */ sharesEventLoop?: boolean } = {},
    ids = new IdPool(tx),
  ): Promise<RunWriter> {
    const { modelId, variantId } = await ensureRunRefs(tx, header);
    const sliceRows = sharesEventLoop && tx.provider === "sqlite" ? SHARED_SLICE_ROWS : null;
    const [old] = await tx.query<{ id: number }>(`SELECT "id" FROM "Run" WHERE "key" = $1`, [header.key]);
    const replacedContents = old ? await contentsOfRun(tx, Number(old.id)) : [];
    if (old && sliceRows) await deleteRowsInSlices(tx, Number(old.id));
    const replaced = (await tx.exec(`DELETE FROM "Run" WHERE "key" = $1`, [header.key])) > 0;
    const runId = await tx.reserveIds("Run", 1);
    await tx.exec(
      `INSERT INTO "Run" ("id", "key", "modelId", "variantId", "benchmark", "config", "source", "variantJson", "createdAt",
        "status", "itemCount", "generationCount", "maxLength", "hasSteps", "metrics", "extras", "loadedAt", "searchIndexed", "demo")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'complete', 0, 0, 0, false, '{}', '{}', $10, $11, $12)`,
      [
        runId,
        header.key,
        modelId,
        variantId,
        header.benchmark,
        JSON.stringify(header.config ?? {}),
        JSON.stringify(header.source ?? null),
        JSON.stringify(header.variant),
        header.created_at,
        new Date().toISOString(), // ISO text: what Prisma itself writes to a SQLite DateTime column
        // flagged indexed for search as the load commits (lib/store/search-index.ts)
        false,
        demo,
      ],
    );
    return new RunWriter(tx, ids, header, runId, replaced, replacedContents, searchIndex, sliceRows);
  }

  async add(ev: GenerationEvent): Promise<void> {
    await this.addPrepared(prepareGeneration(ev));
  }

  /** Stores a generation whose rows were built elsewhere (possibly on the analysis thread). */
  async addPrepared(p: PreparedGeneration): Promise<void> {
    let itemId: number;
    if (this.summaries.itemAt(p.itemIndex)) {
      if (!p.content) throw new Error(`internal: item '${p.itemKey}' arrived without its content record`);
      itemId = await this.ids.take("Item");
      this.itemIds.push(itemId);
      this.itemRows.push([itemId, this.runId, p.itemKey, ...p.item]);
      this.itemContents.push(sealItemContent(p.content));
    } else itemId = this.itemIds[p.itemIndex];
    const genId = await this.ids.take("Generation");
    p.gen[0] = genId;
    p.gen[1] = this.runId;
    p.gen[2] = itemId;
    const epoch = Number(p.gen[GEN_EPOCH]);
    if (itemId < this.lastItem || (itemId === this.lastItem && epoch < this.lastEpoch)) this.inOrder = false;
    this.lastItem = itemId;
    this.lastEpoch = epoch;
    p.gen[GEN_ORDINAL] = ++this.ordinal;
    // compressed here, on the loader's thread: where the two threads' work is most even (docs/performance.md, "Load")
    p.gen[GEN_STEP_TRACE] = p.stepTrace === null ? null : compressRecord(p.stepTrace);
    this.genRows.push(p.gen);
    this.steps += p.stepCount;
    this.summaries.push(p.summary, p.itemIndex);
    if (this.genRows.length >= WRITER_BATCH) await this.flush();
  }

  /** A turn of the event loop between the steps of a long write, on the server's store. */
  private async turn(): Promise<void> {
    if (this.sliceRows) await giveTurn();
  }

  async flush(): Promise<void> {
    if (this.itemRows.length) {
      const contentIds = await storeContents(this.tx, this.itemContents);
      this.itemRows.forEach((row, i) => (row[ITEM_CONTENT] = contentIds[i]));
      await this.tx.insertRows("Item", ITEM_COLS, this.itemRows);
      await this.turn();
    }
    const slice = this.sliceRows ?? WRITER_BATCH;
    for (let at = 0; at < this.genRows.length; at += slice) {
      const rows = this.genRows.slice(at, at + slice);
      // Outputs are compressed here, on the loader's thread: on the analysis thread they made it the one a load waited for.
      const texts = rows.map((g) => compressRowOutput(this.tx.provider, g));
      await this.tx.insertRows("Generation", GEN_COLS, rows);
      await this.turn();
      if (this.postings)
        for (let i = 0; i < rows.length; i++) {
          const done = this.postings.add(Number(rows[i][0]), texts[i]);
          if (done) await writePostings(this.tx, done, () => this.turn());
        }
    }
    this.itemRows = [];
    this.itemContents = [];
    this.genRows = [];
  }

  /** Computes the run's metrics once and stores them with the aggregates. */
  async finish(): Promise<{ key: string; items: number; generations: number; steps: number; replaced: boolean }> {
    await this.flush();
    if (this.postings) await writePostings(this.tx, this.postings.take(), () => this.turn());
    // An importer learns some provenance only while reading (Inspect's errored samples).
    const source = JSON.stringify(this.header.source ?? null);
    if (source !== this.openedSource) await this.tx.exec(`UPDATE "Run" SET "source" = $1 WHERE "id" = $2`, [source, this.runId]);
    if (!this.inOrder) await renumber(this.tx, this.runId);
    // after the new run's items exist, so that the contents both versions share stay
    await dropUnusedContents(this.tx, this.replacedContents);
    await this.turn();
    await writeSignposts(this.tx, this.runId);
    await this.turn();
    const metrics = await writeRunMetrics(this.tx, this.runId, this.header, this.summaries);
    return { key: this.header.key, items: metrics.items, generations: metrics.generations, steps: this.steps, replaced: this.replaced };
  }
}
