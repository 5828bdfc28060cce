import { useT } from "~/i18n/hooks.ts";
import { Badge, type BadgeTone } from "../badge.tsx";

const TONES: Record<string, BadgeTone> = {
  ACTIVE: "success",
  INACTIVE: "neutral",
  SUSPENDED: "danger",
  GRADUATED: "info",
  NEW: "info",
  IN_EVALUATION: "warning",
  APPROVED: "success",
  REJECTED: "danger",
  PROMOTED: "neutral",
};

export type PersonKind = "students" | "candidates";

/** The word for a student's or candidate's status, in the page's language. */
export function useStatusLabel(kind: PersonKind) {
  const t = useT();
  const labels: Record<string, string> = t[kind].statuses;
  return (status: string) => labels[status] ?? status;
}

export function StatusBadge({ kind, status }: { kind: PersonKind; status: string }) {
  const label = useStatusLabel(kind);
  return <Badge tone={TONES[status] ?? "neutral"}>{label(status)}</Badge>;
}

/** The candidate statuses a form may set (PROMOTED comes only from promoting). */
export const EDITABLE_STATUSES = ["NEW", "IN_EVALUATION", "APPROVED", "REJECTED"] as const;
