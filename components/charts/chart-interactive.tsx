"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type ReactNode } from "react";

interface Tip {
  text: string;
  x: number;
  y: number;
  /** width of the chart box, so the tooltip stays inside it */
  width: number;
}

/**
 * The client code of a chart's drawing: the server draws the SVG (children); this adds a tooltip for
 * the element under the pointer or focus that carries `data-tip`, or a link's accessible name (plain
 * text, shown as text, never as HTML) and makes the chart's links navigate client-side. Export is ChartExportMenu's.
 */
export function ChartInteractive({ children, columnTips }: { children: ReactNode; columnTips?: string[] }) {
  const router = useRouter();
  const box = useRef<HTMLDivElement>(null);
  const [tip, setTip] = useState<Tip | null>(null);

  function show(target: EventTarget | null, clientX?: number, clientY?: number) {
    const el = target instanceof Element ? target.closest("[data-tip], a.chart-link, [data-columns]") : null;
    const host = box.current;
    const text = el ? (el.getAttribute("data-tip") ?? el.getAttribute("aria-label") ?? columnTip(el, columnTips, clientX, clientY)) : null;
    if (!el || !host || text == null) return setTip(null);
    const outer = host.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const x = (clientX ?? r.left + r.width / 2) - outer.left;
    const y = (clientY ?? r.top) - outer.top;
    setTip({ text, x, y, width: outer.width });
  }

  return (
    <div
      ref={box}
      className="chart-box relative"
      onPointerMove={(e) => show(e.target, e.clientX, e.clientY)}
      onPointerLeave={() => setTip(null)}
      onFocus={(e) => show(e.target)}
      onBlur={() => setTip(null)}
      onClick={(e) => {
        const a = e.target instanceof Element ? e.target.closest("a") : null;
        const href = a?.getAttribute("href");
        if (!href || !href.startsWith("/") || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        router.push(href);
      }}
    >
      {children}
      {tip ? (
        <div
          role="tooltip"
          className="chart-tooltip"
          style={{
            left: Math.max(0, Math.min(tip.x + 12, tip.width - 220)),
            top: Math.max(tip.y - 8, 0),
          }}
        >
          {tip.text}
        </div>
      ) : null}
    </div>
  );
}

/** The tooltip of the HoverColumns column under the pointer: its x in the drawing's viewBox units against the column boundaries. */
function columnTip(el: Element, tips: string[] | undefined, clientX?: number, clientY?: number): string | null {
  const svg = el instanceof SVGGraphicsElement ? el.ownerSVGElement : null;
  const toView = svg?.getScreenCTM()?.inverse();
  if (!tips || !toView || clientX == null || clientY == null) return null;
  const x = new DOMPoint(clientX, clientY).matrixTransform(toView).x;
  const bounds = (el.getAttribute("data-columns") ?? "").split(" ").filter(Boolean).map(Number);
  let i = 0;
  while (i < bounds.length && x >= bounds[i]) i++;
  return tips[i] ?? null;
}
