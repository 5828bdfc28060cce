import { Link } from "react-router";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { parseHexColor } from "~/lib/color.ts";
import { paths } from "~/lib/paths.ts";
import { ScoreBadge } from "../badge.tsx";
import { EmptyState } from "../empty-state.tsx";
import { Pagination } from "../pagination.tsx";
import { Section } from "../page-header.tsx";

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

/** One page of a person's results, newest first, and the latest completed ones for the chart. */
export type HistoryPage = { entries: HistoryEntry[]; charted: HistoryEntry[]; total: number; page: number; limit: number };

/** The results of a student or candidate: the chart over time, then a page of entries in a table. */
export function History({ entries, charted, total, page, limit }: HistoryPage) {
  const t = useT();
  return (
    <Section id="history" title={t.people.history.title} description={t.people.history.description}>
      {total === 0 ? (
        <EmptyState title={t.people.history.empty} />
      ) : (
        <>
          <HistoryChart entries={charted} />
          <HistoryTable entries={entries} />
          <Pagination total={total} page={page} limit={limit} className="border-t border-slate-200 px-4 py-3 sm:px-5" />
        </>
      )}
    </Section>
  );
}

const NEUTRAL = "#475569";

type Point = { id: string; time: number; percentage: number; color: string; form: string; label: string };

/** Completed results in date order, as the chart draws them. */
export function chartPoints(entries: HistoryEntry[], noBand: string): Point[] {
  return entries
    .filter((entry) => entry.isCompleted && entry.completedAt !== null && entry.percentage !== null)
    .map((entry) => ({
      id: entry.id,
      time: new Date(entry.completedAt!).getTime(),
      percentage: Math.max(0, Math.min(100, entry.percentage!)),
      color: parseHexColor(entry.scoreColor) ? entry.scoreColor! : NEUTRAL,
      form: entry.form.title,
      label: entry.scoreLabel ?? noBand,
    }))
    .sort((a, b) => a.time - b.time);
}

/**
 * Percentage (0–100) over completion date, each point on its band's colour. Drawn on the server as
 * SVG with `fill`/`stroke` attributes (the CSP forbids inline styles); the figure's caption sums it
 * up and the table under it lists every value, so nothing is told only by the picture. Phones get
 * a narrower drawing so its labels stay readable.
 */
export function HistoryChart({ entries }: { entries: HistoryEntry[] }) {
  const t = useT();
  const format = useFormat();
  const points = chartPoints(entries, t.score.noBand);
  if (points.length === 0) {
    return <p className="border-b border-slate-200 px-4 py-4 text-sm text-slate-600 sm:px-5">{t.people.history.chartEmpty}</p>;
  }
  const first = points[0]!.time;
  const last = points.at(-1)!.time;
  const summary =
    points.length === 1
      ? t.people.history.chartSummaryOne(format.date(first), format.percent(points[0]!.percentage))
      : t.people.history.chartSummary(format.number(points.length), format.date(first), format.date(last));
  return (
    <figure className="border-b border-slate-200 px-2 py-4 sm:px-5">
      <h3 className="px-2 text-sm font-semibold text-slate-900 sm:px-0">{t.people.history.chartTitle}</h3>
      <ChartDrawing points={points} width={360} height={250} fontSize={13} className="mt-2 h-auto w-full sm:hidden" />
      <ChartDrawing points={points} width={640} height={260} fontSize={13} className="mt-2 hidden h-auto w-full max-w-3xl sm:block" />
      <figcaption id="history-chart-caption" className="mt-2 px-2 text-sm text-slate-600 sm:px-0">
        {t.people.history.chartTitle}: {summary}
      </figcaption>
    </figure>
  );
}

function ChartDrawing({ points, width, height, fontSize, className }: { points: Point[]; width: number; height: number; fontSize: number; className: string }) {
  const t = useT();
  const format = useFormat();
  // The left margin holds the tick labels ("100 %") and, clear of them, the rotated axis title.
  const pad = { top: 16, right: 20, bottom: 44, left: 66 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const first = points[0]!.time;
  const last = points.at(-1)!.time;
  const span = last - first;
  // Within two days the day alone would repeat itself: show the time as well.
  const tickLabel = (time: number) => (span > 0 && span < 2 * 86_400_000 ? format.dateTime(time) : format.date(time));
  const x = (time: number) => (span === 0 ? pad.left + plotW / 2 : pad.left + ((time - first) / span) * plotW);
  const y = (percentage: number) => pad.top + plotH - (percentage / 100) * plotH;
  const line = points.map((point) => `${x(point.time).toFixed(1)},${y(point.percentage).toFixed(1)}`).join(" ");
  const dateTicks = span === 0 ? [first] : width < 500 || points.length === 2 ? [first, last] : [first, first + span / 2, last];
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: the chart is named by its visible caption (aria-labelledby), and the table below holds every value.
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby="history-chart-caption"
      className={className}
      data-testid={`history-chart-${width < 500 ? "phone" : "wide"}`}
    >
      {[0, 25, 50, 75, 100].map((tick) => (
        <g key={tick}>
          <line x1={pad.left} x2={width - pad.right} y1={y(tick)} y2={y(tick)} stroke="#cbd5e1" strokeWidth={tick === 0 ? 1.5 : 1} />
          <text x={pad.left - 8} y={y(tick)} textAnchor="end" dominantBaseline="middle" fontSize={fontSize} fill="#334155">
            {format.percent(tick)}
          </text>
        </g>
      ))}
      {dateTicks.map((time, index) => (
        <text
          key={`${time}-${index}`}
          x={x(time)}
          y={height - pad.bottom + 20}
          textAnchor={span === 0 ? "middle" : index === 0 ? "start" : index === dateTicks.length - 1 ? "end" : "middle"}
          fontSize={fontSize}
          fill="#334155"
        >
          {tickLabel(time)}
        </text>
      ))}
      <text x={pad.left + plotW / 2} y={height - 4} textAnchor="middle" fontSize={fontSize - 1} fill="#475569">
        {t.people.history.axisDate}
      </text>
      <text x={12} y={pad.top + plotH / 2} textAnchor="middle" fontSize={fontSize - 1} fill="#475569" transform={`rotate(-90 12 ${pad.top + plotH / 2})`}>
        {t.people.history.axisPercent}
      </text>
      {points.length > 1 ? <polyline points={line} fill="none" stroke="#64748b" strokeWidth="2" strokeLinejoin="round" /> : null}
      {points.map((point) => (
        <circle key={point.id} cx={x(point.time)} cy={y(point.percentage)} r="7" fill={point.color} stroke="#ffffff" strokeWidth="2" data-band={point.label}>
          <title>{t.people.history.point(point.form, format.dateTime(point.time), format.percent(point.percentage), point.label)}</title>
        </circle>
      ))}
    </svg>
  );
}

function HistoryTable({ entries }: { entries: HistoryEntry[] }) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const cell = "px-4 py-3 align-top";
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t.people.history.title}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className={`${cell} font-semibold sm:pl-5`}>
              {t.people.history.form}
            </th>
            <th scope="col" className={`${cell} hidden font-semibold sm:table-cell`}>
              {t.people.history.assigned}
            </th>
            <th scope="col" className={`${cell} font-semibold`}>
              {t.people.history.completed}
            </th>
            <th scope="col" className={`${cell} font-semibold`}>
              {t.people.history.score}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td className={`${cell} sm:pl-5`}>
                {entry.isCompleted ? (
                  <Link to={paths.report(locale, entry.id)} className="font-medium wrap-anywhere text-indigo-700 underline-offset-2 hover:underline">
                    {entry.form.title}
                  </Link>
                ) : (
                  <span className="font-medium wrap-anywhere text-slate-900">{entry.form.title}</span>
                )}
              </td>
              <td className={`${cell} hidden text-slate-700 sm:table-cell`}>{format.date(entry.createdAt)}</td>
              <td className={`${cell} text-slate-700`}>{entry.completedAt ? format.date(entry.completedAt) : t.people.history.pending}</td>
              <td className={cell}>
                {entry.isCompleted && entry.totalScore !== null && entry.maxScore !== null ? (
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="text-slate-900 tabular-nums">{t.score.of(format.number(entry.totalScore), format.number(entry.maxScore))}</span>
                    {entry.percentage !== null ? <span className="text-slate-700 tabular-nums">({format.percent(entry.percentage)})</span> : null}
                    <ScoreBadge label={entry.scoreLabel} color={entry.scoreColor} />
                  </div>
                ) : (
                  <span className="text-slate-600">{t.people.notGiven}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
