import { ChartSkeleton, PageSkeleton } from "@/components/charts/skeleton";

export default function Loading() {
  return (
    <PageSkeleton title="Study">
      <ChartSkeleton height={320} />
    </PageSkeleton>
  );
}
