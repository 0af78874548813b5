import type { TraceStatus } from "@/components/ui/status-badge";
import { stepAnchor } from "@/lib/url/step-anchor";
import type { GenerationDetail } from "@/lib/queries/generation";

// Turns the analysis spans into highlighted stretches of the raw output. The output is
// model text (untrusted): it is only ever cut into strings and rendered as React text.

export interface OutputMark {
  start: number;
  end: number;
  kind: TraceStatus | "answer";
  /** in-page anchor of the row this stretch belongs to */
  href: string;
  /** accessible description, e.g. "step 7: slip" */
  label: string;
  /** id so a table row can link back to its stretch of text */
  id?: string;
  /** dict-sum: the turn whose answer this is (a #step-J deep link follows it, OutputFollow) */
  turn?: number;
}

export type Segment = { text: string; mark?: OutputMark };

/** Anchor of the row showing turn `t` (its first step; a self-conditioning turn has its own). */
export function turnAnchor(d: GenerationDetail, turn: number): string {
  const turns = d.analysis.turns ?? [];
  let step = 0;
  for (const t of turns) {
    if (t.turn === turn) return d.run.hasSteps ? stepAnchor(step + 1) : `turn-${turn}`;
    step += t.keys.length;
  }
  return `turn-${turn}`;
}

/** Marks of one text: the whole output (turn = null) or one turn of a multi-turn output. */
export function marksFor(d: GenerationDetail, turn: number | null): OutputMark[] {
  const a = d.analysis;
  const marks: OutputMark[] = [];
  const inText = (t: number | undefined | null) => (turn === null ? true : t === turn);

  if (a.turns) {
    // dict-sum: each turn's answer carries the turn's status.
    for (const ans of a.answers) {
      if (!ans.span || !inText(ans.turn)) continue;
      const row = a.turns.find((t) => t.turn === ans.turn);
      const status: TraceStatus = row?.status ?? "correct";
      marks.push({
        start: ans.span[0],
        end: ans.span[1],
        kind: status,
        href: "#" + turnAnchor(d, ans.turn ?? 0),
        label: `turn ${ans.turn}: ${status}`,
        turn: ans.turn ?? undefined,
      });
    }
  } else {
    for (const s of d.steps) {
      if (!s.span || !inText(s.turn)) continue;
      marks.push({
        start: s.span[0],
        end: s.span[1],
        kind: s.status,
        href: "#" + stepAnchor(s.step),
        label: `step ${s.step}: ${s.status}`,
        id: `claim-${s.step}`,
      });
    }
    for (const r of a.revised) {
      if (r.span && inText(r.turn))
        marks.push({ start: r.span[0], end: r.span[1], kind: "revised", href: "#" + stepAnchor(r.step), label: `step ${r.step} revised` });
    }
    a.extras.forEach((x, i) => {
      if (x.span && inText(x.turn))
        marks.push({ start: x.span[0], end: x.span[1], kind: "extra", href: `#extra-${i + 1}`, label: `extra step ${x.step}` });
    });
    a.answers.forEach((ans, i) => {
      if (ans.span && inText(ans.turn))
        marks.push({
          start: ans.span[0],
          end: ans.span[1],
          kind: "answer",
          href: "#answers",
          label: i === 0 ? "first answer" : `answer ${i + 1}`,
        });
    });
  }
  return marks;
}

/** Cuts `text` into plain and marked segments; overlapping marks keep the earlier one. */
export function segmentText(text: string, marks: OutputMark[]): Segment[] {
  const sorted = marks
    .filter((m) => m.start >= 0 && m.end > m.start && m.start < text.length)
    .sort((x, y) => x.start - y.start || y.end - x.end);
  const out: Segment[] = [];
  let pos = 0;
  for (const m of sorted) {
    if (m.start < pos) continue;
    const end = Math.min(m.end, text.length);
    if (m.start > pos) out.push({ text: text.slice(pos, m.start) });
    out.push({ text: text.slice(m.start, end), mark: m });
    pos = end;
  }
  if (pos < text.length) out.push({ text: text.slice(pos) });
  return out;
}
