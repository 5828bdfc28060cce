import { useT } from "~/i18n/hooks.ts";

/**
 * A percentage in a column of percentages (useTotalText's `percent`): a RAW total shows none, a
 * dash that says so to a screen reader (ADR 79).
 */
export function PercentCell({ percent }: { percent: string | null }) {
  const t = useT();
  if (percent !== null) return <>{percent}</>;
  return (
    <>
      <span aria-hidden="true">–</span>
      <span className="sr-only">{t.score.percentNotUsed}</span>
    </>
  );
}
