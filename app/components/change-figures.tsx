import type { Change, ReliableChange } from "~/features/scoring/change.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { Badge, type BadgeTone } from "./badge.tsx";

/**
 * The words of a result's change over time (docs/api-contract.md §18) wherever results are listed:
 * the person's history and the group's results. Always words, never a colour or an arrow alone.
 */

const TONE: Record<ReliableChange, BadgeTone> = { IMPROVED: "success", DETERIORATED: "danger", NO_CHANGE: "neutral" };

/** A change of a score with its sign ("+3", "-2", "0"); "—" where there is none. */
export function useSignedNumber(): (value: number | null) => string {
  const format = useFormat();
  return (value) => format.number(value, { signDisplay: "exceptZero", maximumFractionDigits: 2 });
}

/** The reliable change category in words, on a badge; nothing where the form gives none. */
export function ReliableChangeBadge({ change, className }: { change: Pick<Change, "reliable">; className?: string }) {
  const t = useT();
  if (change.reliable === null) return null;
  return (
    <Badge tone={TONE[change.reliable]} className={className}>
      <span data-reliable={change.reliable}>{t.change.categories[change.reliable]}</span>
    </Badge>
  );
}

/** Yes, No, or "—" for a figure that cannot be given. */
export function YesNo({ value }: { value: boolean | null }) {
  const t = useT();
  return <>{value === null ? t.people.notGiven : value ? t.change.yes : t.change.no}</>;
}
