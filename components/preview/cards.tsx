import { CurvePanel, previewColor, type PreviewSeries } from "./curve-panel";
import { accuracyAtLengths, drawable, horizonText, runTitle, type PreviewRun, SITE_TEXT } from "@/lib/preview/text";

// The link-preview images (1200×630, rendered by next/og in app/og/**): a run's curve with its
// CI band and key numbers, compare's curves, a generation's trace strip, and the generic card
// that is all a visitor who may not read the run gets. Satori lays out flex boxes only; every
// text is the run's data drawn as glyphs (never parsed as markup), passed through `drawable`.
export const PREVIEW_SIZE = { width: 1200, height: 630 } as const;

function Frame({ children, eyebrow }: { children: React.ReactNode; eyebrow: string }) {
  return (
    <div
      style={{
        display: "flex",
        flexDirection: "column",
        width: "100%",
        height: "100%",
        background: "#ffffff",
        padding: "36px 48px",
        fontSize: 24,
        color: "#171717",
      }}
    >
      <div style={{ display: "flex", alignItems: "center", fontSize: 22, color: "#525252" }}>
        <div
          style={{
            display: "flex",
            width: 26,
            height: 26,
            borderRadius: 6,
            background: "linear-gradient(135deg, #0ea5e9, #4f46e5)",
            marginRight: 12,
          }}
        />
        <div style={{ display: "flex" }}>{drawable(`Stepwise · ${eyebrow}`)}</div>
      </div>
      {children}
    </div>
  );
}

function seriesOf(run: PreviewRun): PreviewSeries {
  return {
    color: previewColor(run.model.id),
    points: run.metrics.accuracy_by_length.map((p) => ({ length: p.length, accuracy: p.first_accuracy, ci: p.first_ci })),
  };
}

function Numbers({ run }: { run: PreviewRun }) {
  return (
    <div style={{ display: "flex", flexDirection: "column", width: 320, marginLeft: 24, fontSize: 24 }}>
      <div style={{ display: "flex", fontSize: 20, color: "#525252" }}>horizon</div>
      <div style={{ display: "flex", fontSize: 30, marginBottom: 18 }}>{drawable(horizonText(run.metrics.horizon), 60)}</div>
      <div style={{ display: "flex", fontSize: 20, color: "#525252" }}>accuracy at length</div>
      {accuracyAtLengths(run.metrics.accuracy_by_length).map((a) => (
        <div key={a.length} style={{ display: "flex", fontSize: 30 }}>{`${a.length}: ${Math.round(a.accuracy * 100)}%`}</div>
      ))}
      <div style={{ display: "flex", fontSize: 20, color: "#525252", marginTop: 18 }}>{`${run.generations} generations`}</div>
    </div>
  );
}

export function RunCard({ run }: { run: PreviewRun }) {
  return (
    <Frame eyebrow={`run · ${run.variant}`}>
      <div style={{ display: "flex", fontSize: 46, fontWeight: 700, marginTop: 14 }}>{drawable(runTitle(run), 48)}</div>
      <div style={{ display: "flex", marginTop: 16 }}>
        <CurvePanel series={[seriesOf(run)]} width={780} height={430} />
        <Numbers run={run} />
      </div>
    </Frame>
  );
}

export function CompareCard({ runs }: { runs: PreviewRun[] }) {
  return (
    <Frame eyebrow={`compare · ${runs[0]?.benchmark ?? ""}`}>
      <div style={{ display: "flex", marginTop: 18 }}>
        <CurvePanel series={runs.map(seriesOf)} width={780} height={500} />
        <div style={{ display: "flex", flexDirection: "column", width: 320, marginLeft: 24 }}>
          {runs.map((r) => (
            <div key={r.key} style={{ display: "flex", flexDirection: "column", marginBottom: 22 }}>
              <div style={{ display: "flex", alignItems: "center", fontSize: 28 }}>
                <div
                  style={{
                    display: "flex",
                    width: 22,
                    height: 22,
                    borderRadius: 11,
                    background: previewColor(r.model.id),
                    marginRight: 10,
                  }}
                />
                {drawable(r.model.name, 22)}
              </div>
              <div style={{ display: "flex", fontSize: 20, color: "#404040" }}>{drawable(horizonText(r.metrics.horizon), 44)}</div>
            </div>
          ))}
        </div>
      </div>
    </Frame>
  );
}

const STATUS_HEX: Record<string, string> = { correct: "#16a34a", slip: "#dc2626", propagated: "#f59e0b", missing: "#a3a3a3" };

export interface StripGeneration {
  itemId: string;
  length: number;
  statuses: string[];
  firstDivergence: number | null;
  divergenceKind: string | null;
  firstCorrect: boolean;
}

export function GenerationCard({ run, g }: { run: PreviewRun; g: StripGeneration }) {
  const width = 1100;
  const n = Math.max(1, g.statuses.length);
  const cell = width / n;
  const at = g.firstDivergence;
  return (
    <Frame eyebrow={`generation · ${run.benchmark}`}>
      <div style={{ display: "flex", fontSize: 44, fontWeight: 700, marginTop: 14 }}>{drawable(g.itemId, 40)}</div>
      <div style={{ display: "flex", fontSize: 28, color: "#404040", marginTop: 6 }}>
        {drawable(`${run.model.name} · length ${g.length}`, 70)}
      </div>
      <div style={{ display: "flex", fontSize: 32, marginTop: 40 }}>
        {at === null
          ? g.statuses.length
            ? "no divergence: every step matches the reference"
            : "no step trace"
          : drawable(`first divergence at step ${at} of ${g.statuses.length}${g.divergenceKind ? ` (${g.divergenceKind})` : ""}`)}
      </div>
      <div style={{ display: "flex", position: "relative", width, height: 150, marginTop: 24 }}>
        <svg width={width} height={150} viewBox={`0 0 ${width} 150`}>
          {g.statuses.map((s, i) => (
            <rect
              key={i}
              x={i * cell}
              y={40}
              width={Math.max(1, cell - (cell > 4 ? 2 : 0))}
              height={80}
              fill={STATUS_HEX[s] ?? "#a3a3a3"}
            />
          ))}
          {at !== null ? (
            <path d={`M${(at - 0.5) * cell - 12},8 L${(at - 0.5) * cell + 12},8 L${(at - 0.5) * cell},32 Z`} fill="#171717" />
          ) : null}
          {at !== null ? (
            <rect x={(at - 1) * cell - 2} y={36} width={cell + 4} height={88} fill="none" stroke="#171717" strokeWidth={4} />
          ) : null}
        </svg>
      </div>
      <div style={{ display: "flex", fontSize: 22, color: "#404040", marginTop: 18 }}>
        {`steps: green correct · red slip · amber propagated · grey missing · answer ${g.firstCorrect ? "right" : "wrong"}`}
      </div>
    </Frame>
  );
}

/** All a visitor who may not read a run gets: no title, no number, nothing of the run. */
export function GenericCard() {
  return (
    <Frame eyebrow="results dashboard">
      <div style={{ display: "flex", fontSize: 64, fontWeight: 700, marginTop: 120 }}>{SITE_TEXT.title}</div>
      <div style={{ display: "flex", fontSize: 30, color: "#404040", marginTop: 20, width: 1000 }}>{SITE_TEXT.description}</div>
    </Frame>
  );
}
