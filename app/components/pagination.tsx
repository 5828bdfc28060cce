import { Link, useLocation } from "react-router";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { cx } from "./cx.ts";
import { ChevronLeftIcon, ChevronRightIcon } from "./icons.tsx";

/**
 * Page links for a list answered as `{ total, page, limit }` (every list service returns that).
 * Plain links that keep the other query parameters (search, filters), so it works without
 * JavaScript and every page has its own URL.
 */
export function Pagination({ page, limit, total, className }: { page: number; limit: number; total: number; className?: string }) {
  const t = useT();
  const format = useFormat();
  const { pathname, search } = useLocation();
  const pages = Math.max(1, Math.ceil(total / limit));
  if (total === 0) return null;
  const hrefFor = (target: number) => {
    const params = new URLSearchParams(search);
    if (target === 1) params.delete("page");
    else params.set("page", String(target));
    const query = params.toString();
    return `${pathname}${query ? `?${query}` : ""}`;
  };
  const from = Math.min(total, (page - 1) * limit + 1);
  const to = Math.min(total, page * limit);
  const step = "inline-flex min-h-10 min-w-10 items-center justify-center gap-1 rounded-md px-2.5 text-sm font-medium";
  const link = cx(step, "text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50");
  const off = cx(step, "text-slate-400 ring-1 ring-slate-200 ring-inset");
  return (
    <nav aria-label={t.pagination.label} className={cx("flex flex-col items-center gap-3 sm:flex-row sm:justify-between", className)}>
      <p className="text-sm text-slate-600">{t.pagination.showing(format.number(from), format.number(to), format.number(total))}</p>
      <ul className="flex flex-wrap items-center gap-1.5">
        <li>
          {page > 1 ? (
            <Link to={hrefFor(page - 1)} className={link} rel="prev">
              <ChevronLeftIcon className="size-4" />
              {t.pagination.previous}
            </Link>
          ) : (
            <span className={off} aria-disabled="true">
              <ChevronLeftIcon className="size-4" />
              {t.pagination.previous}
            </span>
          )}
        </li>
        {pageWindow(page, pages).map((item, index) =>
          item === "gap" ? (
            <li key={`gap-${index}`} aria-hidden="true" className="hidden px-1 text-slate-500 sm:block">
              …
            </li>
          ) : (
            <li key={item} className="hidden sm:block">
              <Link
                to={hrefFor(item)}
                aria-current={item === page ? "page" : undefined}
                aria-label={t.pagination.page(format.number(item))}
                className={item === page ? cx(step, "bg-indigo-700 text-white") : link}
              >
                {format.number(item)}
              </Link>
            </li>
          ),
        )}
        <li>
          {page < pages ? (
            <Link to={hrefFor(page + 1)} className={link} rel="next">
              {t.pagination.next}
              <ChevronRightIcon className="size-4" />
            </Link>
          ) : (
            <span className={off} aria-disabled="true">
              {t.pagination.next}
              <ChevronRightIcon className="size-4" />
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}

/** 1 … 4 5 6 … 20: the first, the last, and the current page with its neighbours. */
export function pageWindow(page: number, pages: number): (number | "gap")[] {
  const wanted = new Set([1, pages, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pages));
  const sorted = [...wanted].sort((a, b) => a - b);
  const items: (number | "gap")[] = [];
  for (const n of sorted) {
    const previous = items.at(-1);
    if (typeof previous === "number" && n - previous === 2) items.push(n - 1);
    else if (typeof previous === "number" && n - previous > 2) items.push("gap");
    items.push(n);
  }
  return items;
}
