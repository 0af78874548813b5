// A load's progress, apart from the loader: the import thread counts it without the loader's
// modules (the native reader's schemas load zod; lib/store/analysis-thread.ts).

export interface LoadProgress {
  bytes: number;
  totalBytes: number | null;
  lines: number;
  generations: number;
  steps: number;
}

export function newProgress(totalBytes: number | null = null): LoadProgress {
  return { bytes: 0, totalBytes, lines: 0, generations: 0, steps: 0 };
}
