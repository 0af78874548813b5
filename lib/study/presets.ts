import type { StudyParams } from "../url/study";
import type { StudySeriesResult } from "./pivot";

// Presets: study views that mirror the headline figures of the two source papers (SPEC §1),
// so a reader reproduces a paper's figure with their own runs. Each names the paper and the
// version whose numbers it quotes; `ours` reads the comparable number from our result when the
// data is of the same kind. Figure numbers are not quoted: the papers' numbering differs
// between versions and these presets were written from their abstracts and SPEC §1.

export interface StudyPreset {
  id: string;
  title: string;
  /** the paper, its version, and where the number comes from */
  source: string;
  params: Partial<StudyParams>;
  /** the paper's reported number, as the paper words it */
  reported: string | null;
  /** our comparable number, or why there is none */
  ours?: (data: StudySeriesResult[]) => string | null;
  /** a different view answers it (not a pivot of this page) */
  href?: string;
}

const pct = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)}%`);

/** First and last point of the pooled series: "61.0% at 5 → 20.0% at 95". */
function endpoints(unit: string) {
  return (data: StudySeriesResult[]): string | null => {
    const pts = data[0]?.points ?? [];
    if (pts.length < 2) return null;
    const a = pts[0];
    const b = pts[pts.length - 1];
    return `${pct(a.value)} at ${a.x}${unit} → ${pct(b.value)} at ${b.x}${unit}`;
  };
}

export const STUDY_PRESETS: StudyPreset[] = [
  {
    id: "accuracy-by-length",
    title: "First-answer accuracy by length, averaged over models",
    source: "arXiv 2605.00817 (Panda et al.), abstract: v1 (May 2026) and v3",
    params: { benchmark: "procedural-arith", x: "length", series: "all", metric: "first_accuracy" },
    reported: "61% at 5 steps → 20% at 95 steps (v1); 63% → 20% (v3)",
    ours: endpoints(" steps"),
  },
  {
    id: "lookback-cost",
    title: "Cost of look-back depth, averaged over models",
    source: "arXiv 2605.00817 v1 (Panda et al.), as quoted in SPEC §1",
    params: { benchmark: "procedural-arith", x: "lookback", series: "all", metric: "first_accuracy" },
    reported: "look-back depth 1 → 7 costs 18.43 points of first-answer accuracy",
    ours: (data) => {
      const pts = data[0]?.points ?? [];
      if (pts.length < 2 || pts[0].value === null || pts[pts.length - 1].value === null) return null;
      const a = pts[0];
      const b = pts[pts.length - 1];
      const d = ((b.value! - a.value!) * 100).toFixed(1);
      return `look-back ${a.x} → ${b.x}: ${Number(d) > 0 ? "+" : ""}${d} points`;
    },
  },
  {
    id: "exact-step-by-length",
    title: "Exact-step execution by length",
    source: "arXiv 2605.00817 v1 (Panda et al.), as quoted in SPEC §1",
    params: { benchmark: "procedural-arith", x: "length", series: "all", metric: "exact_step_rate" },
    reported: "70.88% → 46.84% from the shortest to the longest procedures",
    ours: endpoints(" steps"),
  },
  {
    id: "under-execution-by-length",
    title: "Under-execution by length",
    source: "arXiv 2605.00817 v1 (Panda et al.), as quoted in SPEC §1",
    params: { benchmark: "procedural-arith", x: "length", series: "all", metric: "under_execution_rate" },
    reported: "24.25% → 50.87% from the shortest to the longest procedures",
    ours: endpoints(" steps"),
  },
  {
    id: "failure-modes-by-length",
    title: "Failure-mode rates by length (choose the mode under Metric)",
    source: "arXiv 2605.00817 v1 (Panda et al.): generation-level failure modes",
    params: { benchmark: "procedural-arith", x: "length", series: "all", metric: "mode:premature-answer" },
    reported: null,
  },
  {
    id: "horizon-vs-size",
    title: "H₀.₅ against model size, with and without thinking",
    source: "arXiv 2509.09677 (Sinha et al.), v3 (ICLR 2026)",
    params: { benchmark: "dict-sum", x: "size", series: "thinking", metric: "h50" },
    reported:
      "not of the same kind: the paper plots named frontier models; its single-turn lengths are GPT-5 thinking > 1000, Claude-4-Sonnet ≈ 432, DeepSeek-R1 ≈ 200, DeepSeek-V3 < 2 steps",
  },
  {
    id: "accuracy-by-turn",
    title: "Task accuracy by turn (filter steps per turn K to compare K)",
    source: "arXiv 2509.09677 (Sinha et al.), v3 (ICLR 2026): turn complexity",
    params: { benchmark: "dict-sum", x: "turn", series: "model", metric: "task_accuracy" },
    reported: null,
  },
  {
    id: "self-conditioning",
    title: "The self-conditioning drop (accuracy at turn 100 against induced error rate)",
    source: "arXiv 2509.09677 (Sinha et al.), v3 (ICLR 2026)",
    params: {},
    reported: "scale does not cure it, thinking does (qualitative)",
    href: "/self-conditioning",
  },
];

/** The preset whose view this is (benchmark, x, series and metric all equal), if any. */
export function activePreset(p: StudyParams, benchmark: string | null): StudyPreset | null {
  return (
    STUDY_PRESETS.find(
      (s) =>
        !s.href &&
        s.params.benchmark === benchmark &&
        s.params.x === p.x &&
        s.params.series === p.series &&
        (s.params.metric === p.metric || (s.id === "failure-modes-by-length" && p.metric.startsWith("mode:"))),
    ) ?? null
  );
}
