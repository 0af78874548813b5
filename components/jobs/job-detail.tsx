import { Link } from "@/components/ui/link";
import { RunProgress } from "@/components/run/run-progress";
import { Card } from "@/components/ui/card";
import type { JobRow } from "@/lib/queries/jobs";
import { CancelJob } from "./cancel-job";
import { JobRefresh } from "./job-refresh";
import { runPath } from "@/lib/url/shared";

const STATUS_TEXT: Record<string, string> = {
  queued: "Queued (waiting for a free job slot)",
  running: "Running",
  complete: "Complete",
  incomplete: "Stopped before the end",
  failed: "Failed",
  cancelled: "Cancelled",
};

export function JobDetail({ job, signedInEditor }: { job: JobRow; signedInEditor: boolean }) {
  const live = job.status === "queued" || job.status === "running";
  const facts: [string, React.ReactNode][] = [
    ["Status", (STATUS_TEXT[job.status] ?? job.status) + (job.cancelRequested && live ? " (cancel requested)" : "")],
    [
      "Run",
      job.run ? (
        <Link className="text-sky-700 underline" href={runPath(job.runKey)}>
          {job.runKey}
        </Link>
      ) : (
        job.runKey
      ),
    ],
    ["Model", job.model],
    ["Endpoint", job.endpoint],
    ["Dataset", `${job.datasetName} (${job.items} items)`],
    ["Stored", `${job.done} / ${job.total} (${job.added} new, ${job.skipped} already stored)`],
    ["Retries", job.retries],
    ["Failed generations", job.failed],
    ["Queued", job.createdAt],
    ["Started", job.startedAt ?? "—"],
    ["Finished", job.finishedAt ?? "—"],
    ["Server sessions", job.attempts > 1 ? `${job.attempts} (resumed after a server stopped)` : job.attempts],
    ...(job.createdBy ? ([["Started by", job.createdBy]] as [string, React.ReactNode][]) : []),
  ];
  return (
    <>
      <RunProgress status={job.status} done={job.done} total={job.total} intervalMs={2000} />
      {job.status === "queued" ? <JobRefresh /> : null}
      <Card title="Job">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          {facts.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-neutral-500">{k}</dt>
              <dd className="break-all text-neutral-900">{v}</dd>
            </div>
          ))}
        </dl>
        {job.message ? <p className="mt-3 text-sm text-amber-800">{job.message}</p> : null}
        {live && !job.cancelRequested ? (
          <div className="mt-4">
            <CancelJob jobId={job.id} signedInEditor={signedInEditor} />
          </div>
        ) : null}
      </Card>
      {job.errors.length ? (
        <Card title="Errors" description="The first errors of this job (item#epoch: reason)" className="mt-4">
          <ul className="space-y-1 font-mono text-xs text-red-800">
            {job.errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </Card>
      ) : null}
    </>
  );
}
