// Which pass@k row a summary shows. Each row is over the items with at least k generations, so
// a large k may rest on one item (pass@65 over one task beside a 35.8% accuracy misleads): show
// the largest k that every item with repeats reaches, with its item count. Rows stored before
// the count was kept are not shown.
import type { RunExtras } from "./types";

export type PassAtKRow = NonNullable<RunExtras["pass_at_k"]>[number] & { items: number };

export function headlinePassAtK(rows: RunExtras["pass_at_k"]): PassAtKRow | null {
  const counted = (rows ?? []).filter((r): r is PassAtKRow => r.k >= 2 && typeof r.items === "number" && r.items > 0);
  if (counted.length === 0) return null;
  const repeated = Math.max(...counted.map((r) => r.items)); // items with ≥ 2 generations
  return counted.filter((r) => r.items === repeated).pop() ?? null;
}
