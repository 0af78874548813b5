import { Link } from "@/components/ui/link";
import { RunProgress } from "@/components/run/run-progress";
import type { JobRow } from "@/lib/queries/jobs";
import { runPath } from "@/lib/url/shared";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";

/** Jobs in the store, newest first. */
export function JobTable({ jobs }: { jobs: JobRow[] }) {
  if (jobs.length === 0) return <p className="text-sm text-neutral-500">No jobs yet.</p>;
  return (
    <div className="overflow-x-auto">
      <Table density="inline" className="w-full">
        <TableHeader>
          <TableRow>
            <TableHead>Job</TableHead>
            <TableHead>Run</TableHead>
            <TableHead>Model</TableHead>
            <TableHead>Progress</TableHead>
            <TableHead>Failed</TableHead>
            <TableHead>Started</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {jobs.map((j) => (
            <TableRow key={j.id}>
              <TableCell>
                <Link className="text-sky-700 underline" href={`/jobs/${j.id}`} prefetch={false}>
                  {j.id.slice(0, 8)}
                </Link>
              </TableCell>
              <TableCell>
                {j.run ? (
                  <Link className="text-sky-700 underline" href={runPath(j.runKey)} prefetch={false}>
                    {j.runKey}
                  </Link>
                ) : (
                  j.runKey
                )}
              </TableCell>
              <TableCell>{j.model}</TableCell>
              <TableCell>
                {j.status === "queued" ? (
                  <span className="text-xs text-neutral-500">queued</span>
                ) : (
                  <RunProgress compact refresh={false} status={j.status} done={j.done} total={j.total} />
                )}
              </TableCell>
              <TableCell>{j.failed}</TableCell>
              <TableCell className="text-neutral-500">{j.createdAt.replace("T", " ").slice(0, 19)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
