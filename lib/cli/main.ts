import { UsageError } from "./usage-error";

// Entry point of `stepwise` (bin/stepwise.mjs). Commands load lazily so that `generate`
// never opens the store and `--help` stays instant.
type Command = (argv: string[]) => Promise<number>;
const commands: Record<string, { about: string; load: () => Promise<Command> }> = {
  ingest: { about: "load native JSONL files (or - for stdin)", load: async () => (await import("./commands/ingest")).ingestCommand },
  import: {
    about: "import other tools' results (SPEC §7; format from content)",
    load: async () => (await import("./commands/import")).importCommand,
  },
  runs: { about: "list loaded runs [--json]", load: async () => (await import("./commands/store-commands")).runsCommand },
  metrics: { about: "a run's metrics --run KEY [--json]", load: async () => (await import("./commands/store-commands")).metricsCommand },
  migrate: { about: "create or upgrade the store", load: async () => (await import("./commands/store-commands")).migrateCommand },
  compact: {
    about: "rewrite the store in the current page layout, freed space returned (server stopped)",
    load: async () => (await import("./commands/store-commands")).compactCommand,
  },
  token: {
    about: "API tokens: create [--name N] [--role R] | list | revoke ID",
    load: async () => (await import("./commands/store-commands")).tokenCommand,
  },
  user: {
    about: "users: create --email E --role R [--password-stdin] | list | password",
    load: async () => (await import("./commands/user")).userCommand,
  },
  generate: {
    about: "write benchmark items (and simulated outputs)",
    load: async () => (await import("./commands/generate")).generateCommand,
  },
  run: {
    about: "query a chat-completions server for a dataset, results into the store",
    load: async () => (await import("./commands/run")).runCommand,
  },
  push: {
    about: "send files or local runs to a server: FILE… | --run KEY, --server URL",
    load: async () => (await import("./commands/push")).pushCommand,
  },
  export: {
    about: "write a run as native JSONL --run KEY [--out FILE]",
    load: async () => (await import("./commands/export")).exportCommand,
  },
  study: {
    about: "factor effects across runs --benchmark B [--x F --series S --metric M] [--json]",
    load: async () => (await import("./commands/study")).studyCommand,
  },
  delete: { about: "delete a run and everything of it --run KEY", load: async () => (await import("./commands/delete")).deleteCommand },
  demo: { about: "load the demo runs [--if-empty]", load: async () => (await import("./commands/demo")).demoCommand },
};

function help() {
  console.log("usage: stepwise COMMAND [options]\n");
  for (const [name, c] of Object.entries(commands)) console.log(`  ${name.padEnd(10)} ${c.about}`);
  console.log("\nDATABASE_URL selects the store (default: SQLite file data/stepwise.db).");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    help();
    return name ? 0 : 2;
  }
  const cmd = commands[name];
  if (!cmd) {
    console.error(`unknown command '${name}'`);
    help();
    return 2;
  }
  return (await cmd.load())(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`stepwise: ${(e as Error).message}`);
      process.exitCode = 2;
    } else {
      console.error(e instanceof Error ? `stepwise: ${e.message}` : e);
      if (process.env.STEPWISE_DEBUG) console.error(e);
      process.exitCode = 1;
    }
  },
);
