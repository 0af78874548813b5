import { SegmentedLinks } from "@/components/charts/controls/segmented-links";
import { curvesHref, type CurvesParams } from "@/lib/url/curves";

/** Answer and axis toggles of /curves: links that change one URL field each. */
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
      <SegmentedLinks
        label="p̂^i prediction"
        testId="toggle-pred"
        current={p.nopred ? "off" : "on"}
        options={[
          { id: "on", label: "Shown", href: at({ nopred: false }) },
          { id: "off", label: "Hidden", href: at({ nopred: true }) },
        ]}
      />
    </div>
  );
}
