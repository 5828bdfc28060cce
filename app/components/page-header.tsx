import type { ReactNode } from "react";
import { Link } from "react-router";
import { cx } from "./cx.ts";
import { ChevronRightIcon } from "./icons.tsx";

/**
 * The top of every signed-in page: its one h1, a line saying what the page is for, and the page's
 * main actions (buttons or LinkButtons), which wrap under the title on phones.
 */
export function PageHeader({ title, description, actions, className }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <div className={cx("flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between", className)}>
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight wrap-anywhere text-slate-900 sm:text-3xl">{title}</h1>
        {description ? <p className="mt-1.5 text-slate-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2 sm:shrink-0">{actions}</div> : null}
    </div>
  );
}

/** A titled block of a page (h2, optional description and actions, then its content). */
export function Section({
  title,
  description,
  actions,
  children,
  className,
  id,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section aria-labelledby={headingId} id={id} className={cx("min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm", className)}>
      <div className="border-b border-slate-200 px-4 py-4 sm:px-5">
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
          <h2 id={headingId} className="min-w-0 text-base font-semibold text-slate-900">
            {title}
          </h2>
          {actions ? <div className="flex shrink-0 gap-2">{actions}</div> : null}
        </div>
        {description ? <p className="mt-0.5 text-sm text-slate-600">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** "All reports ›": a section's link to the full list, for Section's `actions`. */
export function SectionLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="inline-flex min-h-6 items-center gap-0.5 rounded text-sm font-medium text-indigo-700 hover:text-indigo-900 hover:underline">
      {children}
      <ChevronRightIcon className="size-4" />
    </Link>
  );
}
