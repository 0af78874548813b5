import { SegmentedLinks } from "@/components/charts/controls/segmented-links";
import { curvesHref, type CurvesParams } from "@/lib/url/curves";

/** Answer, axis and curve toggles of /curves: links that change one URL field each. */
export function CurvesControls({ p, runs }: { p: CurvesParams; runs: string[] }) {
  const at = (change: Partial<CurvesParams>) => curvesHref({ ...p, runs, ...change });
  return (
    <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
      <SegmentedLinks
        label="Answer"
        testId="toggle-answer"
        current={p.answer}
        options={[
          { id: "first", label: "First", href: at({ answer: "first" }) },
          { id: "last", label: "Last", href: at({ answer: "last" }) },
          { id: "both", label: "Both", href: at({ answer: "both" }) },
        ]}
      />
      <SegmentedLinks
        label="Length axis"
        testId="toggle-x"
        current={p.x}
        options={[
          { id: "linear", label: "Linear", href: at({ x: "linear" }) },
          { id: "log", label: "Log", href: at({ x: "log" }) },
        ]}
      />
      {(
        [
          ["nostep", "s(i)", "toggle-step"],
          ["nopred", "p̂^i", "toggle-pred"],
          ["nohz", "Horizons", "toggle-horizons"],
        ] as const
      ).map(([field, label, testId]) => (
        <SegmentedLinks
          key={field}
          label={label}
          testId={testId}
          current={p[field] ? "off" : "on"}
          options={[
            { id: "on", label: "Shown", href: at({ [field]: false }) },
            { id: "off", label: "Hidden", href: at({ [field]: true }) },
          ]}
        />
      ))}
    </div>
  );
}
