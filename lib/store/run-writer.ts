import type { RunHeader } from "../analysis/types";
import type { GenerationEvent } from "../native/reader";
import { asBuffer } from "./bytes";
import type { BinaryRows } from "./pg-copy";
import { compressRecord } from "./record-codec";
import { dropUnusedContents, sealItemContent, storeContents, type ItemContent } from "./item-content";
import type { RawTx } from "./raw";
import { PostingBuilder } from "./posting-builder";
import { writeNewPostings, writePostings, type PostingRow } from "./search-postings";
import { ItemOrder } from "./item-order";
import { startSignposts } from "./signposts";
import { inLoadStatistics } from "./statistics";
import {
  GEN_COLS,
  GEN_EPOCH,
  GEN_FIRST_CORRECT,
  GEN_ORDINAL,
  GEN_OUTPUT_DEFLATED,
  GEN_STEP_TRACE,
  ITEM_COLS,
  ITEM_CONTENT,
  compressRowOutput,
  prepareGeneration,
  type PreparedGeneration,
  WRITER_BATCH,
} from "./rows";
import { renumber, replaceRun, writeRunMetrics } from "./run-record";
import { RunSummaries } from "./run-summaries";
import { giveTurn } from "./delete-run";
import { IdPool } from "./id-pool";
import { ItemIds } from "./item-ids";

// Writes one run inside a load transaction: header rows first, generations in batches,
// then the metrics and stored aggregates once the run's last item has been seen.
// On the server the loader's thread is the one that answers requests: there a SQLite batch is
// written in slices of one statement's rows, each followed by a turn of the event loop, so that
// pages asked for meanwhile are not held for a whole batch (/about's p95 during a 117 MB upload
// ~1.0–1.5 s → ~0.2–0.3 s, for ~8% more upload time; docs/performance.md, "Load"). The CLI
// writes whole batches. PostgreSQL's driver waits on the network anyway.
const SHARED_SLICE_ROWS = 64;
/** PostgreSQL: generations built between turns of the event loop while the last batch's writes go on */
const TURN_EVERY = 16;

export class RunWriter {
  /** what the run's metrics need, kept until its last generation (here or on the analysis thread); also numbers its items */
  readonly summaries = new RunSummaries();
  /** Item row id by the summaries' item index */
  private itemIds = new ItemIds();
  private itemRows: unknown[][] = [];
  /** the content record of each row of itemRows */
  private itemContents: ItemContent[] = [];
  private genRows: unknown[][] = [];
  /** each row of genRows: its output's trigrams where the analysis thread found them ahead, else null */
  private genTrigrams: (Int32Array | null)[] = [];
  /** PostgreSQL: the batch's Generation rows in COPY's binary format, each encoded (and indexed) as it comes: kept in genRows until its batch's COPY, written behind the next batch, they held two batches of rows (docs/decisions.md) */
  private genEncoded: BinaryRows | null = null;
  /** PostgreSQL: the search-index rows the batch's generations finished */
  private genPostings: PostingRow[] = [];
  /** generations in the batch */
  private batchRows = 0;
  /** SQLite: the run's search-index rows, built as its generations are written (lib/store/posting-builder.ts) */
  private readonly postings: PostingBuilder | null;
  steps = 0;
  private ordinal = 0;
  /** PostgreSQL: the last batch's writes, running on the server while this thread builds the next (docs/performance.md, "Load");
   * rejected where they failed. Everything that asks the store first waits for them: one query at a time on the transaction's client. */
  private behind: Promise<void> | null = null;
  private readonly writesBehind: boolean;
  /** whether the generations come in item order: then the running count is each one's ordinal, and its signposts are counted */
  private readonly order = new ItemOrder();

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
    this.writesBehind = tx.provider === "postgres";
    ids.before = () => this.settle();
  }
  private readonly openedSource: string;

  /** Replaces any run with this key (replaceRun, lib/store/run-record.ts). */
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
    const sliceRows = sharesEventLoop && tx.provider === "sqlite" ? SHARED_SLICE_ROWS : null;
    const { runId, replaced, replacedContents } = await replaceRun(tx, header, demo, sliceRows !== null);
    const writer = new RunWriter(tx, ids, header, runId, replaced, replacedContents, searchIndex, sliceRows);
    writer.genEncoded = await tx.encoderOf("Generation", GEN_COLS);
    return writer;
  }

  async add(ev: GenerationEvent): Promise<void> {
    await this.addPrepared(prepareGeneration(ev));
  }

  /** Stores a generation whose rows were built elsewhere (possibly on the analysis thread). */
  async addPrepared(p: PreparedGeneration): Promise<void> {
    let itemId: number;
    if (this.summaries.itemAt(p.itemIndex)) {
      const sealed = p.ahead?.content;
      if (!p.content && !sealed) throw new Error(`internal: item '${p.itemKey}' arrived without its content record`);
      itemId = await this.ids.take("Item");
      this.itemIds.add(p.itemIndex, itemId);
      this.itemRows.push([itemId, this.runId, p.itemKey, ...p.item]);
      this.itemContents.push(sealed ? { hash: asBuffer(sealed.hash), body: asBuffer(sealed.body) } : sealItemContent(p.content!));
    } else itemId = this.itemIds.get(p.itemIndex);
    const genId = await this.ids.take("Generation");
    p.gen[0] = genId;
    p.gen[1] = this.runId;
    p.gen[2] = itemId;
    this.order.add(itemId, Number(p.gen[GEN_EPOCH]), Boolean(p.gen[GEN_FIRST_CORRECT]));
    p.gen[GEN_ORDINAL] = ++this.ordinal;
    // here unless the analysis thread did it ahead (lib/store/done-ahead.ts)
    if (p.ahead) {
      p.gen[GEN_STEP_TRACE] = p.ahead.stepTrace && asBuffer(p.ahead.stepTrace);
      if (p.ahead.output) p.gen[GEN_OUTPUT_DEFLATED] = asBuffer(p.ahead.output);
    } else p.gen[GEN_STEP_TRACE] = p.stepTrace === null ? null : compressRecord(p.stepTrace);
    if (this.genEncoded) {
      // PostgreSQL's rows are stored as built: this gives the output text, compressing nothing
      const done = this.index(p.gen, p.ahead?.trigrams ?? null, compressRowOutput(this.tx.provider, p.gen));
      if (done) for (const row of done) this.genPostings.push(row);
      this.genEncoded.add(p.gen);
    } else {
      this.genRows.push(p.gen);
      this.genTrigrams.push(p.ahead?.trigrams ?? null);
    }
    this.steps += p.stepCount;
    this.summaries.push(p.summary, p.itemIndex);
    if (++this.batchRows >= WRITER_BATCH) await this.flush();
    // The writes behind go on only when this thread's event loop turns (the driver reads the
    // server's replies and sends the next statement there); events already queued would
    // otherwise be taken one after another in microtasks, the server idle meanwhile.
    else if (this.behind && this.batchRows % TURN_EVERY === 0) await giveTurn();
  }

  /** A turn of the event loop between the steps of a long write, on the server's store. */
  private async turn(): Promise<void> {
    if (this.sliceRows) await giveTurn();
  }

  async flush(): Promise<void> {
    const items = { rows: this.itemRows, contents: this.itemContents };
    const gens = this.genRows;
    const trigrams = this.genTrigrams;
    this.itemRows = [];
    this.itemContents = [];
    this.genRows = [];
    this.genTrigrams = [];
    this.batchRows = 0;
    if (!this.writesBehind) return this.write(items, gens, trigrams);
    // The batch's own work (outputs, index rows) is done before its writes start: done between
    // its statements (as `write` does), the server waited on it (+6% load time). Its writes go
    // on while the next batch is built; ids for that batch are asked for first, so that no
    // query waits behind them.
    const encoded = this.genEncoded;
    const postings = this.genPostings;
    this.genPostings = [];
    for (let i = 0; i < gens.length; i++) {
      const done = this.index(gens[i], trigrams[i], compressRowOutput(this.tx.provider, gens[i]));
      if (done) for (const row of done) postings.push(row);
    }
    await this.settle();
    if (encoded) this.genEncoded = await this.tx.encoderOf("Generation", GEN_COLS);
    await this.ids.ensure("Item", WRITER_BATCH);
    await this.ids.ensure("Generation", WRITER_BATCH);
    const writes = this.writeRows(items, encoded ?? gens, postings);
    writes.catch(() => {}); // observed by the next settle(); until then not an unhandled rejection
    this.behind = writes;
  }

  /** Waits for the writes still running (throws where they failed). */
  async settle(): Promise<void> {
    const writes = this.behind;
    this.behind = null;
    await writes;
  }

  /** After a load that ends without finish() (an error elsewhere): waits for the writes, whose own failure is not that error. */
  async quiesce(): Promise<void> {
    await this.settle().catch(() => {});
  }

  private async writeRows(
    items: { rows: unknown[][]; contents: ItemContent[] },
    gens: unknown[][] | BinaryRows,
    postings: PostingRow[],
  ): Promise<void> {
    await this.writeItems(items);
    // not `instanceof`: the server's bundle may hold two copies of pg-copy's module
    if (Array.isArray(gens)) await this.tx.insertRows("Generation", GEN_COLS, gens);
    else await this.tx.insertEncoded("Generation", gens);
    if (postings.length) await this.writeIndex(postings);
  }

  private async writeItems(items: { rows: unknown[][]; contents: ItemContent[] }): Promise<void> {
    if (!items.rows.length) return;
    const contentIds = await storeContents(this.tx, items.contents);
    items.rows.forEach((row, i) => (row[ITEM_CONTENT] = contentIds[i]));
    await this.tx.insertRows("Item", ITEM_COLS, items.rows);
    await this.turn();
  }

  /** A batch written now (SQLite: the writes are this thread's own work). */
  private async write(
    items: { rows: unknown[][]; contents: ItemContent[] },
    gens: unknown[][],
    trigrams: (Int32Array | null)[],
  ): Promise<void> {
    await this.writeItems(items);
    const slice = this.sliceRows ?? WRITER_BATCH;
    for (let at = 0; at < gens.length; at += slice) {
      const rows = gens.slice(at, at + slice);
      // Outputs are compressed here unless the analysis thread did it ahead (lib/store/done-ahead.ts)
      const texts = rows.map((g) => compressRowOutput(this.tx.provider, g));
      await this.tx.insertRows("Generation", GEN_COLS, rows);
      await this.turn();
      for (let i = 0; i < rows.length; i++) {
        const done = this.index(rows[i], trigrams[at + i], texts[i]);
        if (done) await this.writeIndex(done);
      }
    }
  }

  /** Adds a row whose output is `text` to the search index (by its trigrams where found ahead); returns the index rows it finished. */
  private index(g: unknown[], trigrams: Int32Array | null, text: string): PostingRow[] | null {
    if (!this.postings) return null;
    return trigrams ? this.postings.addTrigrams(Number(g[0]), trigrams) : this.postings.add(Number(g[0]), text);
  }

  /**
   * Writes finished index rows of this run, which only this load writes: on PostgreSQL by
   * `COPY` (writeNewPostings); SQLite's with a turn of the event loop between statements on the server.
   */
  private async writeIndex(rows: PostingRow[]): Promise<void> {
    if (this.writesBehind) await writeNewPostings(this.tx, rows, this.postings!.splitBlocks);
    else await writePostings(this.tx, rows, () => this.turn());
  }

  /**
   * Stores the run's metrics (computed here, or by the analysis thread) with its aggregates. `analyse`: the load's last run,
   * after which PostgreSQL's planner statistics of the tables a load fills are gathered in the load's transaction (refreshStatistics).
   */
  async finish({ analyse = false } = {}): Promise<{ key: string; items: number; generations: number; steps: number; replaced: boolean }> {
    const signposts = await this.endWrites(analyse);
    const metrics = await writeRunMetrics(this.tx, this.runId, this.header, this.summaries.source(), signposts.done);
    return { key: this.header.key, items: metrics.items, generations: metrics.generations, steps: this.steps, replaced: this.replaced };
  }

  /**
   * Writes what is left of the run's rows and starts its signposts, once: at its end, or as
   * soon as its last generation has come (the analysis thread then computes its aggregates
   * meanwhile: lib/store/native-thread.ts). `analyse`: as finish's.
   */
  endWrites(analyse: boolean): Promise<{ done: Promise<unknown> }> {
    return (this.writesEnded ??= this.writeRest(analyse));
  }
  private writesEnded: Promise<{ done: Promise<unknown> }> | null = null;

  private async writeRest(analyse: boolean): Promise<{ done: Promise<unknown> }> {
    await this.flush();
    await this.settle();
    if (this.postings) await this.writeIndex(this.postings.take());
    // An importer learns some provenance only while reading (Inspect's errored samples).
    const source = JSON.stringify(this.header.source ?? null);
    if (source !== this.openedSource) await this.tx.exec(`UPDATE "Run" SET "source" = $1 WHERE "id" = $2`, [source, this.runId]);
    if (!this.order.inOrder) await renumber(this.tx, this.runId);
    // after the new run's items exist, so that the contents both versions share stay
    await dropUnusedContents(this.tx, this.replacedContents, this.sliceRows ? giveTurn : undefined);
    const statistics = analyse ? inLoadStatistics(this.tx.provider) : "";
    const signposts = await startSignposts(this.tx, this.runId, statistics, this.order.signposts());
    await this.turn();
    return signposts;
  }
}
