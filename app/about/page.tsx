import type { Metadata } from "next";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { env, providerOf } from "@/lib/env";

// Reads no data: besides telling a reader what this server runs on, it is the trivial page
// the benchmark (scripts/bench/pages.ts) measures every view against.
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "About" };

const STORE = { sqlite: "SQLite file", postgres: "PostgreSQL" } as const;

export default function AboutPage() {
  const facts: [string, string][] = [
    ["Store", STORE[providerOf(env.DATABASE_URL)]],
    ["Access", env.STEPWISE_ACCESS === "open" ? "open: anyone can read, writes need a token or an editor" : "private: sign-in required"],
    ["Command line", "npx stepwise --help (ingest, import, generate, run, metrics, export)"],
    ["Documentation", "docs/ in the repository: architecture, decisions, importers, runner, security, performance"],
  ];
  return (
    <>
      <PageHeader title="About Stepwise" subtitle="Step-aligned analysis of long procedural executions by language models." />
      <Card title="This server">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
          {facts.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="font-medium text-neutral-700">{k}</dt>
              <dd className="text-neutral-900">{v}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </>
  );
}
