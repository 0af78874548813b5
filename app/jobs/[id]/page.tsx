import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { JobDetail } from "@/components/jobs/job-detail";
import { PageHeader } from "@/components/ui/page-header";
import { canWrite } from "@/lib/auth/policy";
import { requireReader } from "@/lib/auth/server";
import { getJobRow } from "@/lib/queries/jobs";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Job ${(await params).id.slice(0, 8)}` };
}

export default async function JobPage({ params }: Props) {
  const ctx = await requireReader();
  const job = await getJobRow(ctx, (await params).id);
  if (!job) notFound();
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/jobs" className="underline">
            Jobs
          </Link>
        }
        title={`Run ${job.runKey}`}
        subtitle={`${job.model} · job ${job.id}`}
      />
      <JobDetail job={job} signedInEditor={ctx.principal.kind === "user" && canWrite(ctx.principal)} />
    </>
  );
}
