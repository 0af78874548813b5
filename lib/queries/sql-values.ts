// Values of rows read through the store (lib/store/reader.ts): drivers differ (SQLite gives
// booleans as 0/1 and timestamps as Prisma wrote them), so readers convert each column to the
// type the view expects.

export const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const numberOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** A DateTime column: ISO text or epoch ms on SQLite (as Prisma wrote it), a Date on PostgreSQL. */
export const storedDate = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string | number | Date));
