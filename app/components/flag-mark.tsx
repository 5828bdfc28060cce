import { useT } from "~/i18n/hooks.ts";
import { Badge } from "./badge.tsx";
import { AlertIcon, CheckIcon } from "./icons.tsx";

/**
 * The mark of a flagged result (docs/api-contract.md §16) wherever results are listed: words and
 * an icon, never colour alone, and "acknowledged" once someone has acknowledged it. Nothing for a
 * result without a flag.
 */
export function FlagMark({ result, className }: { result: { flaggedAt: Date | string | null; acknowledgedAt: Date | string | null }; className?: string }) {
  const t = useT().flags;
  if (!result.flaggedAt) return null;
  return result.acknowledgedAt ? (
    <Badge tone="warning" className={className}>
      <CheckIcon className="size-3.5" />
      {t.markAcknowledged}
    </Badge>
  ) : (
    <Badge tone="danger" className={className}>
      <AlertIcon className="size-3.5" />
      {t.mark}
    </Badge>
  );
}
