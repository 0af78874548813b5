"use client";

// The recharts charts, loaded after hydration. recharts is large; imported directly it sits in
// the first-load JavaScript of every page that draws a chart and pushes /runs/[key], /curves
// and /self-conditioning over the first-load budget (docs/performance.md). With next/dynamic (ssr: false) it
// becomes a separate chunk fetched once the page is interactive. ssr: false loses little: the
// server never drew the plot (ResponsiveContainer has no width there); only the caption, legend
// and screen-reader description now arrive with the chunk. The placeholder keeps the card's
// size meanwhile. Each import() stays literal inside dynamic() so Next can map it to its chunk.
import dynamic from "next/dynamic";
import { createContext, use, type ReactNode } from "react";
import { FAILURE_MODES } from "@/lib/analysis/types";
import type { AccuracyByLengthChartProps } from "./accuracy-by-length-chart";
import { CHART_DEFAULTS } from "./defaults";
import type { FailureModesByLengthChartProps } from "./failure-modes-by-length-chart";
import type { FirstDivergenceHistogramProps } from "./first-divergence-histogram";
import type { HorizonVsSizeChartProps } from "./horizon-vs-size-chart";
import type { SelfConditioningChartProps } from "./self-conditioning-chart";
import { ChartPlaceholder } from "./skeleton";
import type { StepCurvesChartProps } from "./step-curves-chart";

interface Box {
  height: number;
  title?: string;
  legendRows: number;
}

// next/dynamic's `loading` gets no props, so the wrapper hands the box size down by context.
const BoxContext = createContext<Box>({ height: 280, legendRows: 0 });

function Loading() {
  const box = use(BoxContext);
  return <ChartPlaceholder height={box.height} title={box.title} legendRows={box.legendRows} />;
}

function Sized({ box, children }: { box: Box; children: ReactNode }) {
  return <BoxContext value={box}>{children}</BoxContext>;
}

const AccuracyByLength = dynamic(() => import("./accuracy-by-length-chart").then((m) => m.AccuracyByLengthChart), {
  ssr: false,
  loading: Loading,
});
const StepCurves = dynamic(() => import("./step-curves-chart").then((m) => m.StepCurvesChart), { ssr: false, loading: Loading });
const SelfConditioning = dynamic(() => import("./self-conditioning-chart").then((m) => m.SelfConditioningChart), {
  ssr: false,
  loading: Loading,
});
const HorizonVsSize = dynamic(() => import("./horizon-vs-size-chart").then((m) => m.HorizonVsSizeChart), { ssr: false, loading: Loading });
const FailureModesByLength = dynamic(() => import("./failure-modes-by-length-chart").then((m) => m.FailureModesByLengthChart), {
  ssr: false,
  loading: Loading,
});
const FirstDivergence = dynamic(() => import("./first-divergence-histogram").then((m) => m.FirstDivergenceHistogram), {
  ssr: false,
  loading: Loading,
});

type ChartKind = keyof typeof CHART_DEFAULTS;

/**
 * The placeholder box of a chart: height and caption as the chart resolves them, and its legend
 * rows guessed from the number of legend entries: about four fit a row of a half-width card (the
 * run page), about eight a full-width one (`wide`). A wrong guess costs one 20 px legend row.
 */
function box(kind: ChartKind, props: { height?: number; title?: string }, legendEntries: number, wide = false): Box {
  const legendRows = legendEntries === 0 ? 0 : legendEntries > (wide ? 8 : 4) ? 2 : 1;
  return { height: props.height ?? CHART_DEFAULTS[kind].height, title: props.title ?? CHART_DEFAULTS[kind].title, legendRows };
}

/** Wrapper-only prop: the chart spans the page width (a hint for the placeholder's legend rows). */
type Wide = { wide?: boolean };

// Legend entry counts below mirror the legends the charts build (series, then the key entries).
export function LazyAccuracyByLengthChart({ wide, ...props }: AccuracyByLengthChartProps & Wide) {
  const entries = props.series.length + (props.answer === "both" ? 2 : 1) + (props.bands === false ? 0 : 1);
  return (
    <Sized box={box("accuracyByLength", props, entries, wide)}>
      <AccuracyByLength {...props} />
    </Sized>
  );
}

export function LazyStepCurvesChart({ wide, ...props }: StepCurvesChartProps & Wide) {
  const kinds = (["task", "step", "predicted"] as const).filter((k) => props.show?.[k] !== false).length;
  return (
    <Sized box={box("stepCurves", props, props.series.length + kinds + 2, wide)}>
      <StepCurves {...props} />
    </Sized>
  );
}

export function LazySelfConditioningChart({ wide, ...props }: SelfConditioningChartProps & Wide) {
  return (
    <Sized box={box("selfConditioning", props, props.series.length + 2, wide)}>
      <SelfConditioning {...props} />
    </Sized>
  );
}

export function LazyHorizonVsSizeChart({ wide, ...props }: HorizonVsSizeChartProps & Wide) {
  const names = new Set(props.points.map((p) => (props.colorBy === "run" ? p.key : p.family)));
  return (
    <Sized box={box("horizonVsSize", props, names.size + 2, wide)}>
      <HorizonVsSize {...props} />
    </Sized>
  );
}

export function LazyFailureModesByLengthChart({ wide, ...props }: FailureModesByLengthChartProps & Wide) {
  const present = FAILURE_MODES.filter((m) => props.rows.some((r) => (r.modes[m] ?? 0) > 0));
  return (
    <Sized box={box("failureModesByLength", props, present.length, wide)}>
      <FailureModesByLength {...props} />
    </Sized>
  );
}

/** The histogram has no legend. */
export function LazyFirstDivergenceHistogram(props: FirstDivergenceHistogramProps) {
  return (
    <Sized box={box("firstDivergence", props, 0)}>
      <FirstDivergence {...props} />
    </Sized>
  );
}
