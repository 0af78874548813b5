// Reads one dict-sum turn text: thinking removed, first <answer>…</answer> taken (SPEC §2.2).
import type { Span } from "./types";
import { parseInteger } from "./numbers";

export interface TurnAnswer {
  /** trimmed tag content; null when there is no answer tag outside the thinking */
  text: string | null;
  span: Span | null; // the whole tag, in the original text
}

/**
 * Character ranges holding thinking. `<think>…</think>` blocks; an unclosed `<think>` runs to
 * the end (a cut-off thought); a `</think>` without an opening tag ends a thought that started
 * at the beginning (some servers drop the opening tag).
 */
export function thinkRanges(text: string): Span[] {
  const ranges: Span[] = [];
  let pos = 0;
  const firstOpen = text.indexOf("<think>");
  const firstClose = text.indexOf("</think>");
  if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) {
    ranges.push([0, firstClose + 8]);
    pos = firstClose + 8;
  }
  for (let open = text.indexOf("<think>", pos); open !== -1; open = text.indexOf("<think>", pos)) {
    const close = text.indexOf("</think>", open + 7);
    if (close === -1) {
      ranges.push([open, text.length]);
      break;
    }
    ranges.push([open, close + 8]);
    pos = close + 8;
  }
  return ranges;
}

/** The first answer tag outside thinking. */
export function turnAnswer(text: string): TurnAnswer {
  const ranges = thinkRanges(text);
  let r = 0;
  let i = text.indexOf("<answer>");
  while (i !== -1) {
    while (r < ranges.length && ranges[r][1] <= i) r++;
    if (r < ranges.length && ranges[r][0] <= i) {
      i = text.indexOf("<answer>", ranges[r][1]); // skip the rest of this thought
      continue;
    }
    const close = text.indexOf("</answer>", i + 8);
    if (close === -1) return { text: null, span: null };
    return { text: text.slice(i + 8, close).trim(), span: [i, close + 9] };
  }
  return { text: null, span: null };
}

export { parseInteger };
