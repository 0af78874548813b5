"use client";

import { Link, useRowLinkNavigation } from "@/components/ui/link";
import { useMemo } from "react";
import { tableFeatures, useTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeader, TableRow } from "./table";

// The one table of the app. Sorting, filtering and paging happen on the server from the
// URL: this component only renders the rows it is given and turns sortable headers into
// links that change the URL. Per-entity column definitions live beside each view.
// TanStack gives the columns, headers and rows; a cell is rendered from its row's data by
// the column's `cell`, not through TanStack's cell objects: their per-cell memoised getters
// were more than half of a 50-row table's render (docs/performance.md, "Pages and API", stop 54).
// Links in cells are plain anchors, opened client-side by one handler on the table body.

export interface DataTableColumnMeta {
  align?: "left" | "right" | "center";
  /** URL sort key; absent → not sortable */
  sortKey?: string;
  /** tooltip explaining the column */
  title?: string;
  /** extra classes for the cells of this column */
  className?: string;
  /** stays in view when the table scrolls sideways (the row's name on a phone) */
  sticky?: boolean;
}

const STICKY = "sticky left-0 z-[1] bg-white";

const features = tableFeatures({ columnMeta: {} as DataTableColumnMeta });
export type DataTableFeatures = typeof features;
/** A column: its id, header and meta as TanStack defines them, and its cell from the row's data. */
export type DataTableColumn<T extends RowData> = Omit<ColumnDef<DataTableFeatures, T>, "cell"> & {
  id: string;
  cell: (row: T) => React.ReactNode;
};

export interface DataTableProps<T extends RowData> {
  columns: DataTableColumn<T>[];
  data: T[];
  getRowId: (row: T) => string;
  /** current sort, as in the URL */
  sort?: { key: string; dir: "asc" | "desc" };
  /** href that sorts by a column (the server decides what it means) */
  sortHref?: (sortKey: string) => string;
  caption: string;
  emptyMessage?: React.ReactNode;
  rowClassName?: (row: T) => string | undefined;
  rowTestId?: string;
}

export function DataTable<T extends RowData>({
  columns,
  data,
  getRowId,
  sort,
  sortHref,
  caption,
  emptyMessage,
  rowClassName,
  rowTestId,
}: DataTableProps<T>) {
  const headerColumns = useMemo(() => columns.map(({ cell: _cell, ...def }) => def), [columns]);
  const table = useTable({ features, columns: headerColumns, data, getRowId: (row) => getRowId(row) });
  const onRowLinkClick = useRowLinkNavigation();

  return (
    <TableFrame>
      <Table className="min-w-full divide-y divide-neutral-200">
        <TableCaption>{caption}</TableCaption>
        <TableHeader className="bg-neutral-50">
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => {
                const meta = header.column.columnDef.meta;
                const sortKey = meta?.sortKey;
                const active = sortKey !== undefined && sort?.key === sortKey;
                return (
                  <TableHead
                    key={header.id}
                    colSpan={header.colSpan}
                    title={meta?.title}
                    aria-sort={active ? (sort!.dir === "asc" ? "ascending" : "descending") : undefined}
                    align={meta?.align}
                    className={meta?.sticky ? STICKY + " bg-neutral-50" : undefined}
                  >
                    {header.isPlaceholder ? null : sortKey && sortHref ? (
                      <Link
                        href={sortHref(sortKey)}
                        scroll={false}
                        className={`inline-flex items-center gap-1 hover:text-neutral-900 ${active ? "text-neutral-900" : ""}`}
                        data-sort-key={sortKey}
                      >
                        <table.FlexRender header={header} />
                        <SortIcon state={active ? sort!.dir : undefined} />
                      </Link>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </TableHead>
                );
              })}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody onClick={onRowLinkClick}>
          {table.getRowModel().rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length} className="py-10! text-center text-neutral-500">
                {emptyMessage ?? "Nothing to show."}
              </TableCell>
            </TableRow>
          ) : (
            table.getRowModel().rows.map((row) => (
              <TableRow key={row.id} data-testid={rowTestId} className={`hover:bg-neutral-50 ${rowClassName?.(row.original) ?? ""}`}>
                {columns.map((column) => {
                  const meta = column.meta;
                  const className = [meta?.className, meta?.sticky ? STICKY : ""].filter(Boolean).join(" ");
                  return (
                    <TableCell key={column.id} align={meta?.align === "left" ? undefined : meta?.align} className={className || undefined}>
                      {column.cell(row.original)}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableFrame>
  );
}

function SortIcon({ state }: { state?: "asc" | "desc" }) {
  // Text arrows: the direction is readable without colour and announced via aria-sort.
  return (
    <span aria-hidden="true" className={state ? "text-neutral-900" : "text-neutral-300"}>
      {state === "asc" ? "▲" : state === "desc" ? "▼" : "↕"}
    </span>
  );
}
