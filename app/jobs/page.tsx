import type { Metadata } from "next";
import { JobForm } from "@/components/jobs/job-form";
import { JobTable } from "@/components/jobs/job-table";
import { Card } from "@/components/ui/card";
import { JobRefresh } from "@/components/jobs/job-refresh";
import { PageHeader } from "@/components/ui/page-header";
import { requireReader } from "@/lib/auth/server";
import { getJobRows } from "@/lib/queries/jobs";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Jobs" };

export default async function JobsPage() {
  const jobs = await getJobRows(await requireReader());
  return (
    <>
      <PageHeader
        title="Jobs"
        subtitle="Run a dataset against an OpenAI-compatible chat-completions server from here; results stream into the store. Same options as `stepwise run`."
      />
      <Card title="Jobs" className="mb-6">
        <JobTable jobs={jobs} />
        {jobs.some((j) => j.status === "queued" || j.status === "running") ? <JobRefresh intervalMs={3000} /> : null}
      </Card>
      <Card title="Start a run" description="Needs an API token. A run key that exists resumes that run: stored generations are skipped.">
        <JobForm />
      </Card>
    </>
  );
}
