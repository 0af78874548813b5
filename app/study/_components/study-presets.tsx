import { Link } from "@/components/ui/link";
import type { StudySeriesResult } from "@/lib/study/pivot";
import { STUDY_PRESETS, type StudyPreset } from "@/lib/study/presets";
import { studyHref, type StudyParams } from "@/lib/url/study";

/** The presets as links; the active one states its source and the paper's number beside ours. */
export function StudyPresets({ active, demo }: { active: StudyPreset | null; demo: StudyParams["demo"] }) {
  return (
    <nav aria-label="Presets" className="flex flex-wrap gap-2" data-testid="study-presets">
      {STUDY_PRESETS.map((s) => (
        <Link
          key={s.id}
          href={s.href ?? studyHref({ ...s.params, demo })}
          data-preset={s.id}
          aria-current={active?.id === s.id ? "true" : undefined}
          className={`rounded-full border px-3 py-1 text-xs ${
            active?.id === s.id
              ? "border-neutral-800 bg-neutral-800 text-white"
              : "border-neutral-300 bg-white text-neutral-700 hover:bg-neutral-100"
          }`}
        >
          {s.title}
        </Link>
      ))}
    </nav>
  );
}

export function PresetNote({ preset, data }: { preset: StudyPreset; data: StudySeriesResult[] }) {
  const ours = preset.ours?.(data) ?? null;
  return (
    <div className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-neutral-800" data-testid="preset-note">
      <p>
        <span className="font-medium">Mirrors:</span> {preset.source}.
      </p>
      {preset.reported ? (
        <p>
          <span className="font-medium">Paper:</span> {preset.reported}
          {preset.ours ? (
            <>
              {" · "}
              <span className="font-medium">Ours:</span> <span data-testid="preset-ours">{ours ?? "not enough points yet"}</span>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
