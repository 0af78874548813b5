import { parseArgs } from "node:util";
import { deleteRun } from "../../store/delete-run";
import { withRawStore } from "../store";
import { UsageError } from "../usage-error";

/** `stepwise delete --run KEY`: deletes one run and everything of it, or nothing. */
export async function deleteCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { run: { type: "string" } } });
  // A positional key is refused: `stepwise delete KEY` reads too much like "delete everything matching".
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'; usage: stepwise delete --run KEY`);
  if (!values.run) throw new UsageError("--run KEY is required");
  const deleted = await withRawStore((s) => deleteRun(s.raw, values.run!));
  if (!deleted) {
    console.error(`stepwise: no run with key '${values.run}'; nothing deleted (\`stepwise runs\` lists the keys)`);
    return 1;
  }
  const links = deleted.shareLinks ? `, ${deleted.shareLinks} share link${deleted.shareLinks === 1 ? "" : "s"}` : "";
  console.log(`deleted run ${deleted.key}: ${deleted.items} items, ${deleted.generations} generations${links}`);
  return 0;
}
