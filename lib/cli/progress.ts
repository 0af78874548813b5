// A terminal progress bar on stderr: counts, rate, ETA. Silent when stderr is not a TTY,
// so scripts and CI logs stay clean.
export interface ProgressBar {
  update(done: number, total: number | null, extra?: string): void;
  done(): void;
}

const fmt = (n: number) => (n >= 1e6 ? (n / 1e6).toFixed(1) + "M" : n >= 1e4 ? (n / 1e3).toFixed(0) + "k" : String(Math.round(n)));
const dur = (s: number) => (s < 60 ? `${Math.ceil(s)}s` : `${Math.floor(s / 60)}m${String(Math.ceil(s % 60)).padStart(2, "0")}s`);

export function progressBar(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
  if (!stream.isTTY) return { update() {}, done() {} };
  const start = Date.now();
  let last = 0;
  let line = "";
  return {
    update(done, total, extra = "") {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      const secs = (now - start) / 1000;
      const rate = secs > 0 ? done / secs : 0;
      const width = 24;
      const frac = total ? Math.min(1, done / total) : null;
      const bar = frac === null ? "" : "[" + "#".repeat(Math.round(frac * width)).padEnd(width, "-") + "] ";
      const eta = frac && frac > 0 && rate > 0 && total ? ` ETA ${dur((total - done) / rate)}` : "";
      line = `${label} ${bar}${fmt(done)}${total ? "/" + fmt(total) : ""} ${unit} · ${fmt(rate)} ${unit}/s${eta}${extra ? " · " + extra : ""}`;
      stream.write("\r\x1b[2K" + line);
    },
    done() {
      if (line) stream.write("\r\x1b[2K");
    },
  };
}
