"use client";

import { useRouter } from "next/navigation";
import { Symbols } from "recharts";
import type { SeriesSymbol } from "./theme";

export interface SeriesDotProps {
  cx?: number;
  cy?: number;
  color: string;
  symbol: SeriesSymbol;
  /** hollow marker (e.g. last answer, censored estimate) */
  hollow?: boolean;
  size?: number;
  /** when set, the marker is a link (keyboard reachable) that navigates client-side */
  href?: string | null;
  /** accessible name of the link */
  label?: string;
}

/**
 * One data marker. Shape and fill style carry the series identity beside the colour; with
 * an href the marker is an SVG link, so "click a point to open its items" also works from
 * the keyboard and with a middle click.
 */
export function SeriesDot({ cx, cy, color, symbol, hollow, size = 48, href, label }: SeriesDotProps) {
  const router = useRouter();
  if (cx == null || cy == null || !Number.isFinite(cx) || !Number.isFinite(cy)) return null;
  const mark = <Symbols cx={cx} cy={cy} type={symbol} size={size} fill={hollow ? "#ffffff" : color} stroke={color} strokeWidth={1.5} />;
  if (!href) return <g>{mark}</g>;
  return (
    <a
      href={href}
      aria-label={label}
      className="cursor-pointer focus:outline-none [&:focus-visible>circle]:stroke-sky-600"
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        router.push(href);
      }}
    >
      <title>{label}</title>
      {/* a larger transparent hit target around the small marker */}
      <circle cx={cx} cy={cy} r={9} fill="transparent" stroke="none" />
      {mark}
    </a>
  );
}
