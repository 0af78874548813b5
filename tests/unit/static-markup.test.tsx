import fc from "fast-check";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { AccuracyByLengthChart } from "../../components/charts/accuracy-by-length-chart";
import { FailureModesByLengthChart } from "../../components/charts/failure-modes-by-length-chart";
import { FirstDivergenceHistogram } from "../../components/charts/first-divergence-histogram";
import { HorizonVsSizeChart } from "../../components/charts/horizon-vs-size-chart";
import { styleOfSlot } from "../../components/charts/palette";
import { SelfConditioningChart } from "../../components/charts/self-conditioning-chart";
import { escapeMarkup, staticMarkup } from "../../components/charts/static-markup";
import { StepCurvesChart } from "../../components/charts/step-curves-chart";
import { FAILURE_MODES } from "../../lib/analysis/types";

// Every drawing the charts hand to staticMarkup, so each can be checked against React's own writer.
const drawn = vi.hoisted(() => [] as ReactNode[]);
vi.mock("../../components/charts/static-markup", async (load) => {
  const real = await load<typeof import("../../components/charts/static-markup")>();
  return {
    ...real,
    staticMarkup: (node: ReactNode) => {
      drawn.push(node);
      return real.staticMarkup(node);
    },
  };
});
vi.mock("next/navigation", () => ({ useRouter: () => ({ push() {} }) }));

const HOSTILE = `<script>alert("x")</script> & 'q' <img src=x onerror=alert(1)>`;

/** The drawings a chart made, each written by staticMarkup and by react-dom/server. */
function drawingsOf(chart: ReactNode): { ours: string; react: string }[] {
  drawn.length = 0;
  renderToStaticMarkup(chart);
  expect(drawn.length).toBeGreaterThan(0);
  return drawn.map((node) => ({ ours: staticMarkup(node), react: renderToStaticMarkup(node) }));
}

const ci = (a: number): [number, number] => [Math.max(0, a - 0.05), Math.min(1, a + 0.04)];
const acc = (length: number, a: number) => ({
  length,
  n: 100,
  first_correct: Math.round(a * 100),
  first_accuracy: a,
  first_ci: ci(a),
  last_correct: Math.round(a * 90),
  last_accuracy: a * 0.9,
  last_ci: ci(a * 0.9),
});

const CHARTS: [string, ReactNode][] = [
  [
    "accuracy by length, both answers, log scale",
    <AccuracyByLengthChart
      key="a"
      answer="both"
      xScale="log"
      series={[0, 1].map((slot) => ({
        key: `run-${slot}`,
        label: `${HOSTILE} ${slot}`,
        style: styleOfSlot(slot),
        points: [5, 10, 20, 40, 80].map((l, i) => acc(l, 0.95 - 0.15 * i - 0.1 * slot)),
        itemsHref: `/runs/run-${slot}?tab=items&minLen={length}&maxLen={length}`,
      }))}
    />,
  ],
  [
    "step curves with horizons",
    <StepCurvesChart
      key="s"
      series={[0, 1].map((slot) => {
        const pts = (f: number) => Array.from({ length: 30 }, (_, i) => ({ step: i + 1, n: 50, accuracy: Math.pow(f, i + 1) }));
        return {
          key: `run-${slot}`,
          label: HOSTILE,
          style: styleOfSlot(slot),
          task: pts(0.97 - 0.02 * slot),
          step: pts(0.995),
          predicted: pts(0.96),
          predictedHorizon: 17.3,
          horizon: { s: 0.5, steps: 21.5, censored: false, ci: [19, 24] as [number, number] },
          horizon80: { s: 0.8, steps: 30, censored: true, ci: [30, 30] as [number, number] },
        };
      })}
    />,
  ],
  [
    "first-divergence histogram",
    <FirstDivergenceHistogram
      key="h"
      bins={[1, 2, 3, 7, 19, 40].map((step, i) => ({ step, count: 10 + i * 3 }))}
      maxLength={45}
      itemsHref="/runs/r?tab=items&divMin={step}&divMax={stepMax}"
    />,
  ],
  [
    "failure modes by length",
    <FailureModesByLengthChart
      key="f"
      rows={[5, 10, 20].map((length, i) => ({
        length,
        n: 40,
        modes: Object.fromEntries(FAILURE_MODES.map((m, j) => [m, (i + j) % 4])) as Record<(typeof FAILURE_MODES)[number], number>,
      }))}
      itemsHref="/runs/r?tab=items&minLen={length}&maxLen={length}&mode={mode}"
    />,
  ],
  [
    "horizon against size",
    <HorizonVsSizeChart
      key="v"
      points={[
        { key: "a", label: HOSTILE, style: styleOfSlot(0), paramsB: 7, h50: 12, lo: 10, hi: 15, censored: false, href: "/runs/a" },
        { key: "b", label: "b", style: styleOfSlot(1), paramsB: 70, h50: 60, lo: null, hi: null, censored: true, thinking: true },
      ]}
    />,
  ],
  [
    "self-conditioning",
    <SelfConditioningChart
      key="c"
      series={[
        {
          key: "m",
          label: HOSTILE,
          style: styleOfSlot(0),
          points: [0, 0.25, 0.5, 1].map((rate, i) => ({ rate, n: 30, correct: 20 - i * 4, accuracy: (20 - i * 4) / 30, ci: [0.3, 0.8] })),
          slope: -0.31,
          slopeCi: [-0.4, -0.2],
          intercept: 0.66,
          flag: "floor",
          href: "/runs/m",
        },
      ]}
    />,
  ],
];

describe("staticMarkup", () => {
  it.each(CHARTS)("writes the drawings of %s as react-dom/server does, hostile labels escaped", (_, chart) => {
    for (const { ours, react } of drawingsOf(chart)) {
      expect(ours).toBe(react);
      expect(ours).not.toContain("<script");
      expect(ours).not.toMatch(/<img/);
    }
  });

  const text = fc.string({ unit: fc.constantFrom("a", "<", ">", "&", '"', "'", " ", "é", "\u2028", "/", "=") });
  const props = fc.record(
    {
      className: text,
      d: text,
      x: fc.double({ noNaN: true }),
      strokeWidth: fc.integer(),
      strokeDasharray: text,
      textAnchor: text,
      fontSize: fc.integer(),
      fillOpacity: fc.double({ min: 0, max: 1, noNaN: true }),
      viewBox: text,
      transform: text,
      "data-tip": text,
      "data-hollow": fc.constantFrom("", true, false, undefined),
      "aria-label": text,
      href: text.map((t) => "/runs/" + t),
    },
    { requiredKeys: [] },
  );
  const tag = fc.constantFrom("g", "path", "text", "a", "rect", "circle", "tspan");
  const tree = fc.letrec<{ node: ReactNode }>((self) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      text,
      fc.integer(),
      fc.constant(null),
      fc.tuple(tag, props, fc.array(self("node"), { maxLength: 4 })).map(([Tag, p, children]) => (
        // a plain function component between elements, as Axes and Mark are
        <Wrap key={String(p.x)}>
          <Tag {...(p as object)}>{children}</Tag>
        </Wrap>
      )),
    ),
  }));

  it("writes any tree of drawing elements, attributes and text as react-dom/server does", () => {
    fc.assert(
      fc.property(tree.node, (node) => {
        expect(staticMarkup(<svg role="img">{node}</svg>)).toBe(renderToStaticMarkup(<svg role="img">{node}</svg>));
      }),
      { numRuns: 300 },
    );
  });

  it("escapes as React does", () => {
    expect(escapeMarkup(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;");
  });

  it("refuses what it would not escape or what a drawing cannot hold", () => {
    const refused: ReactNode[] = [
      <script key="1">alert(1)</script>,
      <foreignObject key="2" />,
      <title key="11">a {"b"}</title>,
      <g key="3" onClick={() => {}} />,
      <g key="4" style={{ color: "red" }} />,
      <a key="5" href="javascript:alert(1)" />,
      <a key="6" href="https://example.com/" />,
      <a key="7" href="//example.com/" />,
      <g key="8" dangerouslySetInnerHTML={{ __html: "<b>" }} />,
      <Async key="9" />,
      <g key="10" {...{ "bad name": "x" }} />,
    ];
    for (const node of refused) expect(() => staticMarkup(<svg>{node}</svg>), String(node)).toThrow(/static markup/);
  });
});

function Wrap({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

async function Async() {
  return <g />;
}
