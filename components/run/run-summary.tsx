import { Stat } from "@/components/ui/card";
import { DASH, fmtCI, fmtHorizon, fmtInt, fmtLengthCI, fmtLengthFit, fmtNum, fmtP, fmtPct } from "@/components/ui/format";
import type { RunSummary } from "@/lib/queries/runs";
import { itemNoun, lengthUnitOf } from "@/lib/analysis/length-unit";
import { headlinePassAtK } from "@/lib/analysis/pass-at-k";
import { correctnessUnavailable } from "@/lib/import/provenance";

/** The run's headline numbers with their intervals; "—" where a metric does not apply. */
export function RunSummaryStats({ run }: { run: RunSummary }) {
  const m = run.metrics;
  const x = run.extras;
  const n = m.accuracy_by_length.reduce((t, r) => t + r.n, 0);
  const first = n ? m.accuracy_by_length.reduce((t, r) => t + r.first_correct, 0) / n : null;
  const last = n ? m.accuracy_by_length.reduce((t, r) => t + r.last_correct, 0) / n : null;
  const unit = lengthUnitOf(run.source);
  const l50 = fmtLengthFit(m.length_fit?.l50, x.max_length, unit);
  const l80 = fmtLengthFit(m.length_fit?.l80, x.max_length, unit);
  const pass = headlinePassAtK(x.pass_at_k);
  const unavailable = correctnessUnavailable(run.config);
  const p = m.reliability?.p ?? null;

  return (
    <dl className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="run-summary">
      <Stat
        label="Items"
        value={fmtInt(m.items)}
        detail={`${fmtInt(m.generations)} generations · lengths up to ${unit === "minutes" ? `${fmtInt(x.max_length)} min` : fmtInt(x.max_length)}`}
      />
      <Stat
        label="Accuracy (first / last)"
        value={unavailable ? DASH : `${fmtPct(first, 1)} / ${fmtPct(last, 1)}`}
        detail={unavailable ? "per-item correctness unavailable (corpus-level metric)" : "first answer · last answer"}
        title="Share of generations whose first (last) final answer is correct"
      />
      <Stat
        label="H₀.₅"
        testId="stat-h50"
        value={m.horizon ? fmtHorizon(m.horizon.steps, m.horizon.censored) : DASH}
        detail={
          m.horizon
            ? `95% CI ${fmtCI(m.horizon.ci[0], m.horizon.ci[1])}${m.horizon.censored ? " · never below 50%" : ""}`
            : "no step-level data"
        }
        title="Leading steps with task accuracy ≥ 0.5"
      />
      <Stat
        label="H₀.₈"
        value={m.horizon_80 ? fmtHorizon(m.horizon_80.steps, m.horizon_80.censored) : DASH}
        detail={m.horizon_80 ? `95% CI ${fmtCI(m.horizon_80.ci[0], m.horizon_80.ci[1])}` : "no step-level data"}
      />
      <Stat
        label="Step reliability p̂"
        value={fmtP(p)}
        detail={
          p === null ? "no step-level data" : `predicted H₀.₅ = ${p >= 1 ? "∞" : fmtNum(m.reliability?.predicted_horizon ?? null, 1)}`
        }
        title="Locally correct steps / reference steps; predicted horizon ln 0.5 / ln p̂"
      />
      <Stat
        label="L50"
        testId="stat-l50"
        value={<span className={l50.extrapolated ? "text-base text-neutral-500 italic" : ""}>{l50.text}</span>}
        detail={
          m.length_fit && !l50.extrapolated
            ? `95% CI ${fmtLengthCI(m.length_fit.l50_ci[0], m.length_fit.l50_ci[1], x.max_length, unit)}`
            : m.length_fit
              ? "beyond the longest tested length"
              : "needs ≥ 2 lengths and both outcomes"
        }
        title="Length at which first-answer accuracy is predicted to be 50% (logistic fit on log₂ length)"
      />
      <Stat
        label="L80"
        testId="stat-l80"
        value={<span className={l80.extrapolated ? "text-base text-neutral-500 italic" : ""}>{l80.text}</span>}
        detail={
          m.length_fit && !l80.extrapolated
            ? `95% CI ${fmtLengthCI(m.length_fit.l80_ci[0], m.length_fit.l80_ci[1], x.max_length, unit)}`
            : m.length_fit
              ? "beyond the longest tested length"
              : "needs ≥ 2 lengths and both outcomes"
        }
      />
      {/* without reference steps neither "clean" nor "exact-step" can be judged: "exact-step 0" read as a finding */}
      <Stat
        label="Clean executions"
        testId="stat-clean"
        value={p === null ? DASH : fmtInt(x.clean_executions)}
        detail={
          p === null
            ? "no step-level data"
            : `${fmtPct(m.generations ? x.clean_executions / m.generations : null, 1)} · exact-step ${fmtInt(x.exact_step_executions)}`
        }
        title="No failure mode and a correct final answer; exact-step = exactly the L reference steps, each once"
      />
      {pass ? (
        <Stat
          label={`pass@${pass.k}`}
          testId="stat-pass-at-k"
          value={fmtPct(pass.pass_at_k, 1)}
          detail={`over ${fmtInt(pass.items)} ${itemNoun(unit, pass.items)} with ≥ ${pass.k} runs · pass^${pass.k} ${fmtPct(pass.pass_hat_k, 1)}`}
          title="pass@k over the items that have at least k generations: the largest k every repeated item reaches"
        />
      ) : null}
      {x.usage ? (
        <Stat
          label="Tokens out"
          value={fmtInt(x.usage.completion_tokens)}
          detail={`${x.usage.latency_ms_mean !== null ? fmtNum(x.usage.latency_ms_mean / 1000, 2) + " s mean latency" : ""}${x.usage.cost_usd ? ` · $${fmtNum(x.usage.cost_usd, 2)}` : ""}`}
        />
      ) : null}
    </dl>
  );
}
