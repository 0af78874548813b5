// Table primitives, in the spirit of shadcn/ui's table: one styled element each, classes
// appended, everything else passed through. Every table of the app is built from these, so a
// table looks and reads (scope, caption, numbers) the same wherever it is; DataTable adds
// column definitions and URL sorting on top. Cell padding is set once on the table by
// `density`, not per cell: a page of 50 rows × 7 cells would repeat it 350 times.
// Plain functions without hooks: server components and client leaves both use them.

const cx = (...c: (string | false | null | undefined)[]) => c.filter(Boolean).join(" ");

/** The scroll box and card around a table: a wide table scrolls inside it, never the page. */
export function TableFrame({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cx("overflow-x-auto rounded-lg border border-neutral-200 bg-white shadow-sm", className)} {...props} />;
}

const DENSITY = {
  /** data tables */
  normal: "[&_th]:px-3 [&_th]:py-2 [&_td]:px-3 [&_td]:py-2 [&_td]:align-middle",
  /** long step lists: a tighter row, tighter still on a phone */
  compact: "[&_th]:px-1.5 [&_th]:py-2 [&_td]:px-1.5 [&_td]:py-1.5 sm:[&_th]:px-3 sm:[&_td]:px-3",
  /** tables inside a card's text: no side padding at the edges */
  inline: "[&_th]:py-1 [&_th]:pr-3 [&_td]:py-1.5 [&_td]:pr-3 [&_th:last-child]:pr-0 [&_td:last-child]:pr-0",
} as const;

export function Table({ className, density = "normal", ...props }: React.ComponentProps<"table"> & { density?: keyof typeof DENSITY }) {
  return <table className={cx("tabular text-sm", DENSITY[density], className)} {...props} />;
}

/** Says what the table holds; visually hidden unless `visible`. */
export function TableCaption({ className, visible = false, ...props }: React.ComponentProps<"caption"> & { visible?: boolean }) {
  return <caption className={cx(visible ? "mb-2 text-left text-sm text-neutral-600" : "sr-only", className)} {...props} />;
}

export function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return <thead className={cx("text-left text-xs font-semibold tracking-wide text-neutral-600 uppercase", className)} {...props} />;
}

export function TableBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody className={cx("divide-y divide-neutral-100", className)} {...props} />;
}

export function TableRow(props: React.ComponentProps<"tr">) {
  return <tr {...props} />;
}

const ALIGN = { left: "text-left", right: "text-right", center: "text-center" } as const;

/** A column header (scope="col" unless told otherwise). */
export function TableHead({
  className,
  align = "left",
  scope = "col",
  ...props
}: React.ComponentProps<"th"> & { align?: keyof typeof ALIGN }) {
  return <th scope={scope} className={cx("whitespace-nowrap", ALIGN[align], className)} {...props} />;
}

export function TableCell({ className, align, ...props }: React.ComponentProps<"td"> & { align?: keyof typeof ALIGN }) {
  return <td className={cx(align && ALIGN[align], className) || undefined} {...props} />;
}
