// Values of rows read with $queryRaw: drivers differ (SQLite gives booleans as 0/1, PostgreSQL
// some numbers as strings), so readers convert each column to the type the view expects.

export const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const numberOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
