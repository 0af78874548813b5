import Link from "next/link";
import { RunProgress } from "@/components/run/run-progress";
import type { JobRow } from "@/lib/queries/jobs";

/** Jobs in the store, newest first. */
export function JobTable({ jobs }: { jobs: JobRow[] }) {
  if (jobs.length === 0) return <p className="text-sm text-neutral-500">No jobs yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-neutral-500">
          <tr>
            <th className="py-1.5 pr-3 font-medium">Job</th>
            <th className="py-1.5 pr-3 font-medium">Run</th>
            <th className="py-1.5 pr-3 font-medium">Model</th>
            <th className="py-1.5 pr-3 font-medium">Progress</th>
            <th className="py-1.5 pr-3 font-medium">Failed</th>
            <th className="py-1.5 font-medium">Started</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => (
            <tr key={j.id} className="border-t border-neutral-100">
              <td className="py-1.5 pr-3">
                <Link className="text-sky-700 underline" href={`/jobs/${j.id}`}>
                  {j.id.slice(0, 8)}
                </Link>
              </td>
              <td className="py-1.5 pr-3">
                {j.run ? (
                  <Link className="text-sky-700 underline" href={`/runs/${encodeURIComponent(j.runKey)}`}>
                    {j.runKey}
                  </Link>
                ) : (
                  j.runKey
                )}
              </td>
              <td className="py-1.5 pr-3">{j.model}</td>
              <td className="py-1.5 pr-3">
                {j.status === "queued" ? (
                  <span className="text-xs text-neutral-500">queued</span>
                ) : (
                  <RunProgress compact refresh={false} status={j.status} done={j.done} total={j.total} />
                )}
              </td>
              <td className="py-1.5 pr-3 tabular-nums">{j.failed}</td>
              <td className="py-1.5 text-neutral-500">{j.createdAt.replace("T", " ").slice(0, 19)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
