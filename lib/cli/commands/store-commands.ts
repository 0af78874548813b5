import { parseArgs } from "node:util";
import { env, sqlitePath } from "../../env";
import { compactPostgres, compactSqlite, StoreBusyError } from "../../store/compact";
import { ensurePostgresDatabase } from "../../store/create-database";
import { RunAccess } from "../../auth/run-access";
import { localAdminContext } from "../../read-context";
import { getRunMetrics, listRuns } from "../../store/read";
import { roleSchema } from "../../auth/schemas";
import { createToken, listTokens, revokeToken } from "../../store/tokens";
import { withRawStore, withStore } from "../store";
import { UsageError } from "../usage-error";

export async function migrateCommand(): Promise<number> {
  // A missing PostgreSQL database is created when the role may (else the error names the SQL to run).
  if (await ensurePostgresDatabase(env.DATABASE_URL)) console.log("database created");
  // Opening the store applies every pending migration.
  await withRawStore(async (s) => console.log(`store ready (${s.provider})`));
  return 0;
}

export async function compactCommand(): Promise<number> {
  // Opening the store first applies any pending migration, whose freed space compacting returns.
  const provider = await withRawStore(async (s) => {
    if (s.provider === "postgres") await compactPostgres(s.raw);
    return s.provider;
  });
  if (provider === "postgres") {
    console.log("store compacted (VACUUM FULL of Generation, Item, ItemContent)");
    return 0;
  }
  let done: ReturnType<typeof compactSqlite>;
  try {
    done = compactSqlite(sqlitePath(env.DATABASE_URL));
  } catch (e) {
    if (!(e instanceof StoreBusyError)) throw e;
    console.error(e.message);
    return 1;
  }
  const { before, after, pageSize } = done;
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(`store compacted: ${mb(before)} -> ${mb(after)} (${pageSize}-byte pages)`);
  return 0;
}

export async function runsCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: "boolean" } } });
  const runs = await withStore((s) => listRuns(localAdminContext(s)));
  if (values.json) console.log(JSON.stringify(runs, null, 2));
  else if (runs.length === 0) console.log("no runs loaded");
  else
    for (const r of runs) console.log(`${r.key}\t${r.model}\t${r.benchmark}/${r.variant}\t${r.items} items\t${r.generations} generations`);
  return 0;
}

export async function metricsCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { run: { type: "string" }, json: { type: "boolean" } } });
  if (!values.run) throw new UsageError("--run KEY is required");
  const m = await withStore(async (s) => {
    const ctx = localAdminContext(s);
    const access = await RunAccess.check(ctx, values.run!);
    return access.ok ? getRunMetrics(ctx, access.run) : null;
  });
  if (!m) {
    console.error(`no run with key '${values.run}'`);
    return 1;
  }
  if (values.json) {
    console.log(JSON.stringify(m, null, 2));
    return 0;
  }
  const h = m.horizon;
  console.log(`${m.run}  ${m.model} on ${m.benchmark}/${m.variant}: ${m.items} items, ${m.generations} generations`);
  for (const r of m.accuracy_by_length)
    console.log(
      `  L=${r.length}\tn=${r.n}\tfirst ${r.first_accuracy.toFixed(3)} [${r.first_ci.map((x) => x.toFixed(3)).join(", ")}]\tlast ${r.last_accuracy.toFixed(3)}`,
    );
  if (h) console.log(`  H_0.5 = ${h.censored ? "≥ " : ""}${h.steps} (95% CI ${h.ci.join("–")})`);
  if (m.reliability) console.log(`  p̂ = ${m.reliability.p}, predicted H_0.5 = ${m.reliability.predicted_horizon ?? "∞"}`);
  if (m.length_fit) console.log(`  L50 = ${m.length_fit.l50} (95% CI ${m.length_fit.l50_ci.join("–")})`);
  if (m.self_conditioning) console.log(`  self-conditioning slope = ${m.self_conditioning.slope}`);
  console.log(
    `  failure modes: ${Object.entries(m.failure_modes)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  return 0;
}

export async function tokenCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { name: { type: "string" }, role: { type: "string" } },
  });
  return withStore(async (s) => {
    if (sub === "create") {
      const role = roleSchema.safeParse(values.role ?? "editor");
      if (!role.success) throw new UsageError(role.error.issues[0].message);
      const t = await createToken(s.prisma, values.name ?? positionals[0] ?? "token", { role: role.data });
      console.log(t.secret);
      console.error(`token ${t.id} created; it is shown once: store it now`);
      return 0;
    }
    if (sub === "list") {
      for (const t of await listTokens(s.prisma))
        console.log(
          `${t.id}\t${t.prefix}…\t${t.name}\t${t.role}\t${t.revokedAt ? "revoked" : "active"}\tlast used ${t.lastUsedAt?.toISOString() ?? "never"}`,
        );
      return 0;
    }
    if (sub === "revoke") {
      const ok = await revokeToken(s.prisma, Number(positionals[0]));
      console.log(ok ? "revoked" : "no such active token");
      return ok ? 0 : 1;
    }
    throw new UsageError("usage: stepwise token create [--name NAME] [--role viewer|editor|admin] | list | revoke ID");
  });
}
