import { Card } from "@/components/ui/card";
import { STATUS_STYLE, StatusBadge } from "@/components/ui/status-badge";
import type { GenerationDetail } from "@/lib/queries/generation";
import { stepAnchor } from "@/lib/url/generation";

// dict-sum: one row per turn with its keys, their values, the reference running sum and
// the model's answer. Every step keeps an anchor (#step-J) on its turn's row.

function shownBase(detail: GenerationDetail): number | null {
  const shown = detail.item.input.shown;
  return Array.isArray(shown) && typeof shown[shown.length - 1] === "number" ? (shown[shown.length - 1] as number) : null;
}

type Turn = NonNullable<GenerationDetail["analysis"]["turns"]>[number];

/** Each turn with its step numbers and the running sum it starts from (the model's last answer, or `start`). */
function numberTurns(turns: Turn[], start: number | null): { turn: Turn; steps: number[]; prev: number | null }[] {
  const out: { turn: Turn; steps: number[]; prev: number | null }[] = [];
  let prev = start;
  let step = 0;
  for (const turn of turns) {
    out.push({ turn, steps: turn.keys.map(() => ++step), prev });
    if (turn.answer !== null) prev = turn.answer;
  }
  return out;
}

export function TurnTable({ detail }: { detail: GenerationDetail }) {
  const turns = detail.analysis.turns ?? [];
  const sc = detail.analysis.selfConditioning;
  const rows = numberTurns(turns, sc ? shownBase(detail) : 0);
  const firstDivTurn = detail.firstDivergence !== null ? (detail.steps.find((s) => s.step === detail.firstDivergence)?.turn ?? null) : null;

  return (
    <Card
      id="trace"
      title={sc ? `Target turn ${sc.targetTurn}` : "Turns"}
      description={
        sc
          ? `Self-conditioning item: the history shown to the model had an induced error rate of ${sc.inducedErrorRate}; the answer must add this turn's values to the last shown sum${shownBase(detail) !== null ? ` (${shownBase(detail)})` : ""}.`
          : "Running sum per turn: the reference beside the model's answer. A propagated turn is right relative to the model's own previous answer."
      }
    >
      <div className="-mx-4 -my-4 overflow-x-auto">
        <table className="tabular min-w-full text-sm" data-testid="turn-table">
          <caption className="sr-only">Turns with keys, values, reference running sum and model answer</caption>
          <thead className="bg-neutral-50 text-left text-xs font-semibold tracking-wide text-neutral-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2 text-right">
                Turn
              </th>
              <th scope="col" className="px-3 py-2">
                Keys
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Reference
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Model
              </th>
              <th scope="col" className="px-3 py-2">
                Status
              </th>
              <th scope="col" className="px-3 py-2">
                Detail
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100">
            {rows.map(({ turn: t, steps, prev: rowPrev }) => {
              const own = rowPrev === null ? null : rowPrev + t.values.reduce((a, b) => a + b, 0);
              const first = firstDivTurn === t.turn || (!detail.run.hasSteps && t.status !== "correct");
              return (
                <tr
                  key={t.turn}
                  id={detail.run.hasSteps ? stepAnchor(steps[0]) : `turn-${t.turn}`}
                  data-status={t.status}
                  data-first-divergence={firstDivTurn === t.turn ? "true" : undefined}
                  className={`${STATUS_STYLE[t.status].row} ${first ? "outline-2 -outline-offset-2 outline-red-600" : ""}`}
                >
                  <td className="px-3 py-1.5 text-right font-mono text-xs whitespace-nowrap text-neutral-500">
                    {detail.run.hasSteps ? steps.slice(1).map((s) => <span key={s} id={stepAnchor(s)} />) : null}
                    {t.turn}
                    {t.keys.length > 1 ? (
                      <div className="text-[11px]">
                        steps {steps[0]}–{steps[steps.length - 1]}
                      </div>
                    ) : null}
                  </td>
                  <td className="px-3 py-1.5">
                    <span className="flex flex-wrap gap-x-2 font-mono text-xs">
                      {t.keys.map((k, i) => (
                        <span key={i}>
                          {k}
                          <span className="text-neutral-500">={t.values[i]}</span>
                        </span>
                      ))}
                    </span>
                  </td>
                  <td className="px-3 py-1.5 text-right font-mono text-xs">{t.expected}</td>
                  <td className="px-3 py-1.5 text-right font-mono text-xs">
                    {t.answerText === null ? <span className="text-neutral-400">no answer</span> : t.answerText}
                  </td>
                  <td className="px-3 py-1.5 whitespace-nowrap">
                    <span className="inline-flex flex-wrap items-center gap-1">
                      <StatusBadge status={t.status} />
                      {firstDivTurn === t.turn ? (
                        <span className="rounded bg-red-600 px-1.5 py-0.5 text-[11px] font-semibold text-white">first divergence</span>
                      ) : null}
                    </span>
                  </td>
                  <td className="px-3 py-1.5 text-xs">
                    {t.status === "slip" && own !== null ? (
                      <span className="text-red-900">
                        new error: from its previous {sc ? "shown sum" : "answer"} {rowPrev} it should get{" "}
                        <span className="font-mono">{own}</span>
                      </span>
                    ) : t.status === "propagated" ? (
                      <span className="text-amber-900">
                        inherited: {rowPrev} + values = <span className="font-mono">{own}</span>, as answered
                      </span>
                    ) : t.status === "missing" ? (
                      <span className="text-neutral-500">{t.answerText === null ? "no <answer> tag" : "not an integer"}</span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
