import type { ReactNode } from "react";
import { cx } from "./cx.ts";
import { InboxIcon } from "./icons.tsx";

/** What a list shows when it has nothing in it: what that means, and what to do about it. */
export function EmptyState({
  title,
  description,
  action,
  icon,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cx("flex flex-col items-center px-6 py-10 text-center", className)}>
      <div className="flex size-11 items-center justify-center rounded-full bg-slate-100 text-slate-600">{icon ?? <InboxIcon className="size-6" />}</div>
      <p className="mt-3 font-medium text-slate-900">{title}</p>
      {description ? <p className="mt-1 max-w-md text-sm text-slate-600">{description}</p> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
