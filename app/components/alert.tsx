import type { ReactNode } from "react";
import { cx } from "./cx.ts";
import { AlertIcon, CheckIcon, InfoIcon } from "./icons.tsx";

/**
 * A message in the flow of the page. Errors are announced at once (role="alert"); the others
 * politely (role="status"). Use `title` for one line, children for more.
 */
export type AlertTone = "info" | "success" | "warning" | "error";

const TONES: Record<AlertTone, { box: string; icon: string }> = {
  info: { box: "border-indigo-200 bg-indigo-50 text-indigo-950", icon: "text-indigo-700" },
  success: { box: "border-emerald-200 bg-emerald-50 text-emerald-950", icon: "text-emerald-700" },
  warning: { box: "border-amber-300 bg-amber-50 text-amber-950", icon: "text-amber-700" },
  error: { box: "border-red-300 bg-red-50 text-red-950", icon: "text-red-700" },
};

export function Alert({ tone = "info", title, children, className }: { tone?: AlertTone; title?: ReactNode; children?: ReactNode; className?: string }) {
  const Icon = tone === "success" ? CheckIcon : tone === "info" ? InfoIcon : AlertIcon;
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cx("flex gap-3 rounded-lg border p-4 text-sm", TONES[tone].box, className)}>
      <Icon className={cx("size-5 shrink-0", TONES[tone].icon)} />
      <div className="min-w-0 space-y-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div>{children}</div> : null}
      </div>
    </div>
  );
}
