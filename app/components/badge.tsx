import type { ReactNode } from "react";
import { useT } from "~/i18n/hooks.ts";
import { parseHexColor, readableTextOn } from "~/lib/color.ts";
import { cx } from "./cx.ts";

export type BadgeTone = "neutral" | "info" | "success" | "warning" | "danger";

const TONES: Record<BadgeTone, string> = {
  neutral: "bg-slate-100 text-slate-800 ring-slate-300",
  info: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  success: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  warning: "bg-amber-50 text-amber-900 ring-amber-300",
  danger: "bg-red-50 text-red-800 ring-red-200",
};

const badgeShape = "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap";

/** A short status word (Published, Pending, Expired…). */
export function Badge({ tone = "neutral", children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return <span className={cx(badgeShape, "ring-1 ring-inset", TONES[tone], className)}>{children}</span>;
}

/**
 * A result's band label on the band's own colour, with white or black text, whichever reads better
 * on it (app/lib/color.ts). The colour is painted by an SVG `fill` attribute rather than a `style` attribute:
 * our Content-Security-Policy (`style-src 'self'`) blocks inline styles, and the colour must show
 * without JavaScript too.
 */
export function ScoreBadge({ label, color, className }: { label: string | null; color: string | null; className?: string }) {
  const t = useT();
  const rgb = parseHexColor(color);
  if (!label || !rgb || !color) return <Badge className={className}>{label ?? t.score.noBand}</Badge>;
  const text = readableTextOn(color) === "light" ? "text-white" : "text-black";
  return (
    <span className={cx(badgeShape, "relative isolate overflow-hidden ring-1 ring-black/10 ring-inset", text, className)}>
      <svg aria-hidden="true" focusable="false" className="absolute inset-0 -z-10 size-full" preserveAspectRatio="none">
        <rect width="100%" height="100%" fill={color} />
      </svg>
      {label}
    </span>
  );
}
