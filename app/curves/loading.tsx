import { ChartSkeleton, PageSkeleton } from "@/components/charts/skeleton";

export default function Loading() {
  return (
    <PageSkeleton title="Curves">
      <ChartSkeleton height={320} />
      <ChartSkeleton height={320} />
    </PageSkeleton>
  );
}
