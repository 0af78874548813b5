"use client";

import { useRef, useState } from "react";
import { chartSvg, downloadPng, downloadSvg } from "./chart-export";

/**
 * The ⤓ menu of a chart (SVG or PNG of the visible rendering). It sits in the chart's header
 * row, beside the title, so it never covers the plot or the legend; the chart it exports is
 * the one of its own figure.
 */
export function ChartExportMenu({ name }: { name: string }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const [failed, setFailed] = useState(false);

  async function save(kind: "svg" | "png") {
    const figure = menu.current?.closest("figure") ?? null;
    const box = figure?.querySelector<HTMLElement>(".chart-box");
    if (!box) return;
    try {
      const svg = chartSvg(box, figure, name);
      if (kind === "svg") downloadSvg(svg, name);
      else await downloadPng(svg, name);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }

  return (
    <details ref={menu} className="chart-export" data-testid="chart-export">
      <summary aria-label={`Export ${name}`}>⤓</summary>
      <div className="chart-export-menu">
        <button type="button" onClick={() => save("svg")}>
          SVG
        </button>
        <button type="button" onClick={() => save("png")}>
          PNG
        </button>
        {failed ? <span role="status">Export failed</span> : null}
      </div>
    </details>
  );
}
