import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TraceStrip } from "../../components/run/trace-strip";

// The item table's strip is one element whose gradient has one hard-edged band per run of
// equal statuses, covering 0–100% in step order, and whose label says the counts in words.
describe("TraceStrip", () => {
  it("draws one band per run, in order, and names the counts", () => {
    const html = renderToStaticMarkup(<TraceStrip statuses={"ccccsppppm"} />);
    expect(html).toContain('aria-label="10 steps: 4 correct, 1 slip, 4 propagated, 1 missing"');
    const gradient = /linear-gradient\(90deg,([^)]*)\)/.exec(html)![1];
    expect(gradient.split(",")).toEqual(["#10b981 0% 40%", "#dc2626 40% 50%", "#f59e0b 50% 90%", "#d4d4d4 90% 100%"]);
    expect(html.match(/<[a-z]/g)).toHaveLength(1);
  });

  it("keeps bands of a 95-step trace contiguous and says nothing is there without steps", () => {
    const statuses = Array.from({ length: 95 }, (_, i) => "cspm"[(i * 7) % 4 === 0 ? 1 : i % 3 === 0 ? 2 : 0]).join("");
    const gradient = /linear-gradient\(90deg,([^)]*)\)/.exec(renderToStaticMarkup(<TraceStrip statuses={statuses} />))![1];
    const bands = gradient.split(",").map((b) => b.split(" "));
    expect(bands[0][1]).toBe("0%");
    expect(bands.at(-1)![2]).toBe("100%");
    for (let i = 1; i < bands.length; i++) expect(bands[i][1]).toBe(bands[i - 1][2]);
    expect(renderToStaticMarkup(<TraceStrip statuses="" />)).toBe('<span class="item-quiet">—</span>');
  });
});
