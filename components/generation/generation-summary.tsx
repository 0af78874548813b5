import { fmtInt, fmtNum, fmtValue } from "@/components/ui/format";
import { ModeBadge, OutcomeBadge, STATUS_STYLE, type TraceStatus } from "@/components/ui/status-badge";
import type { GenerationDetail } from "@/lib/queries/generation";
import { stepAnchor } from "@/lib/url/generation";

/** The first divergence stated in words, linked to its row: the page's main finding. */
export function DivergenceCallout({ detail }: { detail: GenerationDetail }) {
  const d = detail.firstDivergence;
  const kind = (detail.divergenceKind ?? "slip") as TraceStatus;
  if (!detail.run.hasSteps) return null;
  if (d === null)
    return (
      <p
        className="mb-4 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900"
        data-testid="divergence-callout"
      >
        <span aria-hidden="true">✓ </span>No divergence: every reference step is stated with the right value.
      </p>
    );
  const step = detail.steps.find((s) => s.step === d);
  const recovered = recoveredAfter(detail);
  // dict-sum: a divergence is a turn's answer; the steps inside a turn have no claims of their own.
  const turn = step?.turn ?? null;
  const turnRow = turn === null ? undefined : detail.analysis.turns?.find((t) => t.turn === turn);
  return (
    <p
      className={`mb-4 rounded-lg border px-4 py-3 text-sm ${kind === "missing" ? "border-neutral-300 bg-neutral-50 text-neutral-800" : "border-red-200 bg-red-50 text-red-900"}`}
      data-testid="divergence-callout"
    >
      <a href={"#" + stepAnchor(d)} className="font-semibold underline decoration-1 underline-offset-2">
        First divergence at step {d}: {STATUS_STYLE[kind]?.label ?? kind}
      </a>
      {turnRow ? (
        <span>
          {" "}
          (turn {turnRow.turn}) — the reference running sum is <span className="font-mono">{turnRow.expected}</span>,{" "}
          {turnRow.answerText === null ? (
            "the model gave no answer."
          ) : (
            <>
              the model answered <span className="font-mono">{turnRow.answerText}</span>.
            </>
          )}
        </span>
      ) : step && step.status !== "missing" ? (
        <span>
          {" "}
          — expected <span className="font-mono">{fmtValue(step.expected)}</span>, the model wrote{" "}
          <span className="font-mono">{fmtValue(step.claimed)}</span>.
        </span>
      ) : step ? (
        <span> — the model never states this step.</span>
      ) : null}
      {recovered ? (
        <span className="mt-1 block font-medium text-emerald-900" data-testid="recovered">
          <span className="badge badge-correct">recovered</span> {recovered}
        </span>
      ) : null}
    </p>
  );
}

/**
 * "Recovered after a slip at step 2" when the final answer is right although the trace went
 * wrong: a right answer for partly wrong reasons, which the final-answer accuracy counts as a
 * success and the horizon does not. Null when the answer is wrong or there is no divergence.
 */
export function recoveredAfter(
  detail: Pick<GenerationDetail, "firstDivergence" | "divergenceKind" | "lastCorrect" | "firstCorrect">,
): string | null {
  const d = detail.firstDivergence;
  if (d === null || !detail.lastCorrect) return null;
  const what = detail.divergenceKind === "missing" ? `leaving step ${d} unstated` : `a ${detail.divergenceKind ?? "slip"} at step ${d}`;
  return `${detail.firstCorrect ? "The final answer is right" : "The last answer is right (the first was not)"}: recovered after ${what}.`;
}

/** Which answer "first answer" is: the benchmark and output shape decide (SPEC §3, examples/README). */
function firstAnswerNote(detail: GenerationDetail): string | null {
  const turns = detail.analysis.turns;
  if (!turns?.length) return null;
  if (detail.analysis.selfConditioning) return `the target turn's answer (turn ${detail.analysis.selfConditioning.targetTurn})`;
  if (detail.output.kind === "turns")
    return `the last turn's answer (turn ${turns[turns.length - 1].turn} of ${turns.length}); first and last answer are the same`;
  return "the last running sum of the list (single turn)";
}

/** Answers (as text), failure modes and usage of the generation. */
export function GenerationFacts({ detail }: { detail: GenerationDetail }) {
  const a = detail.analysis.answers;
  const u = detail.usage;
  // no answer is set apart from answers (the model's text), so that it never reads as a model's "none"
  const none = <span className="text-neutral-400 italic">none</span>;
  return (
    <dl className="mb-4 grid gap-3 rounded-lg border border-neutral-200 bg-white p-4 text-sm shadow-sm sm:grid-cols-3" id="answers">
      <div>
        <dt className="text-xs font-medium tracking-wide text-neutral-500 uppercase">First answer</dt>
        {firstAnswerNote(detail) ? (
          <dd className="text-xs text-neutral-500" data-testid="first-answer-note">
            {firstAnswerNote(detail)}
          </dd>
        ) : null}
        <dd className="mt-1 flex flex-wrap items-center gap-2">
          <OutcomeBadge correct={detail.firstCorrect} />
          <span className="font-mono break-all">{detail.firstAnswer ?? none}</span>
        </dd>
        {a.length > 1 ? (
          <dd className="mt-1 flex flex-wrap items-center gap-2">
            <span className="text-xs text-neutral-500">last:</span>
            <OutcomeBadge correct={detail.lastCorrect} />
            <span className="font-mono break-all">{detail.lastAnswer ?? none}</span>
            <span className="text-xs text-neutral-500">({a.length} answers)</span>
          </dd>
        ) : null}
        <dd className="mt-1 text-xs text-neutral-500">
          reference: <span className="font-mono">{referenceAnswer(detail)}</span>
        </dd>
      </div>
      <div>
        <dt className="text-xs font-medium tracking-wide text-neutral-500 uppercase">Failure modes</dt>
        <dd className="mt-1 flex flex-wrap gap-1" data-testid="failure-modes">
          {detail.modes.length === 0 ? (
            <span className="text-neutral-500">{detail.clean ? "none — clean execution" : "none"}</span>
          ) : (
            detail.modes.map((m) => <ModeBadge key={m} mode={m} />)
          )}
        </dd>
        {detail.analysis.exactStep ? <dd className="mt-1 text-xs text-neutral-500">exact-step execution</dd> : null}
      </div>
      <div>
        <dt className="text-xs font-medium tracking-wide text-neutral-500 uppercase">Usage</dt>
        <dd className="tabular mt-1 text-neutral-700">
          {u.promptTokens !== null || u.completionTokens !== null
            ? `${fmtInt(u.promptTokens)} in · ${fmtInt(u.completionTokens)} out tokens`
            : "no token counts"}
        </dd>
        {u.latencyMs !== null ? <dd className="tabular text-neutral-700">{fmtNum(u.latencyMs / 1000, 2)} s</dd> : null}
        {u.costUsd !== null ? <dd className="tabular text-neutral-700">${fmtNum(u.costUsd, 4)}</dd> : null}
      </div>
    </dl>
  );
}

function referenceAnswer(d: GenerationDetail): string {
  const turns = d.analysis.turns;
  if (turns?.length) return String(turns[turns.length - 1].expected);
  const last = d.steps[d.steps.length - 1];
  // Imported items without steps: the harness's own reference (Inspect's target, lm-eval's gold).
  if (!last) return typeof d.item.input.reference_answer === "string" ? d.item.input.reference_answer : "—";
  const n = Number(last.expected);
  return d.run.benchmark === "procedural-arith" && Number.isFinite(n) ? String(Math.round(n * 1000) / 1000) : fmtValue(last.expected);
}
