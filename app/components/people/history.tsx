import { type ReactNode, useId } from "react";
import { Link, useSearchParams } from "react-router";
import type { Change, ChangeConstants } from "~/features/scoring/change.ts";
import type { ScoreDisplay } from "~/features/scoring/score-display.ts";
import { useFormat, useLocale, useT, useTotalText } from "~/i18n/hooks.ts";
import { parseHexColor } from "~/lib/color.ts";
import { paths } from "~/lib/paths.ts";
import { ScoreBadge } from "../badge.tsx";
import { FlagMark } from "../flag-mark.tsx";
import { PercentCell } from "../percent-cell.tsx";
import { cx } from "../cx.ts";
import { EmptyState } from "../empty-state.tsx";
import { Section } from "../page-header.tsx";
import { ReliableChangeBadge, useSignedNumber, YesNo } from "../change-figures.tsx";

export type HistoryBand = { min: number; max: number; label: string; color: string };

export type HistoryEntry = {
  id: string;
  form: { id: string; title: string };
  isCompleted: boolean;
  completedAt: Date | string | null;
  totalScore: number | null;
  maxScore: number | null;
  percentage: number | null;
  scoreLabel: string | null;
  scoreColor: string | null;
  createdAt: Date | string;
};

/** A completed result with the bands it was scored against (its snapshot, not today's form), and its flag (§16). */
export type HistoryResult = HistoryEntry & {
  bands: HistoryBand[];
  flaggedAt: Date | string | null;
  acknowledgedAt: Date | string | null;
  /** How its total is shown, as captured (ADR 79). */
  display: ScoreDisplay;
  /** Each subscale's score as captured; empty for a form without subscales. */
  subscales: HistorySubscale[];
  /** How it compares with the person's previous and first results on the form (docs/api-contract.md §18). */
  change: Change;
};

/** A subscale's score in one result (null: too many of its items unanswered), and its change. */
export type HistorySubscale = { key: string; name: string; score: number | null; maxScore: number; change: Change };

/** The query parameter that asks a person's page for the subscales' lines and columns. */
export const SUBSCALES_PARAM = "subscales";

/**
 * One form's newest results, oldest first, and how many the person has on it in all; what its
 * totals are compared with, and the first result's total (the baseline, which may be older than
 * every result shown).
 */
export type HistoryForm = {
  form: { id: string; title: string };
  total: number;
  constants: ChangeConstants;
  baseline: number | null;
  results: HistoryResult[];
};

/** A person's results per form, the assignments not completed yet, and the per-form limit. */
export type HistoryByForm = { forms: HistoryForm[]; open: HistoryEntry[]; moreOpen: boolean; perForm: number };

/**
 * The results of a student or candidate, one block per form (instrument): a chart of its scores
 * over its bands, then a table of every result drawn. Different tests never share a line, since a
 * line between them would suggest a trend that does not exist. The assignments not completed
 * follow.
 */
export function History({ forms, open, moreOpen, personName }: HistoryByForm & { personName: string }) {
  const t = useT();
  const format = useFormat();
  return (
    <Section id="history" title={t.people.history.title} description={t.people.history.description}>
      {forms.length === 0 && open.length === 0 ? (
        <EmptyState title={t.people.history.empty} />
      ) : (
        <>
          {forms.length === 0 ? <p className="border-b border-slate-200 px-4 py-4 text-sm text-slate-600 sm:px-5">{t.people.history.chartEmpty}</p> : null}
          {forms.map((form) => (
            <FormHistory key={form.form.id} history={form} personName={personName} />
          ))}
          {open.length > 0 ? (
            <section aria-labelledby="history-open-title" className="break-inside-avoid-page">
              <h3 id="history-open-title" className="px-4 pt-4 text-sm font-semibold text-slate-900 sm:px-5">
                {t.people.history.openTitle}
              </h3>
              {moreOpen ? <p className="px-4 pt-1 text-sm text-slate-600 sm:px-5">{t.people.history.openMore(format.number(open.length))}</p> : null}
              <div className="mt-2">
                <OpenTable entries={open} />
              </div>
            </section>
          ) : null}
        </>
      )}
    </Section>
  );
}

function FormHistory({ history, personName }: { history: HistoryForm; personName: string }) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const titleId = useId();
  const { form, results, total } = history;
  const [params] = useSearchParams();
  const showSubscales = params.get(SUBSCALES_PARAM) === "1";
  const subscales = subscalesOf(results);
  const reportsLink = `${paths.reports(locale)}?${new URLSearchParams({ formId: form.id, search: personName })}`;
  return (
    <section aria-labelledby={titleId} className="border-b border-slate-200 last:border-b-0" data-testid="history-form">
      <h3 id={titleId} className="px-4 pt-4 text-base font-semibold wrap-anywhere text-slate-900 sm:px-5">
        {form.title}
      </h3>
      {total > results.length ? (
        <p className="px-4 pt-1 text-sm text-slate-600 sm:px-5">
          {t.people.history.latestOf(format.number(results.length), format.number(total))}{" "}
          <Link to={reportsLink} className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
            {t.people.history.allInReports}
          </Link>
        </p>
      ) : null}
      {subscales.length > 0 ? <SubscalesToggle shown={showSubscales} /> : null}
      <HistoryChart history={history} />
      {showSubscales && subscales.length > 0 ? <SubscalesChart history={history} subscales={subscales} /> : null}
      <BandLegend results={results} />
      <ResultsTable
        title={form.title}
        results={results}
        constants={history.constants}
        baselineShown={total <= results.length}
        subscales={showSubscales ? subscales : []}
      />
    </section>
  );
}

const NEUTRAL = "#475569";

/** The subscales of a form's results, each once, in the order the results list them. */
function subscalesOf(results: HistoryResult[]): { key: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const result of results) for (const subscale of result.subscales) if (!seen.has(subscale.key)) seen.set(subscale.key, subscale.name);
  return [...seen].map(([key, name]) => ({ key, name }));
}

/**
 * A plain link that adds or removes the subscales' lines and columns (a query parameter, so it
 * works without JavaScript), back at the results.
 */
function SubscalesToggle({ shown }: { shown: boolean }) {
  const t = useT();
  const [params] = useSearchParams();
  const next = new URLSearchParams(params);
  if (shown) next.delete(SUBSCALES_PARAM);
  else next.set(SUBSCALES_PARAM, "1");
  const search = next.toString();
  return (
    <p className="px-4 pt-1 text-sm sm:px-5 print:hidden">
      <Link
        to={{ search: search ? `?${search}` : "", hash: "history" }}
        preventScrollReset
        className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
      >
        {shown ? t.people.history.hideSubscales : t.people.history.showSubscales}
      </Link>
    </p>
  );
}

/** Lines told apart by their dash as well as their colour, and named in text at their end. */
const SUBSCALE_LINES = [
  { color: "#1d4ed8", dash: undefined },
  { color: "#b45309", dash: "8 4" },
  { color: "#047857", dash: "2 4" },
  { color: "#7e22ce", dash: "12 4 2 4" },
  { color: "#be123c", dash: "4 2" },
];
const subscaleLine = (index: number) => SUBSCALE_LINES[index % SUBSCALE_LINES.length]!;

/**
 * One line per subscale over completion date, each named at its last point and in the list under
 * it (not by colour alone: each has its own dash too); every score is in the table below.
 */
function SubscalesChart({ history, subscales }: { history: HistoryForm; subscales: { key: string; name: string }[] }) {
  const t = useT();
  const format = useFormat();
  const captionId = useId();
  const results = history.results
    .filter((result) => result.completedAt !== null && result.subscales.some((subscale) => subscale.score !== null))
    .map((result) => ({ time: new Date(result.completedAt!).getTime(), subscales: result.subscales }))
    .sort((a, b) => a.time - b.time);
  if (results.length === 0) return null;
  const width = 660;
  const height = 240;
  const fontSize = 13;
  const pad = { top: 12, right: 120, bottom: 36, left: 60 };
  const scores = results.flatMap((result) => result.subscales.map((subscale) => ({ score: subscale.score ?? 0, max: subscale.maxScore })));
  const { plotW, x, y, ticks } = plotAxes(results[0]!.time, results.at(-1)!.time, scores, width, height, pad);
  const lines = subscales.map((subscale, index) => ({
    ...subscale,
    ...subscaleLine(index),
    points: results.flatMap((result) => {
      const score = result.subscales.find((entry) => entry.key === subscale.key);
      return score && score.score !== null ? [{ time: result.time, score: score.score, max: score.maxScore }] : [];
    }),
  }));
  // Names at the lines' ends, moved apart when their ends are close.
  const ends = lines
    .filter((line) => line.points.length > 0)
    .map((line) => ({ key: line.key, name: line.name, color: line.color, y: y(line.points.at(-1)!.score) }))
    .sort((a, b) => a.y - b.y);
  ends.forEach((end, index) => {
    if (index > 0) end.y = Math.max(end.y, ends[index - 1]!.y + fontSize + 1);
  });
  return (
    <figure className="break-inside-avoid px-2 pt-3 pb-2 sm:px-5" data-testid="history-subscales">
      {/* biome-ignore lint/a11y/noSvgWithoutTitle: the chart is named by its visible caption (aria-labelledby), and the table below holds every value. */}
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={captionId} className="h-auto w-full max-w-3xl">
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={pad.left} x2={pad.left + plotW} y1={y(tick)} y2={y(tick)} stroke={tick === 0 ? "#475569" : "#cbd5e1"} />
            <text x={pad.left - 8} y={y(tick)} textAnchor="end" dominantBaseline="middle" fontSize={fontSize} fill="#334155">
              {format.number(tick)}
            </text>
          </g>
        ))}
        <text x={pad.left + plotW / 2} y={height - 4} textAnchor="middle" fontSize={fontSize - 1} fill="#475569">
          {t.people.history.axisDate}
        </text>
        {lines.map((line) => (
          <g key={line.key} data-subscale={line.key}>
            {line.points.length > 1 ? (
              <polyline
                points={line.points.map((point) => `${x(point.time).toFixed(1)},${y(point.score).toFixed(1)}`).join(" ")}
                fill="none"
                stroke={line.color}
                strokeWidth="2.5"
                strokeDasharray={line.dash}
              />
            ) : null}
            {line.points.map((point) => (
              <circle key={point.time} cx={x(point.time)} cy={y(point.score)} r="5" fill={line.color} stroke="#0f172a" data-score={point.score}>
                <title>
                  {t.people.history.subscalePoint(line.name, format.dateTime(point.time), t.score.of(format.number(point.score), format.number(point.max)))}
                </title>
              </circle>
            ))}
          </g>
        ))}
        {ends.map((end) => (
          <text key={end.key} x={pad.left + plotW + 8} y={end.y} dominantBaseline="middle" fontSize={fontSize - 1} fill="#0f172a">
            {end.name.length > 16 ? `${end.name.slice(0, 15)}…` : end.name}
          </text>
        ))}
      </svg>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 px-2 text-sm text-slate-700 sm:px-0">
        {lines.map((line) => (
          <li key={line.key} className="inline-flex items-center gap-1.5">
            <svg aria-hidden="true" focusable="false" viewBox="0 0 28 8" className="h-2 w-7 shrink-0">
              <line x1="0" x2="28" y1="4" y2="4" stroke={line.color} strokeWidth="2.5" strokeDasharray={line.dash} />
            </svg>
            {line.name}
          </li>
        ))}
      </ul>
      <figcaption id={captionId} className="mt-1 px-2 text-sm text-slate-600 sm:px-0">
        {`${t.people.history.subscalesChartName(history.form.title)}: ${t.people.history.subscalesChartSummary(format.list(lines.map((line) => line.name)))}`}
      </figcaption>
    </figure>
  );
}

type Point = {
  id: string;
  time: number;
  score: number;
  max: number;
  percentage: number | null;
  display: ScoreDisplay;
  bandless: boolean;
  color: string;
  label: string;
  bands: HistoryBand[];
  change: Change;
};

/** Completed results in date order, as a chart draws them; a colour that is not #rgb/#rrggbb is neutral. */
export function chartPoints(results: HistoryResult[], noBand: string): Point[] {
  return results
    .filter((result) => result.isCompleted && result.completedAt !== null && result.totalScore !== null)
    .map((result) => ({
      id: result.id,
      time: new Date(result.completedAt!).getTime(),
      score: result.totalScore!,
      max: result.maxScore ?? result.totalScore!,
      percentage: result.percentage,
      display: result.display,
      // A total without bands whose subscales carry the result (DASS-21) is not called "No band".
      bandless: result.bands.length === 0 && result.subscales.length > 0,
      color: result.scoreLabel && parseHexColor(result.scoreColor) ? result.scoreColor! : NEUTRAL,
      label: result.scoreLabel ?? noBand,
      bands: result.bands,
      change: result.change,
    }))
    .sort((a, b) => a.time - b.time);
}

/** 1, 2 or 5 times a power of ten: the tick step for about `count` intervals over `range`. */
function niceStep(range: number, count: number): number {
  const raw = range / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

/**
 * The score axis: from the lowest of 0 and every score to the highest of every score and maximum,
 * widened to whole ticks. Negative totals and totals past the best band are drawn where they are,
 * never clipped; bands beyond those bounds are cut at the edge.
 */
export function scoreScale(points: { score: number; max: number }[]) {
  let low = Math.min(0, ...points.map((point) => point.score));
  let high = Math.max(...points.flatMap((point) => [point.score, point.max]));
  if (high <= low) high = low + 1;
  const step = niceStep(high - low, 4);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let tick = low; tick <= high + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return { low, high, ticks };
}

/** A chart's plot area inside its padding, and where a time and a score fall on it. */
function plotAxes(
  first: number,
  last: number,
  scores: { score: number; max: number }[],
  width: number,
  height: number,
  pad: { top: number; right: number; bottom: number; left: number },
) {
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const span = last - first;
  // A little room at both ends so the first and last points do not sit on the frame.
  const inset = span === 0 ? 0 : Math.min(14, plotW / 10);
  const x = (time: number) => (span === 0 ? pad.left + plotW / 2 : pad.left + inset + ((time - first) / span) * (plotW - 2 * inset));
  const { low, high, ticks } = scoreScale(scores);
  const y = (score: number) => pad.top + plotH - ((score - low) / (high - low)) * plotH;
  return { plotW, plotH, span, x, y, low, high, ticks };
}

/**
 * The form's score over completion date, each point on its band's colour, over the bands each
 * result was scored against: the background is cut into one stretch per result (from halfway to
 * the one before to halfway to the one after), so bands that changed with an edit of the form show
 * where they changed. Drawn on the server as SVG with presentation attributes (the CSP forbids
 * inline styles); the caption names and sums it up and the table under it lists every value.
 */
export function HistoryChart({ history }: { history: HistoryForm }) {
  const t = useT();
  const format = useFormat();
  const captionId = useId();
  const points = chartPoints(history.results, t.score.noBand);
  if (points.length === 0) return null;
  const lines: ChangeLines = { baseline: history.baseline, remissionBelow: history.constants.remissionBelow };
  const first = points[0]!;
  const last = points.at(-1)!;
  const summary =
    points.length === 1
      ? t.people.history.chartSummaryOne(format.date(first.time), t.score.of(format.number(first.score), format.number(first.max)))
      : t.people.history.chartSummary(format.number(points.length), format.date(first.time), format.date(last.time));
  return (
    <figure className="break-inside-avoid px-2 pt-3 pb-2 sm:px-5">
      {/* A narrower drawing for phones keeps its labels readable; the wide one names the bands beside them. */}
      {PHONE_AND_WIDE.map((size) => (
        <ChartDrawing key={size.width} points={points} lines={lines} captionId={captionId} formId={history.form.id} {...size} />
      ))}
      <ChangeLegend lines={lines} points={points} />
      <figcaption id={captionId} className="mt-1 px-2 text-sm text-slate-600 sm:px-0">
        {`${t.people.history.chartName(history.form.title)}: ${summary}`}
      </figcaption>
    </figure>
  );
}

/** The chart's level lines (docs/api-contract.md §18): the baseline's total and the remission threshold. */
type ChangeLines = { baseline: number | null; remissionBelow: number | null };

const IMPROVED_COLOR = "#047857";

/** The level lines there are to draw, each told apart by its dash as well as its colour. */
function levelLines(lines: ChangeLines) {
  return [
    ...(lines.baseline === null ? [] : [{ kind: "baseline" as const, score: lines.baseline, color: "#1e293b", dash: "6 4" }]),
    ...(lines.remissionBelow === null ? [] : [{ kind: "remission" as const, score: lines.remissionBelow, color: "#047857", dash: "2 3" }]),
  ];
}
const DETERIORATED_COLOR = "#b91c1c";

/**
 * What the chart's lines and marks mean, in words: the baseline and the remission threshold with
 * their values, and the reliable changes it marks (a triangle pointing the way the score went).
 */
function ChangeLegend({ lines, points }: { lines: ChangeLines; points: Point[] }) {
  const t = useT();
  const format = useFormat();
  const marked = (["IMPROVED", "DETERIORATED"] as const).filter((category) => points.some((point) => point.change.reliable === category));
  if (lines.baseline === null && lines.remissionBelow === null && marked.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 px-2 text-sm text-slate-700 sm:px-0" data-testid="history-change-legend">
      {levelLines(lines).map((level) => (
        <li key={level.kind} className="inline-flex items-center gap-1.5">
          <svg aria-hidden="true" focusable="false" viewBox="0 0 28 8" className="h-2 w-7 shrink-0">
            <line x1="0" x2="28" y1="4" y2="4" stroke={level.color} strokeWidth="2" strokeDasharray={level.dash} />
          </svg>
          {level.kind === "baseline" ? t.change.baselineLine(format.number(level.score)) : t.change.remissionLine(format.number(level.score))}
        </li>
      ))}
      {marked.map((category) => (
        <li key={category} className="inline-flex items-center gap-1.5">
          <svg aria-hidden="true" focusable="false" viewBox="0 0 12 12" className="size-3 shrink-0">
            <ChangeMark category={category} x={6} y={6} />
          </svg>
          {t.change.categories[category]}
        </li>
      ))}
    </ul>
  );
}

/**
 * A reliable change's mark, centred on (x, y): a triangle pointing the way the score moved, in the
 * direction's colour (the legend and each point's title say it in words).
 */
function ChangeMark({ category, x, y, up }: { category: "IMPROVED" | "DETERIORATED"; x: number; y: number; up?: boolean }) {
  const pointsUp = up ?? category === "DETERIORATED";
  const d = pointsUp ? `M ${x} ${y - 5} L ${x + 5} ${y + 4} L ${x - 5} ${y + 4} Z` : `M ${x} ${y + 5} L ${x + 5} ${y - 4} L ${x - 5} ${y - 4} Z`;
  return <path d={d} fill={category === "IMPROVED" ? IMPROVED_COLOR : DETERIORATED_COLOR} stroke="#0f172a" strokeWidth="1" data-reliable={category} />;
}

const PHONE_AND_WIDE = [
  { width: 360, height: 240, labels: false, className: "h-auto w-full sm:hidden" },
  { width: 660, height: 260, labels: true, className: "hidden h-auto w-full max-w-3xl sm:block" },
];

/** Consecutive results scored against the same bands share one stretch of background. */
function bandStretches(points: Point[], x: (time: number) => number, left: number, right: number) {
  const stretches: { from: number; to: number; bands: HistoryBand[] }[] = [];
  points.forEach((point, index) => {
    const from = index === 0 ? left : (x(points[index - 1]!.time) + x(point.time)) / 2;
    const to = index === points.length - 1 ? right : (x(point.time) + x(points[index + 1]!.time)) / 2;
    const previous = stretches.at(-1);
    if (previous && JSON.stringify(previous.bands) === JSON.stringify(point.bands)) previous.to = to;
    else stretches.push({ from, to, bands: point.bands });
  });
  return stretches;
}

function ChartDrawing({
  points,
  lines,
  captionId,
  formId,
  width,
  height,
  labels,
  className,
}: {
  points: Point[];
  lines: ChangeLines;
  captionId: string;
  formId: string;
  width: number;
  height: number;
  /** Band names in a margin right of the last stretch (wide drawing only; the legend has them too). */
  labels: boolean;
  className: string;
}) {
  const t = useT();
  const format = useFormat();
  const totalOf = useTotalText();
  const fontSize = 13;
  const pad = { top: 12, right: labels ? 112 : 16, bottom: 44, left: 60 };
  const first = points[0]!.time;
  const last = points.at(-1)!.time;
  // The level lines are drawn where they are: the axis reaches them as it reaches every score.
  const levels = [lines.baseline, lines.remissionBelow].flatMap((level) => (level === null ? [] : [{ score: level, max: level }]));
  const { plotW, plotH, span, x, y, low, high, ticks } = plotAxes(first, last, [...points, ...levels], width, height, pad);
  const clampY = (score: number) => y(Math.max(low, Math.min(high, score)));
  const stretches = bandStretches(points, x, pad.left, pad.left + plotW);
  const line = points.map((point) => `${x(point.time).toFixed(1)},${y(point.score).toFixed(1)}`).join(" ");
  // Dates only (the table and each point's title have the time); a date already labelled is not
  // repeated, and results all on one day get one label in the middle.
  const middle = first + span / 2;
  const oneDay = format.date(first) === format.date(last);
  const withMiddle = width >= 500 && points.length > 2 && ![first, last].some((end) => format.date(end) === format.date(middle));
  const dateTicks = oneDay ? [first] : withMiddle ? [first, middle, last] : [first, last];
  const lastStretch = stretches.at(-1)!;
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: the chart is named by its visible caption (aria-labelledby), and the table below holds every value.
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby={captionId}
      className={className}
      data-testid={`history-chart-${width < 500 ? "phone" : "wide"}`}
      data-form-id={formId}
    >
      {stretches.map((stretch) =>
        stretch.bands
          .filter((band) => band.max >= low && band.min <= high)
          .map((band) => (
            <rect
              key={`${stretch.from}-${band.min}-${band.max}-${band.label}`}
              x={stretch.from}
              width={Math.max(0, stretch.to - stretch.from)}
              y={clampY(band.max)}
              height={Math.max(1, clampY(band.min) - clampY(band.max))}
              fill={parseHexColor(band.color) ? band.color : NEUTRAL}
              fillOpacity={0.16}
              data-band={band.label}
            />
          )),
      )}
      {stretches.slice(1).map((stretch) => (
        <line key={`change-${stretch.from}`} x1={stretch.from} x2={stretch.from} y1={pad.top} y2={pad.top + plotH} stroke="#94a3b8" strokeDasharray="4 3" />
      ))}
      {labels
        ? lastStretch.bands
            .filter((band) => band.max >= low && band.min <= high && clampY(band.min) - clampY(band.max) >= fontSize - 2)
            .map((band) => (
              <text
                key={`label-${band.label}-${band.min}`}
                x={pad.left + plotW + 6}
                y={(clampY(band.min) + clampY(band.max)) / 2}
                dominantBaseline="middle"
                fontSize={fontSize - 1}
                fill="#334155"
              >
                {band.label.length > 15 ? `${band.label.slice(0, 14)}…` : band.label}
              </text>
            ))
        : null}
      {ticks.map((tick) => (
        <g key={tick}>
          <line
            x1={pad.left}
            x2={pad.left + plotW}
            y1={y(tick)}
            y2={y(tick)}
            stroke={tick === 0 ? "#475569" : "#cbd5e1"}
            strokeWidth={tick === 0 ? 1.5 : 1}
            data-tick={tick}
          />
          <text x={pad.left - 8} y={y(tick)} textAnchor="end" dominantBaseline="middle" fontSize={fontSize} fill="#334155">
            {format.number(tick)}
          </text>
        </g>
      ))}
      {dateTicks.map((time, index) => (
        <text
          key={time}
          x={oneDay ? pad.left + plotW / 2 : x(time)}
          y={height - pad.bottom + 20}
          textAnchor={oneDay ? "middle" : index === 0 ? "start" : index === dateTicks.length - 1 ? "end" : "middle"}
          fontSize={fontSize}
          fill="#334155"
        >
          {format.date(time)}
        </text>
      ))}
      <text x={pad.left + plotW / 2} y={height - 4} textAnchor="middle" fontSize={fontSize - 1} fill="#475569">
        {t.people.history.axisDate}
      </text>
      <text x={14} y={pad.top + plotH / 2} textAnchor="middle" fontSize={fontSize - 1} fill="#475569" transform={`rotate(-90 14 ${pad.top + plotH / 2})`}>
        {t.people.history.axisScore}
      </text>
      {levelLines(lines).map((level) => (
        <line
          key={level.kind}
          x1={pad.left}
          x2={pad.left + plotW}
          y1={y(level.score)}
          y2={y(level.score)}
          stroke={level.color}
          strokeWidth="2"
          strokeDasharray={level.dash}
          data-line={level.kind}
          data-score={level.score}
        />
      ))}
      {points.length > 1 ? <polyline points={line} fill="none" stroke="#475569" strokeWidth="2" strokeLinejoin="round" /> : null}
      {points.map((point) => (
        <circle
          key={point.id}
          cx={x(point.time)}
          cy={y(point.score)}
          r="6.5"
          fill={point.color}
          stroke="#0f172a"
          strokeWidth="1.5"
          data-band={point.label}
          data-score={point.score}
        >
          <title>
            {(point.display === "RAW"
              ? t.people.history.pointRaw(
                  format.dateTime(point.time),
                  totalOf({ ...point, totalScore: point.score, maxScore: point.max }).score,
                  point.bandless ? null : point.label,
                )
              : t.people.history.point(
                  format.dateTime(point.time),
                  t.score.of(format.number(point.score), format.number(point.max)),
                  point.percentage === null ? t.people.notGiven : format.percent(point.percentage),
                  point.label,
                )) + (point.change.reliable === null ? "" : ` (${t.change.categories[point.change.reliable]})`)}
          </title>
        </circle>
      ))}
      {points.map((point) =>
        point.change.reliable === "IMPROVED" || point.change.reliable === "DETERIORATED" ? (
          // Beside the point, on the side the score moved to, so the point itself stays readable.
          <ChangeMark
            key={`mark-${point.id}`}
            category={point.change.reliable}
            x={x(point.time)}
            y={y(point.score) + ((point.change.fromBaseline ?? 0) > 0 ? -15 : 15)}
            up={(point.change.fromBaseline ?? 0) > 0}
          />
        ) : null,
      )}
    </svg>
  );
}

/** The bands of the newest result, in words, and a note when older results had other bands. */
function BandLegend({ results }: { results: HistoryResult[] }) {
  const t = useT();
  const format = useFormat();
  const latest = results.at(-1);
  if (!latest || latest.bands.length === 0) return null;
  const changed = results.some((result) => JSON.stringify(result.bands) !== JSON.stringify(latest.bands));
  return (
    <div className="px-4 pb-3 text-sm text-slate-700 sm:px-5">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span>{t.people.history.bandsOfLatest}</span>
        {latest.bands.map((band) => (
          <span key={`${band.label}-${band.min}`} className="inline-flex items-center gap-1.5">
            <svg aria-hidden="true" focusable="false" viewBox="0 0 12 12" className="size-3 shrink-0">
              <rect width="12" height="12" rx="2" fill={parseHexColor(band.color) ? band.color : NEUTRAL} />
            </svg>
            <span>
              {band.label} ({t.people.history.bandRange(format.number(band.min), format.number(band.max))})
            </span>
          </span>
        ))}
      </p>
      {changed ? <p className="mt-1 text-slate-600">{t.people.history.bandsChanged}</p> : null}
    </div>
  );
}

const cell = "px-3 py-2.5 align-top sm:px-4";

/** A table of the history: its caption for screen readers, its column heads (first one indented like the text), its rows. */
function HistoryTable({ caption, columns, children }: { caption: string; columns: { label: string; className?: string }[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto pb-2">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-y border-slate-200 bg-slate-50 text-slate-700">
          <tr>
            {columns.map((column, index) => (
              <th key={column.label} scope="col" className={cx(cell, "font-semibold", index === 0 && "sm:pl-5", column.className)}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  );
}

function OpenTable({ entries }: { entries: HistoryEntry[] }) {
  const t = useT();
  const format = useFormat();
  return (
    <HistoryTable caption={t.people.history.openTitle} columns={[{ label: t.people.history.form }, { label: t.people.history.assigned }]}>
      {entries.map((entry) => (
        <tr key={entry.id} className="break-inside-avoid">
          <td className={`${cell} font-medium wrap-anywhere text-slate-900 sm:pl-5`}>{entry.form.title}</td>
          <td className={`${cell} text-slate-700`}>{format.date(entry.createdAt)}</td>
        </tr>
      ))}
    </HistoryTable>
  );
}

function ResultsTable({
  title,
  results,
  constants,
  baselineShown,
  subscales,
}: {
  title: string;
  results: HistoryResult[];
  constants: ChangeConstants;
  /** Whether the oldest result shown is the person's first on the form, the baseline. */
  baselineShown: boolean;
  subscales: { key: string; name: string }[];
}) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const totalOf = useTotalText();
  const signed = useSignedNumber();
  // The clinical figures only for a form that gives them (a school test shows its differences alone).
  const showReliable = constants.reliableChange !== null;
  const showResponse = constants.reliableChange !== null || constants.remissionBelow !== null;
  const showRemission = constants.remissionBelow !== null;
  const scoreOf = (result: HistoryResult) => (result.totalScore !== null && result.maxScore !== null ? totalOf(result).score : t.people.notGiven);
  const percentOf = (result: HistoryResult) =>
    result.display === "PERCENT" && result.percentage === null ? t.people.notGiven : <PercentCell percent={totalOf(result).percent} />;
  // A form whose totals show as raw scores (ADR 79) has no percentage to give: no column of dashes.
  const showPercent = results.some((result) => result.display === "PERCENT");
  const columns = [
    { label: t.people.history.completed },
    { label: t.people.history.score, className: "text-right" },
    ...(showPercent ? [{ label: t.people.history.percentage, className: "hidden text-right sm:table-cell" }] : []),
    { label: t.people.history.band },
    { label: t.change.fromPrevious, className: "text-right" },
    { label: t.change.fromBaseline, className: "text-right" },
    ...(showReliable ? [{ label: t.change.reliable }] : []),
    ...(showResponse ? [{ label: t.change.response }] : []),
    ...(showRemission ? [{ label: t.change.remission }] : []),
    ...subscales.map((subscale) => ({ label: subscale.name, className: "text-right" })),
  ];
  const isBaseline = (result: HistoryResult) => baselineShown && result === results[0];
  const subscaleCell = (result: HistoryResult, key: string) => {
    const subscale = result.subscales.find((entry) => entry.key === key);
    if (!subscale || subscale.score === null) return t.people.notGiven;
    return (
      <>
        {t.score.of(format.number(subscale.score), format.number(subscale.maxScore))}
        {subscale.change.fromBaseline !== null ? (
          <span className="block text-xs text-slate-600">{t.change.sinceFirst(signed(subscale.change.fromBaseline))}</span>
        ) : null}
        <ReliableChangeBadge change={subscale.change} className="mt-0.5" />
      </>
    );
  };
  return (
    <HistoryTable caption={t.people.history.tableCaption(title)} columns={columns}>
      {results.toReversed().map((result) => (
        <tr key={result.id} className="break-inside-avoid">
          <td className={`${cell} whitespace-nowrap sm:pl-5`}>
            <Link to={paths.report(locale, result.id)} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
              {result.completedAt ? format.date(result.completedAt) : t.people.notGiven}
            </Link>
          </td>
          <td className={`${cell} text-right whitespace-nowrap text-slate-900 tabular-nums`}>
            {scoreOf(result)}
            {/* A phone has no room for the percentage's own column: it goes under the score. */}
            {showPercent ? <span className="block text-slate-700 sm:hidden">{percentOf(result)}</span> : null}
          </td>
          {showPercent ? <td className={`${cell} hidden text-right text-slate-700 tabular-nums sm:table-cell`}>{percentOf(result)}</td> : null}
          <td className={cell}>
            <span className="inline-flex flex-wrap items-center gap-1.5">
              {/* A total without a band whose subscales carry the result (DASS-21) is not marked "No band". */}
              {result.scoreLabel === null && result.subscales.length > 0 ? null : <ScoreBadge label={result.scoreLabel} color={result.scoreColor} />}
              <FlagMark result={result} />
            </span>
          </td>
          <td className={`${cell} text-right whitespace-nowrap text-slate-900 tabular-nums`} data-change="fromPrevious">
            {signed(result.change.fromPrevious)}
          </td>
          <td className={`${cell} text-right whitespace-nowrap text-slate-900 tabular-nums`} data-change="fromBaseline">
            {isBaseline(result) ? <span className="text-slate-600">{t.change.baseline}</span> : signed(result.change.fromBaseline)}
          </td>
          {showReliable ? (
            <td className={cell} data-change="reliable">
              {result.change.reliable === null ? t.people.notGiven : <ReliableChangeBadge change={result.change} />}
            </td>
          ) : null}
          {showResponse ? (
            <td className={cell} data-change="response">
              <YesNo value={result.change.response} />
            </td>
          ) : null}
          {showRemission ? (
            <td className={cell} data-change="remission">
              <YesNo value={result.change.remission} />
            </td>
          ) : null}
          {subscales.map((subscale) => (
            <td key={subscale.key} className={`${cell} text-right whitespace-nowrap text-slate-900 tabular-nums`}>
              {subscaleCell(result, subscale.key)}
            </td>
          ))}
        </tr>
      ))}
    </HistoryTable>
  );
}
