import { z } from "zod";

// The `runs` parameter shared by /curves and /compare: run keys, each URL-encoded, joined
// by commas (`?runs=A,B`). A key may itself contain a comma (encoded as %2C in the link,
// but decoded again by the time the server sees it), so parsing keeps the raw pieces and
// `resolveRunKeys` re-joins neighbouring pieces that only exist as one key.

export const MAX_RUNS = 8;

/** Comma-separated run keys → pieces (trimmed, empty dropped, order kept, de-duplicated). */
export const runListParam = z
  .string()
  .transform((s) =>
    [
      ...new Set(
        s
          .split(",")
          .map((x) => x.trim())
          .filter((x) => x !== ""),
      ),
    ].slice(0, 4 * MAX_RUNS),
  )
  .optional()
  .catch(undefined)
  .transform((v) => v ?? []);

/**
 * Matches pieces against known keys, preferring the longest join of neighbouring pieces
 * (so "a,b" is one key when "a,b" exists). Unknown pieces are returned separately so the
 * page can say which link entries no longer exist.
 */
export function resolveRunKeys(pieces: string[], known: ReadonlySet<string>): { keys: string[]; unknown: string[] } {
  const keys: string[] = [];
  const unknown: string[] = [];
  for (let i = 0; i < pieces.length;) {
    let matched = 0;
    for (let j = pieces.length; j > i; j--) {
      if (known.has(pieces.slice(i, j).join(","))) {
        matched = j - i;
        break;
      }
    }
    if (matched) {
      const k = pieces.slice(i, i + matched).join(",");
      if (!keys.includes(k)) keys.push(k);
      i += matched;
    } else {
      unknown.push(pieces[i]);
      i += 1;
    }
  }
  return { keys: keys.slice(0, MAX_RUNS), unknown };
}

/** `runs` value for a link: each key URL-encoded, commas between (kept literal). */
export function runListValue(keys: string[]): string {
  return keys.map((k) => encodeURIComponent(k)).join(",");
}
