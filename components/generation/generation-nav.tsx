import { Link } from "@/components/ui/link";
import type { GenerationDetail } from "@/lib/queries/generation";
import { generationHref } from "@/lib/url/generation";
import { runHref } from "@/lib/url/run";
import { KeyboardNav } from "./keyboard-nav";

const LINK =
  "inline-flex items-center gap-1 rounded-md border border-neutral-300 bg-white px-2.5 py-1.5 text-sm font-medium text-neutral-700 shadow-sm hover:bg-neutral-50";
const OFF = "inline-flex items-center gap-1 rounded-md border border-neutral-200 px-2.5 py-1.5 text-sm text-neutral-300";

/** Previous/next failed generation (run item order), epochs, and the j/k shortcuts. */
export function GenerationNav({ detail }: { detail: GenerationDetail }) {
  const key = detail.run.key;
  const prev = detail.prevFailed ? generationHref(key, detail.prevFailed.itemId, { epoch: detail.prevFailed.epoch }) : null;
  const next = detail.nextFailed ? generationHref(key, detail.nextFailed.itemId, { epoch: detail.nextFailed.epoch }) : null;
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <div className="flex flex-wrap items-center gap-2">
        {prev ? (
          <Link href={prev} className={LINK} rel="prev" data-testid="prev-failed">
            ← Previous failed <kbd className="rounded border border-neutral-300 px-1 text-[11px] text-neutral-500">k</kbd>
          </Link>
        ) : (
          <span className={OFF} aria-disabled="true">
            ← Previous failed
          </span>
        )}
        {next ? (
          <Link href={next} className={LINK} rel="next" data-testid="next-failed">
            Next failed <kbd className="rounded border border-neutral-300 px-1 text-[11px] text-neutral-500">j</kbd> →
          </Link>
        ) : (
          <span className={OFF} aria-disabled="true">
            Next failed →
          </span>
        )}
        <span className="tabular text-sm text-neutral-500">
          generation {detail.position.index} of {detail.position.total}
        </span>
        <KeyboardNav prevHref={prev} nextHref={next} />
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {detail.epochs.length > 1 ? (
          <nav aria-label="Epochs" className="flex items-center gap-1">
            <span className="text-neutral-500">Epoch</span>
            {detail.epochs.map((e) => (
              <Link
                key={e}
                href={generationHref(key, detail.item.id, { epoch: e })}
                aria-current={e === detail.epoch ? "page" : undefined}
                className={`tabular rounded px-2 py-0.5 ${e === detail.epoch ? "bg-neutral-900 text-white" : "text-neutral-700 ring-1 ring-neutral-300 hover:bg-neutral-100"}`}
              >
                {e}
              </Link>
            ))}
          </nav>
        ) : null}
        <Link href={runHref(key, { tab: "items" })} className="text-sky-800 hover:underline">
          All items of this run
        </Link>
      </div>
    </div>
  );
}
