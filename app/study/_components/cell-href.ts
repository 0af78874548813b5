import type { StudyPoint } from "@/lib/study/pivot";
import { studyCellRunHref, studyHref, type StudyParams } from "@/lib/url/study";

/** Where a point leads: the one run's items directly, or the list of the runs behind it. */
export function cellHref(p: StudyParams, series: string, pt: StudyPoint): string {
  if (pt.runs.length === 1) return studyCellRunHref(pt.runs[0], p.x, pt.x, p.metric);
  return studyHref({ ...p, cs: series, cx: String(pt.x) }) + "#cell-runs";
}
