// Table exports: CSV (RFC 4180) and JSON responses shared by the export route handlers.

type Cell = string | number | boolean | null | undefined;

const NEGATIVE_DECIMAL = /^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function csvCell(v: Cell): string {
  if (v === null || v === undefined) return "";
  let s = String(v);
  // Spreadsheet formula injection (OWASP's list): text from loaded files must not run as a
  // formula, so text starting = + - @ tab or CR is prefixed with '. Numbers stay numbers, and so
  // does text that is only a negative decimal (a model's answer "-9.236"): nothing in it can
  // form a formula, and with the ' a researcher's pandas or R read it as text.
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s) && !NEGATIVE_DECIMAL.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

export function toCsv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 120) || "export";
}

export function csvResponse(name: string, csv: string): Response {
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${safeName(name)}.csv"`,
      "cache-control": "no-store",
    },
  });
}

export function jsonResponse(name: string, body: unknown): Response {
  return new Response(JSON.stringify(body, null, 2) + "\n", {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${safeName(name)}.json"`,
      "cache-control": "no-store",
    },
  });
}

/** Rows of an export: everything that matches the filters, not just the visible page. */
export const EXPORT_LIMIT = 100_000;
