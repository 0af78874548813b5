import { ChartSkeleton, PageSkeleton } from "@/components/charts/skeleton";

export default function Loading() {
  return (
    <PageSkeleton title="Self-conditioning">
      <ChartSkeleton height={340} />
      <ChartSkeleton height={160} />
    </PageSkeleton>
  );
}
