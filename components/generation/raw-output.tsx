import { Card } from "@/components/ui/card";
import { STATUS_STYLE } from "@/components/ui/status-badge";
import type { GenerationDetail } from "@/lib/queries/generation";
import { OutputFollow } from "./output-follow";
import { marksFor, segmentText, type Segment } from "./output-marks";

const ANSWER_MARK = "bg-indigo-100 text-indigo-950 ring-1 ring-indigo-400 font-semibold";

function Highlighted({ segments }: { segments: Segment[] }) {
  return (
    // Link and mark styles sit on the <pre> once: a 95-step output has ~200 of them.
    <pre
      className="rounded-md bg-neutral-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-neutral-800 [&_a]:rounded-sm [&_a]:no-underline [&_a:hover]:outline [&_a:hover]:outline-1 [&_a:hover]:outline-neutral-500 [&_mark]:rounded-sm [&_mark]:px-0.5"
      data-testid="raw-output"
    >
      {segments.map((s, i) =>
        s.mark ? (
          <a key={i} href={s.mark.href} id={s.mark.id} data-turn={s.mark.turn} title={s.mark.label} aria-label={s.mark.label}>
            <mark className={s.mark.kind === "answer" ? ANSWER_MARK : STATUS_STYLE[s.mark.kind].mark} data-kind={s.mark.kind}>
              {s.text}
            </mark>
          </a>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </pre>
  );
}

/** The model's raw output as text, its claimed steps and answers highlighted and linked to their rows. */
export function RawOutput({ detail }: { detail: GenerationDetail }) {
  const o = detail.output;
  const empty = o.kind === "text" ? o.text.trim() === "" : o.turns.length === 0;
  return (
    <Card
      id="output"
      title="Raw output"
      description="Shown as plain text. Highlighted: claimed steps (coloured by status) and answers; click one to jump to its row."
    >
      <OutputFollow turnOfStep={detail.analysis.turns ? detail.steps.map((s) => s.turn ?? null) : null} />
      <div className="max-h-[70vh] overflow-auto xl:max-h-[calc(100vh-10rem)]" data-output-pane>
        {empty ? (
          <p className="text-sm text-neutral-500">This generation has no output text (its steps were given as values).</p>
        ) : o.kind === "text" ? (
          <Highlighted segments={segmentText(o.text, marksFor(detail, null))} />
        ) : (
          <ol className="space-y-3">
            {o.turns.map((text, i) => (
              <li key={i}>
                <div className="mb-1 text-xs font-semibold text-neutral-500">Turn {i + 1}</div>
                <Highlighted segments={segmentText(text, marksFor(detail, i + 1))} />
              </li>
            ))}
          </ol>
        )}
      </div>
    </Card>
  );
}
