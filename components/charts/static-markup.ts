import { Fragment, isValidElement, type ReactNode } from "react";

// A chart's drawing is static SVG: no state, no handlers (ChartInteractive delegates from its
// box). React would serialise each of its elements into the RSC payload and then render the HTML
// from that, on every request; this writes the markup once, as React would, for the box to
// insert (docs/decisions.md, "Charts as markup"). It accepts only what a drawing holds and
// throws on anything else, so nothing it does not escape reaches the markup;
// tests/unit/static-markup.test.tsx holds it equal to react-dom/server's output, hostile text included.

const TAGS = new Set([
  "svg",
  "g",
  "path",
  "line",
  "polyline",
  "polygon",
  "rect",
  "circle",
  "ellipse",
  "text",
  "tspan",
  "a",
  "defs",
  "pattern",
  "clipPath",
  "linearGradient",
  "stop",
]);

/** React's names for SVG attributes that differ from their props; the rest are written as given. */
const ALIASES: Record<string, string> = {
  className: "class",
  clipPath: "clip-path",
  clipRule: "clip-rule",
  dominantBaseline: "dominant-baseline",
  fillOpacity: "fill-opacity",
  fillRule: "fill-rule",
  fontFamily: "font-family",
  fontSize: "font-size",
  fontStyle: "font-style",
  fontWeight: "font-weight",
  letterSpacing: "letter-spacing",
  markerEnd: "marker-end",
  markerMid: "marker-mid",
  markerStart: "marker-start",
  paintOrder: "paint-order",
  pointerEvents: "pointer-events",
  shapeRendering: "shape-rendering",
  stopColor: "stop-color",
  stopOpacity: "stop-opacity",
  strokeDasharray: "stroke-dasharray",
  strokeDashoffset: "stroke-dashoffset",
  strokeLinecap: "stroke-linecap",
  strokeLinejoin: "stroke-linejoin",
  strokeMiterlimit: "stroke-miterlimit",
  strokeOpacity: "stroke-opacity",
  strokeWidth: "stroke-width",
  textAnchor: "text-anchor",
  textDecoration: "text-decoration",
  textRendering: "text-rendering",
  vectorEffect: "vector-effect",
  tabIndex: "tabindex",
};

/** camelCase props SVG itself spells that way. */
const CAMEL = new Set([
  "viewBox",
  "preserveAspectRatio",
  "patternUnits",
  "patternTransform",
  "gradientUnits",
  "gradientTransform",
  "clipPathUnits",
]);

const NAME = /^(?:[a-z][a-z0-9]*|[a-z]+(?:-[a-z0-9]+)+)$/;
const ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };

/** As react-dom's escapeTextForBrowser, for text and attribute values alike. */
export function escapeMarkup(text: string): string {
  return /["'&<>]/.test(text) ? text.replace(/["'&<>]/g, (c) => ESCAPES[c]) : text;
}

function attributeName(prop: string): string {
  const name = ALIASES[prop] ?? prop;
  if (CAMEL.has(name) || NAME.test(name)) return name;
  throw new Error(`static markup: unsupported attribute '${prop}'`);
}

function attributes(tag: string, props: Record<string, unknown>): string {
  let out = "";
  for (const prop in props) {
    const value = props[prop];
    if (prop === "children" || value == null) continue;
    if (prop === "style" || prop === "dangerouslySetInnerHTML" || /^on[A-Z]/.test(prop))
      throw new Error(`static markup: <${tag}> may not have '${prop}'`);
    const name = attributeName(prop);
    if (typeof value === "boolean") {
      if (name.startsWith("data-") || name.startsWith("aria-")) out += ` ${name}="${value}"`;
      continue;
    }
    if (typeof value !== "string" && typeof value !== "number")
      throw new Error(`static markup: '${prop}' of <${tag}> is a ${typeof value}`);
    const text = String(value);
    if (name === "href") {
      if (text === "") continue;
      // links of a drawing are the app's own paths; anything else (javascript:, other hosts) is refused
      if (!text.startsWith("/") || text.startsWith("//")) throw new Error(`static markup: href '${text}' is not a path of this site`);
    }
    out += ` ${name}="${escapeMarkup(text)}"`;
  }
  return out;
}

function write(node: ReactNode, out: string[]): void {
  if (node == null || typeof node === "boolean") return;
  if (typeof node === "string" || typeof node === "number") {
    out.push(escapeMarkup(String(node)));
    return;
  }
  if (Array.isArray(node)) {
    for (const child of node) write(child, out);
    return;
  }
  if (!isValidElement<Record<string, unknown>>(node)) throw new Error(`static markup: unsupported node (${typeof node})`);
  const { type, props } = node;
  if (type === Fragment) return write(props.children as ReactNode, out);
  if (typeof type === "function") {
    // plain function components without hooks (Axes, Mark, …); a client component or an async one is refused
    if ((type as { $$typeof?: symbol }).$$typeof !== undefined) throw new Error("static markup: a client component cannot be drawn");
    const rendered = (type as (p: unknown) => ReactNode)(props);
    if (rendered instanceof Promise) throw new Error("static markup: an async component cannot be drawn");
    return write(rendered, out);
  }
  if (typeof type !== "string" || !TAGS.has(type)) throw new Error(`static markup: unsupported element <${String(type)}>`);
  out.push(`<${type}${attributes(type, props)}>`);
  write(props.children as ReactNode, out);
  out.push(`</${type}>`);
}

/** The HTML react-dom/server would write for a tree of SVG elements and plain function components. */
export function staticMarkup(node: ReactNode): string {
  const out: string[] = [];
  write(node, out);
  return out.join("");
}
