import { reliableChangeThreshold } from "~/features/scoring/change.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { Badge, ScoreBadge } from "../badge.tsx";
import { Section } from "../page-header.tsx";

/**
 * A scored form's content to read, not to edit: how the total is made, its bands and subscales,
 * what its change over time is judged by, then every item with its options and their scores. The
 * instrument library's detail page shows an instrument with it before it is installed, and the
 * editor shows an installed form with it, whose content cannot be changed (docs/api-contract.md §17).
 */
type Band = { min: number; max: number; label: string; color: string; critical: boolean };

type Constants = { sd: number; reliability: number };

/** What a result's change over time is judged by (docs/api-contract.md §18), with where the values come from. */
export type ChangeContent = { reliableChange: Constants | null; remissionBelow: number | null; lowerIsBetter: boolean; source: string | null };

export type ScaleContent = {
  questions: {
    key: string;
    text: string;
    required: boolean;
    reverseScored: boolean;
    options: { text: string; score: number; critical: boolean }[];
  }[];
  scoreRanges: Band[];
  subscales: {
    key: string;
    name: string;
    items: string[];
    method: "SUM" | "MEAN";
    multiplier: number | null;
    scoreRanges: Band[];
    reliableChange?: Constants | null;
    remissionBelow?: number | null;
  }[];
  scoring: { method: "SUM" | "MEAN"; multiplier: number; maxMissing: number | null };
  change?: ChangeContent;
};

/** `lang`: the language of the items' texts, when it is not the page's. */
export function ScaleContentView({ content, id, lang }: { content: ScaleContent; id: string; lang?: string }) {
  const t = useT().library;
  const hasCritical = content.questions.some((question) => question.options.some((option) => option.critical));
  return (
    <div className="space-y-6">
      <Section id={`${id}-scoring`} title={t.scoring}>
        <div className="space-y-5 px-4 py-4 sm:px-5">
          <div>
            <h3 className="font-semibold text-slate-900">{t.total}</h3>
            <HowScored method={content.scoring.method} multiplier={content.scoring.multiplier} />
            <p className="text-sm text-slate-700">
              {content.scoring.maxMissing === null
                ? t.missingZero
                : content.scoring.maxMissing === 0
                  ? t.missingNone
                  : t.missing(String(content.scoring.maxMissing))}
            </p>
            {content.scoreRanges.length > 0 ? <Bands bands={content.scoreRanges} /> : <p className="mt-2 text-sm text-slate-700">{t.noBands}</p>}
          </div>
          {content.subscales.length > 0 ? (
            <div>
              <h3 className="font-semibold text-slate-900">{t.subscales}</h3>
              <ul className="mt-2 space-y-4">
                {content.subscales.map((subscale) => (
                  <li key={subscale.key}>
                    <p className="font-medium text-slate-900">{subscale.name}</p>
                    <HowScored method={subscale.method} multiplier={subscale.multiplier ?? 1} />
                    <p className="text-sm text-slate-700">{t.subscaleItems(subscale.items.join(", "))}</p>
                    {subscale.scoreRanges.length > 0 ? <Bands bands={subscale.scoreRanges} /> : null}
                    {subscale.reliableChange ? <ReliableChangeLine constants={subscale.reliableChange} /> : null}
                    {subscale.remissionBelow != null ? <RemissionLine below={subscale.remissionBelow} /> : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {content.change ? <ChangeOverTime change={content.change} /> : null}
          {hasCritical ? <p className="text-sm text-slate-700">{t.criticalHelp}</p> : null}
        </div>
      </Section>

      <Section id={`${id}-items`} title={t.items}>
        <ol className="divide-y divide-slate-200">
          {content.questions.map((question, index) => (
            <li key={question.key} className="px-4 py-4 sm:px-5">
              <p className="font-medium whitespace-pre-line text-slate-900">
                <span className="text-slate-600">{index + 1}. </span>
                <span lang={lang}>{question.text}</span>
              </p>
              <p className="mt-1 flex flex-wrap gap-2 text-xs text-slate-600">
                <span className="font-mono">{question.key}</span>
                {question.reverseScored ? <Badge tone="info">{t.reverseScored}</Badge> : null}
                {question.required ? null : <Badge>{t.optionalItem}</Badge>}
              </p>
              <ul className="mt-2 space-y-1 text-sm">
                {question.options.map((option) => (
                  <li key={`${option.text}|${option.score}`} className="flex flex-wrap items-baseline gap-x-2">
                    <span className="text-slate-900" lang={lang}>
                      {option.text}
                    </span>
                    <Points score={option.score} />
                    {option.critical ? <Badge tone="danger">{t.critical}</Badge> : null}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </Section>
    </div>
  );
}

/** The constants as read-only lines: the direction, the reliable change index, remission, and their sources. */
function ChangeOverTime({ change }: { change: ChangeContent }) {
  const t = useT().library;
  return (
    <div data-testid="change-constants">
      <h3 className="font-semibold text-slate-900">{t.change}</h3>
      <p className="text-sm text-slate-700">{change.lowerIsBetter ? t.lowerIsBetter : t.higherIsBetter}</p>
      {change.reliableChange ? <ReliableChangeLine constants={change.reliableChange} /> : <p className="text-sm text-slate-700">{t.noReliableChange}</p>}
      {change.remissionBelow === null ? <p className="text-sm text-slate-700">{t.noRemission}</p> : <RemissionLine below={change.remissionBelow} />}
      {change.source ? <p className="mt-1 text-sm text-slate-600">{t.changeSource(change.source)}</p> : null}
    </div>
  );
}

function ReliableChangeLine({ constants }: { constants: Constants }) {
  const t = useT().library;
  const format = useFormat();
  const points = format.number(reliableChangeThreshold(constants), { maximumFractionDigits: 1 });
  return <p className="text-sm text-slate-700">{t.reliableChange(format.number(constants.sd), format.number(constants.reliability), points)}</p>;
}

function RemissionLine({ below }: { below: number }) {
  const t = useT().library;
  const format = useFormat();
  return <p className="text-sm text-slate-700">{t.remissionBelow(format.number(below))}</p>;
}

function Points({ score }: { score: number }) {
  const t = useT().library;
  const format = useFormat();
  return <span className="text-slate-600 tabular-nums">({t.points(format.number(score), score)})</span>;
}

function HowScored({ method, multiplier }: { method: "SUM" | "MEAN"; multiplier: number }) {
  const t = useT().library;
  const format = useFormat();
  return (
    <p className="text-sm text-slate-700">
      {t.method[method]}
      {multiplier === 1 ? null : `, ${t.multiplied(format.number(multiplier))}`}.
    </p>
  );
}

function Bands({ bands }: { bands: Band[] }) {
  const t = useT().library;
  const format = useFormat();
  return (
    <ul className="mt-2 flex flex-wrap gap-2" aria-label={t.bands}>
      {bands.map((band) => (
        <li key={`${band.min}-${band.max}`} className="flex items-center gap-1.5 text-sm text-slate-700">
          <ScoreBadge label={band.label} color={band.color} />
          <span className="tabular-nums">{t.range(format.number(band.min), format.number(band.max))}</span>
          {band.critical ? <Badge tone="danger">{t.critical}</Badge> : null}
        </li>
      ))}
    </ul>
  );
}
