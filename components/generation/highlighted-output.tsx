"use client";

import { STATUS_STYLE } from "@/components/ui/status-badge";
import { segmentText, type OutputMark } from "./output-marks";

const ANSWER_MARK = "bg-indigo-100 text-indigo-950 ring-1 ring-indigo-400 font-semibold";

/**
 * One output text with its claimed steps and answers highlighted, each a link to its row. A client
 * leaf rendered on the server: its payload is the text and the marks' spans, not ~200 elements
 * (docs/decisions.md, "Charts are client components, rendered on the server"). The text is
 * untrusted: it is only cut into strings and rendered as React text.
 */
export function HighlightedOutput({ text, marks }: { text: string; marks: OutputMark[] }) {
  return (
    // Link and mark styles sit on the <pre> once: a 95-step output has ~200 of them.
    <pre
      className="rounded-md bg-neutral-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-neutral-800 [&_a]:rounded-sm [&_a]:no-underline [&_a:hover]:outline [&_a:hover]:outline-1 [&_a:hover]:outline-neutral-500 [&_mark]:rounded-sm [&_mark]:px-0.5"
      data-testid="raw-output"
    >
      {segmentText(text, marks).map((s, i) =>
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
