// Default plot height and caption of each recharts chart, in a module without recharts so the
// lazy wrappers (lazy-charts.tsx) can size their placeholders without pulling the charts in.

export const CHART_DEFAULTS = {
  accuracyByLength: { height: 320, title: "Accuracy by length" },
  stepCurves: { height: 320, title: "Task and step accuracy by step" },
  selfConditioning: { height: 340, title: "Accuracy at the target turn vs induced error rate" },
  horizonVsSize: { height: 300, title: "Horizon H₀.₅ vs model size" },
  failureModesByLength: { height: 280, title: "Failure modes by length" },
  firstDivergence: { height: 240, title: "First divergence" },
} as const;
