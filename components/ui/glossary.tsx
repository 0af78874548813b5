import { Link } from "@/components/ui/link";
import { MODE_LABEL } from "@/components/ui/status-badge";
import { STEP_MODE_RULES } from "@/lib/analysis/mode-rules";
import { FAILURE_MODES } from "@/lib/analysis/types";
import type { GlossaryTerm } from "@/lib/url/glossary";

// The glossary's entries (SPEC §3–§4 in a reader's words). Kept short: each says what the
// number is, how it is computed here, and how to read it.

interface Entry {
  id: GlossaryTerm;
  term: string;
  body: React.ReactNode;
}

const ENTRIES: Entry[] = [
  {
    id: "horizon",
    term: "Horizon H₀.₅ (and H₀.₈)",
    body: (
      <>
        <p>
          The task-accuracy curve a(i) is, among items with at least i steps, the share whose first divergence from the reference comes
          after step i: the share still flawless after i steps. H<sub>s</sub> is the number of leading steps i = 1, 2, … with a(i) ≥ s. H₀.₅
          is the leaderboard&apos;s rank: how many steps a model executes before half of its traces have gone wrong.
        </p>
        <p>
          When a(i) never falls below s the horizon is <em>censored</em> and shown as “≥ L<sub>max</sub>”: the run was not long enough to
          find it. Horizons are counted in each benchmark&apos;s own steps, so the leaderboard ranks one benchmark at a time.
        </p>
      </>
    ),
  },
  {
    id: "length-fit",
    term: "L50 and L80",
    body: (
      <p>
        A logistic regression of first-answer correctness on log₂ of the item length, one row per item (L2 penalty C = 10 on the slope, as
        METR does). L50 = 2<sup>−b/a</sup> is the length at which the fitted accuracy is 50%, L80 where it is 80%. Fitted only with two or
        more lengths and both outcomes. An estimate beyond the longest tested length is an extrapolation and shown as such (“&gt; 95 steps
        (extrapolated)”), not as a finding.
      </p>
    ),
  },
  {
    id: "horizon-vs-l50",
    term: "Why H₀.₅ and L50 differ",
    body: (
      <ul className="list-disc space-y-1 pl-5">
        <li>
          H₀.₅ asks for a <em>flawless trace</em> up to step i; L50 only for a <em>right final answer</em>. A slip that a later step
          repairs, or that does not reach the answer, lowers H but not L50; a perfect trace with a missing or unparseable answer lowers L50
          but not H.
        </li>
        <li>
          H is read off the observed curve step by step, over the steps of every long-enough item; L50 is interpolated by a fitted curve
          between the tested lengths, and extrapolated past them.
        </li>
        <li>
          So H₀.₅ is usually the stricter number. A large gap says answers are often right for the wrong reasons, or wrong for formatting
          reasons.
        </li>
      </ul>
    ),
  },
  {
    id: "step-reliability",
    term: "Step reliability p̂ and its predicted horizon",
    body: (
      <p>
        p̂ = locally correct steps / reference steps over all items, where a step is locally correct when it is right given the model&apos;s
        own earlier values (<em>correct</em> or <em>propagated</em>). If every step failed independently with probability 1 − p̂, a trace
        would stay flawless for i steps with probability p̂<sup>i</sup>, and the horizon would be ln s / ln p̂: the “pred. H₀.₅” under p̂. An
        observed H₀.₅ well below it means errors cluster or compound (a slip makes the next one likelier: self-conditioning); above it, that
        errors concentrate in a few items.
      </p>
    ),
  },
  {
    id: "wilson",
    term: "Wilson 95% interval",
    body: (
      <p>
        The interval shown with an accuracy k/n: the proportions not rejected by a score test at the 5% level, (p + z²/2n ± z·√(p(1−p)/n +
        z²/4n²)) / (1 + z²/n) with z = 1.96. Unlike p ± 1.96·√(p(1−p)/n) it stays inside [0, 1] and does not collapse to a point at 0% or
        100%, which matters for the small n per length of most runs.
      </p>
    ),
  },
  {
    id: "bootstrap",
    term: "Bootstrap intervals",
    body: (
      <p>
        The 95% CIs of horizons and of L50/L80: the run&apos;s items are resampled with replacement 1,000 times (a fixed seed, so the same
        file gives the same interval), the number is recomputed each time, and the 2.5th and 97.5th percentiles are reported. Runs whose
        H₀.₅ interval overlaps the leader&apos;s are marked <em>tied</em>.
      </p>
    ),
  },
  {
    id: "mcnemar",
    term: "McNemar's test (Compare)",
    body: (
      <p>
        For two runs on the same items, only the discordant pairs carry evidence: b items only A solves, c items only B solves. Under “no
        difference” a discordant pair goes either way with probability ½. With fewer than 25 discordant pairs the two-sided exact binomial
        test is used, otherwise the continuity-corrected χ² = (|b − c| − 1)² / (b + c). Shown as “p &lt; 0.0001” below that.
      </p>
    ),
  },
  {
    id: "failure-modes",
    term: "Failure modes",
    body: (
      <>
        <p>A generation can show several at once, so their shares do not add up to the failure rate.</p>
        <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          {FAILURE_MODES.map((mode) => (
            <div key={mode} className="contents">
              <dt className="font-medium">{MODE_LABEL[mode]}</dt>
              <dd>{STEP_MODE_RULES[mode]}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-2">
          dict-sum judges them per turn: a missing answer is a turn without an answer tag, a format error a turn whose answer is not an
          integer, a slip a turn wrong even from the model&apos;s own previous answer; premature answers, self-corrections and extra steps
          do not apply. A self-conditioning run is judged at its target turn only. Each run&apos;s Failures tab states the rules that apply
          to it.
        </p>
      </>
    ),
  },
  {
    id: "step-statuses",
    term: "Step statuses (trace diff)",
    body: (
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        {[
          ["correct", "the claimed value matches the reference"],
          ["slip", "wrong, and also wrong given the model's own earlier values: a new error made at this step"],
          ["propagated", "wrong against the reference but right given the model's own earlier values: an inherited error"],
          ["missing", "the model never states this step"],
          ["extra", "a claimed step outside 1..L"],
          ["revised", "a step stated again with a different value"],
        ].map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium">{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
        <div className="col-span-2 mt-1">
          The <em>first divergence</em> is the first step that is not correct. A generation whose final answer is right after a divergence
          is flagged “recovered”.
        </div>
      </dl>
    ),
  },
  {
    id: "first-answer",
    term: "First and last answer",
    body: (
      <p>
        Procedural arithmetic may answer more than once; the first answer is the one scored on the leaderboard, the last shows what
        self-correction buys. In multi-turn dict-sum every turn answers its running sum; the final answer is the last turn&apos;s (its first
        answer tag, outside any thinking), so first and last answer are the same there.
      </p>
    ),
  },
  {
    id: "self-conditioning",
    term: "Self-conditioning",
    body: (
      <p>
        The model is shown a history of its own earlier turns in which a given share of answers (the induced error rate) was corrupted, and
        answers one target turn. Accuracy at that turn against the induced error rate, per model, with the OLS slope: a steeper fall means
        the model conditions more on its own mistakes. <Link href="/self-conditioning">The sweeps</Link> have their own page.
      </p>
    ),
  },
];

export function Glossary() {
  return (
    <div className="space-y-3">
      <nav aria-label="Terms" className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
        {ENTRIES.map((e) => (
          <a key={e.id} href={`#${e.id}`} className="text-sky-800 underline">
            {e.term}
          </a>
        ))}
      </nav>
      {ENTRIES.map((e) => (
        <section
          key={e.id}
          id={e.id}
          aria-labelledby={`${e.id}-title`}
          className="scroll-mt-24 rounded-lg border border-neutral-200 bg-white p-4 text-sm leading-relaxed text-neutral-800 shadow-sm target:ring-2 target:ring-sky-600"
        >
          <h2 id={`${e.id}-title`} className="mb-1.5 text-base font-semibold text-neutral-900">
            {e.term}
          </h2>
          <div className="space-y-2">{e.body}</div>
        </section>
      ))}
    </div>
  );
}
