import { ChartSkeleton, PageSkeleton } from "@/components/charts/skeleton";

export default function Loading() {
  return (
    <PageSkeleton title="Compare">
      <ChartSkeleton height={120} />
      <ChartSkeleton height={240} />
    </PageSkeleton>
  );
}
