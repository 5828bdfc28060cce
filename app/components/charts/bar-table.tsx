import type { ReactNode } from "react";
import { useFormat } from "~/i18n/hooks.ts";
import { cx } from "../cx.ts";

/**
 * Charts drawn on the server as SVG, so they show without JavaScript and print. A bar table is
 * the data table itself with a bar in each row: the numbers are text a screen reader reads in
 * table order, the bars (hidden from it) are for the eye. A stacked bar is one image with its
 * parts said in its accessible name, always shown next to the same numbers as text.
 */

export type Bar = { key: string; cells: ReactNode[]; value: number; color?: string | null };

const FALLBACK = "#4f46e5";
const valid = (color: string | null | undefined) => (color && /^#[0-9a-f]{6}$/i.test(color) ? color : FALLBACK);

/** One bar, its length the share of `total`, in a 100 × 8 box that stretches to its cell. */
function BarShape({ value, total, color }: { value: number; total: number; color?: string | null | undefined }) {
  const width = total > 0 ? (100 * value) / total : 0;
  return (
    <svg viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true" className="block h-3 w-full min-w-16 overflow-visible">
      <rect x="0" y="0" width="100" height="8" rx="2" fill="#e2e8f0" />
      {width > 0 ? <rect x="0" y="0" width={width} height="8" rx="2" fill={valid(color)} /> : null}
    </svg>
  );
}

export function BarTable({
  caption,
  headers,
  rows,
  total,
  className,
}: {
  caption: ReactNode;
  /** Column headers for the row's cells, then the count, then its share (drawn as the bar). */
  headers: string[];
  rows: Bar[];
  /** What 100 % is: the sum of the values, or the number answering. */
  total: number;
  className?: string;
}) {
  const format = useFormat();
  return (
    <table className={cx("w-full text-left text-sm break-inside-avoid", className)}>
      <caption className="mb-2 text-left font-medium text-slate-900">{caption}</caption>
      <thead className="border-b border-slate-200 text-slate-700">
        <tr>
          {headers.map((header, i) => (
            <th key={header} scope="col" className={cx("py-2 pr-3 font-semibold", i === headers.length - 2 && "text-right")}>
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => (
          <tr key={row.key} className="break-inside-avoid">
            {row.cells.map((cell, i) => (
              // The cells of a row never move: their column is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
              <td key={headers[i] ?? i} className="py-2 pr-3 wrap-anywhere text-slate-800">
                {cell}
              </td>
            ))}
            <td className="py-2 pr-3 text-right text-slate-800 tabular-nums">{format.number(row.value)}</td>
            <td className="w-2/5 py-2">
              <div className="flex items-center gap-2">
                <span className="w-14 shrink-0 text-right text-slate-600 tabular-nums">{format.percent(total > 0 ? (100 * row.value) / total : 0)}</span>
                <BarShape value={row.value} total={total} color={row.color} />
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Parts of one whole side by side (the links by state, the results by band), named for a screen reader. */
export function StackedBar({ label, parts }: { label: string; parts: { key: string; value: number; color: string }[] }) {
  const total = parts.reduce((sum, part) => sum + part.value, 0);
  let x = 0;
  return (
    <svg viewBox="0 0 100 6" preserveAspectRatio="none" role="img" aria-label={label} className="block h-4 w-full">
      <title>{label}</title>
      {total === 0 ? <rect x="0" y="0" width="100" height="6" rx="1" fill="#e2e8f0" /> : null}
      {parts.map((part) => {
        const width = total > 0 ? (100 * part.value) / total : 0;
        const rect = width > 0 ? <rect key={part.key} x={x} y="0" width={width} height="6" fill={valid(part.color)} /> : null;
        x += width;
        return rect;
      })}
    </svg>
  );
}
