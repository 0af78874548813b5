import { Card } from "@/components/ui/card";
import type { GenerationDetail } from "@/lib/queries/generation";
import { OutputFollow } from "./output-follow";
import { HighlightedOutput } from "./highlighted-output";
import { marksFor } from "./output-marks";

/** The model's raw output as text, its claimed steps and answers highlighted and linked to their rows. */
export function RawOutput({ detail }: { detail: GenerationDetail }) {
  const o = detail.output;
  const empty = o.kind === "text" ? o.text.trim() === "" : o.turns.length === 0;
  return (
    <Card
      id="output"
      title="Raw output"
      description={
        detail.steps.length > 0
          ? "Shown as plain text. Highlighted: claimed steps (coloured by status) and answers; click one to jump to its row."
          : "Shown as plain text. This generation has no step trace, so nothing in it links to a row."
      }
    >
      <OutputFollow turnOfStep={detail.analysis.turns ? detail.steps.map((s) => s.turn ?? null) : null} />
      <div className="max-h-[70vh] overflow-auto xl:max-h-[calc(100vh-10rem)]" data-output-pane>
        {empty ? (
          <p className="text-sm text-neutral-500">This generation has no output text (its steps were given as values).</p>
        ) : o.kind === "text" ? (
          <HighlightedOutput text={o.text} marks={marksFor(detail, null)} />
        ) : (
          <ol className="space-y-3">
            {o.turns.map((text, i) => (
              <li key={i}>
                <div className="mb-1 text-xs font-semibold text-neutral-500">Turn {i + 1}</div>
                <HighlightedOutput text={text} marks={marksFor(detail, i + 1)} />
              </li>
            ))}
          </ol>
        )}
      </div>
    </Card>
  );
}
