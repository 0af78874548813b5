import { parseArgs } from "node:util";
import { getStudy, studyJson } from "../../queries/study";
import { localAdminContext } from "../../read-context";
import { isStudyMetric, STUDY_FACTORS, STUDY_SERIES } from "../../study/definitions";
import { parseStudyParams, STUDY_PARAM_NAMES } from "../../url/study";
import { withStore } from "../store";
import { UsageError } from "../usage-error";

// `stepwise study`: the study view's table (docs/study.md); its flags are the page's URL
// parameters, and --json prints what GET /api/v1/study answers.

const HELP = `usage: stepwise study --benchmark B [--x FACTOR] [--series BY] [--metric M] [filters] [--json]
  --x        ${STUDY_FACTORS.join(" | ")} [length]
  --series   ${STUDY_SERIES.join(" | ")} [model]
  --metric   first_accuracy | last_accuracy | exact_step_rate | under_execution_rate | step_accuracy
             | task_accuracy (x=turn) | h50 | mode:<failure mode> [first_accuracy]
  filters    --models A,B --families F --minSize N --maxSize N --thinking yes|no --lookback N
             --inputRange "[1, 10]" --ops O --dictSize N --k N --turnMode multi-turn|single-turn`;

export async function studyCommand(argv: string[]): Promise<number> {
  const names = STUDY_PARAM_NAMES.filter((n) => n !== "cs" && n !== "cx");
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(names.map((n) => [n, { type: "string" as const }])),
      json: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const given = values as Record<string, string | boolean | undefined>;
  const raw: Record<string, string> = {};
  for (const n of names) if (typeof given[n] === "string") raw[n] = given[n] as string;
  // The URL falls back to defaults on bad values; a command line says what is wrong instead.
  if (raw.x && !(STUDY_FACTORS as readonly string[]).includes(raw.x))
    throw new UsageError(`--x must be one of ${STUDY_FACTORS.join(", ")}`);
  if (raw.series && !(STUDY_SERIES as readonly string[]).includes(raw.series))
    throw new UsageError(`--series must be one of ${STUDY_SERIES.join(", ")}`);
  if (raw.metric && !isStudyMetric(raw.metric)) throw new UsageError(`unknown --metric ${raw.metric}\n${HELP}`);
  const p = parseStudyParams(raw);
  const result = await withStore((store) => getStudy(localAdminContext(store), p));
  if (result.problem) {
    console.error(result.problem);
    return 1;
  }
  if (values.json) {
    console.log(JSON.stringify(studyJson(result), null, 2));
    return 0;
  }
  if (!result.benchmark) {
    console.log("no runs loaded");
    return 0;
  }
  console.log(`${result.benchmark}: ${result.metric} by ${result.x}, series by ${result.series} (${result.runs.length} runs)`);
  for (const s of result.data) {
    console.log(`  ${s.name}`);
    for (const pt of s.points) {
      const v = pt.value === null ? "—" : pt.value.toFixed(4);
      const ci = pt.ci ? `[${pt.ci[0].toFixed(4)}, ${pt.ci[1].toFixed(4)}]` : "";
      console.log(`    ${String(pt.x).padEnd(12)} ${v} ${ci}  n=${pt.n}  models=${pt.models}`);
    }
  }
  return 0;
}
