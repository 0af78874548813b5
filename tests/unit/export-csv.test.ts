import { describe, expect, it } from "vitest";
import { toCsv } from "@/app/export/csv";

const cellOf = (v: string | number | null) => toCsv(["h"], [[v]]).split("\r\n")[1];

describe("CSV export", () => {
  it.each(["=1+2", "+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "-cmd|' /C calc'!A0"])("text %j cannot start a formula", (text) => {
    const cell = cellOf(text);
    // the cell's text (quotes of RFC 4180 aside) begins with the ' that spreadsheets show as text
    expect(cell.replace(/^"/, "").startsWith("'")).toBe(true);
  });

  it.each(["-9.236", "-3", "-0.5", "-.5", "-1e-7", "-2.5E+3"])("text %j that is only a negative decimal stays a number", (text) => {
    expect(cellOf(text)).toBe(text);
  });

  it.each(["-1-1", "-9.2.3", "--1", "-1e", "- 1", "-1\n", "-Infinity", "-0x10"])(
    "text %j that is more than a decimal is guarded",
    (text) => {
      expect(cellOf(text).replace(/^"/, "").startsWith("'")).toBe(true);
    },
  );

  it("leaves numbers, ordinary text and empty cells as they are", () => {
    expect(cellOf(-3)).toBe("-3");
    expect(cellOf(0.25)).toBe("0.25");
    expect(cellOf("alpha-8b")).toBe("alpha-8b");
    expect(cellOf(null)).toBe("");
  });

  it("quotes commas, quotes and line breaks (RFC 4180), after the formula guard", () => {
    expect(cellOf('a,"b"')).toBe('"a,""b"""');
    expect(cellOf("-1,2")).toBe(`"'-1,2"`);
    expect(toCsv(["a", "b"], [[1, "x\ny"]])).toBe('a,b\r\n1,"x\ny"\r\n');
  });
});
