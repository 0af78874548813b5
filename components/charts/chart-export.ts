// Client-side export of a drawn chart: the visible rendering's SVG with its colours resolved
// (the page's CSS custom properties do not travel with a file), the chart's name as a title and
// its legend redrawn under it; PNG by drawing that SVG onto a canvas at twice the size.

const STYLE_PROPS = [
  "fill",
  "stroke",
  "fill-opacity",
  "stroke-opacity",
  "stroke-width",
  "stroke-dasharray",
  "opacity",
  "font-size",
  "font-weight",
];
const NS = "http://www.w3.org/2000/svg";

/** Copies computed presentation styles from `src` onto `dst` (same tree shape). */
function inlineStyles(src: Element, dst: Element) {
  const from = [src, ...src.querySelectorAll("*")];
  const to = [dst, ...dst.querySelectorAll("*")];
  from.forEach((el, i) => {
    const cs = getComputedStyle(el);
    for (const p of STYLE_PROPS) {
      const v = cs.getPropertyValue(p);
      if (v && v !== "none" && !(p === "stroke-dasharray" && v === "none")) to[i].setAttribute(p, v);
      else if (p === "fill" || p === "stroke") to[i].setAttribute(p, v || "none");
    }
  });
}

function text(x: number, y: number, value: string, size: number, fill: string, weight = "normal"): SVGTextElement {
  const t = document.createElementNS(NS, "text");
  t.setAttribute("x", String(x));
  t.setAttribute("y", String(y));
  t.setAttribute("font-size", String(size));
  t.setAttribute("font-weight", weight);
  t.setAttribute("fill", fill);
  t.textContent = value;
  return t;
}

/** A standalone SVG document of the chart inside `box` (its visible rendering), titled, with the legend of `figure`. */
export function chartSvg(box: HTMLElement, figure: Element | null, title: string): string {
  const svg = [...box.querySelectorAll<SVGSVGElement>("svg.chart-svg")].find((s) => getComputedStyle(s).display !== "none");
  if (!svg) throw new Error("no visible chart");
  const [, , width, height] = (svg.getAttribute("viewBox") ?? "0 0 720 320").split(/\s+/).map(Number);
  const rootStyle = getComputedStyle(document.documentElement);
  const surface = rootStyle.getPropertyValue("--chart-surface").trim() || "#ffffff";
  const ink = rootStyle.getPropertyValue("--chart-ink").trim() || "#262626";
  const font = getComputedStyle(svg).fontFamily;

  const plot = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, plot);
  plot.removeAttribute("class");
  plot.removeAttribute("width");
  plot.setAttribute("width", String(width));
  plot.setAttribute("height", String(height));
  plot.setAttribute("y", "28");

  // Legend entries: the glyph (a small SVG) and the label, laid out in rows.
  const legend = document.createElementNS(NS, "g");
  let x = 8;
  let y = 28 + height + 8;
  const entries = figure ? [...figure.querySelectorAll("ul.chart-legend > li")] : [];
  for (const li of entries) {
    const glyph = li.querySelector("svg");
    const label = li.textContent?.trim() ?? "";
    const w = 34 + label.length * 6.4;
    if (x + w > width && x > 8) {
      x = 8;
      y += 18;
    }
    if (glyph) {
      const g = glyph.cloneNode(true) as SVGSVGElement;
      inlineStyles(glyph, g);
      g.removeAttribute("class");
      g.setAttribute("x", String(x));
      g.setAttribute("y", String(y));
      legend.appendChild(g);
    }
    legend.appendChild(text(x + 32, y + 11, label, 11, ink));
    x += w + 10;
  }
  const total = entries.length ? y + 24 : 28 + height + 4;

  const out = document.createElementNS(NS, "svg");
  out.setAttribute("xmlns", NS);
  out.setAttribute("width", String(width));
  out.setAttribute("height", String(total));
  out.setAttribute("viewBox", `0 0 ${width} ${total}`);
  out.setAttribute("font-family", font);
  const bg = document.createElementNS(NS, "rect");
  bg.setAttribute("width", "100%");
  bg.setAttribute("height", "100%");
  bg.setAttribute("fill", surface);
  out.append(bg, text(8, 18, title, 14, ink, "600"), plot, legend);
  return new XMLSerializer().serializeToString(out);
}

function download(href: string, name: string) {
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function fileStem(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "chart"
  );
}

export function downloadSvg(svgText: string, title: string) {
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  download(url, `${fileStem(title)}.svg`);
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export async function downloadPng(svgText: string, title: string, scale = 2) {
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth * scale;
    canvas.height = img.naturalHeight * scale;
    const ctx = canvas.getContext("2d")!;
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!blob) throw new Error("PNG encoding failed");
    const png = URL.createObjectURL(blob);
    download(png, `${fileStem(title)}.png`);
    setTimeout(() => URL.revokeObjectURL(png), 1000);
  } finally {
    URL.revokeObjectURL(url);
  }
}
