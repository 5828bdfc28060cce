import { Link } from "react-router";
import type { GroupResults, LatestResult } from "~/features/summaries/group-results.server.ts";
import { useFormat, useLocale, useT, useTotalText } from "~/i18n/hooks.ts";
import { paths } from "~/lib/paths.ts";
import { ScoreBadge } from "../badge.tsx";
import { FlagMark } from "../flag-mark.tsx";
import { StackedBar } from "../charts/bar-table.tsx";
import { ReliableChangeBadge, useSignedNumber } from "../change-figures.tsx";

const NO_BAND_COLOR = "#94a3b8";

type Member = { kind: "student" | "candidate"; id: string; name: string };
type Results = Omit<GroupResults, "latest"> & {
  latest: Record<
    string,
    Record<
      string,
      Omit<LatestResult, "completedAt" | "flaggedAt" | "acknowledgedAt"> & {
        completedAt: Date | string;
        flaggedAt: Date | string | null;
        acknowledgedAt: Date | string | null;
      }
    >
  >;
};

/**
 * The group's grade book: a row per member, a column per form, each cell the member's latest
 * result in its band (as captured); above each column, how the members' latest results spread
 * over the bands, and a link to the form's full summary for this group.
 */
export function GroupResultsTable({
  groupId,
  members,
  forms,
  results,
}: {
  groupId: string;
  members: Member[];
  forms: { id: string; title: string }[];
  results: Results;
}) {
  const t = useT();
  const format = useFormat();
  const totalOf = useTotalText();
  const signed = useSignedNumber();
  const locale = useLocale();
  return (
    <div className="space-y-4 px-4 py-5 sm:px-5">
      <ul className="grid gap-4 sm:grid-cols-2">
        {forms.map((form) => {
          const bands = results.bands[form.id] ?? [];
          const answered = bands.reduce((sum, band) => sum + band.count, 0);
          const parts = bands.map((band) => `${band.label ?? t.groups.results.noBand} ${format.number(band.count)}`);
          return (
            <li key={form.id} className="rounded-lg border border-slate-200 p-3 break-inside-avoid">
              <p className="font-medium wrap-anywhere text-slate-900">{form.title}</p>
              <p className="mt-0.5 text-sm text-slate-600">{t.groups.results.answered(format.number(answered), format.number(members.length))}</p>
              <div className="mt-2">
                <StackedBar
                  label={t.groups.results.bandsOf(form.title, parts.length > 0 ? parts.join(", ") : t.groups.results.none)}
                  parts={bands.map((band, i) => ({ key: `${band.label}-${i}`, value: band.count, color: band.color ?? NO_BAND_COLOR }))}
                />
              </div>
              <Link
                to={`${paths.formSummary(locale, form.id)}?groupId=${groupId}`}
                className="mt-2 inline-block text-sm font-medium text-indigo-700 underline-offset-2 hover:underline print:hidden"
              >
                {t.groups.results.summaryOf(form.title)}
              </Link>
            </li>
          );
        })}
      </ul>
      {/* Wide with many forms: it scrolls sideways, and can be scrolled from the keyboard. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className="overflow-x-auto" tabIndex={0} aria-label={t.groups.results.tableLabel}>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t.groups.results.tableLabel}</caption>
          <thead className="border-b border-slate-200 text-slate-700">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">
                {t.groups.results.member}
              </th>
              {forms.map((form) => (
                <th key={form.id} scope="col" className="max-w-48 py-2 pr-3 font-semibold wrap-anywhere">
                  {form.title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {members.map((member) => {
              const latest = results.latest[`${member.kind}:${member.id}`] ?? {};
              return (
                <tr key={`${member.kind}-${member.id}`}>
                  <th scope="row" className="py-2 pr-3 font-medium wrap-anywhere text-slate-900">
                    {member.name}
                  </th>
                  {forms.map((form) => {
                    const result = latest[form.id];
                    return (
                      <td key={form.id} className="py-2 pr-3 whitespace-nowrap text-slate-700">
                        {result ? (
                          <span className="inline-flex items-center gap-2">
                            {/* A total without a band whose subscales carry the result (DASS-21) is not marked "No band". */}
                            {result.scoreLabel === null && result.subscales.length > 0 ? null : (
                              <ScoreBadge label={result.scoreLabel} color={result.scoreColor} />
                            )}
                            <FlagMark result={result} />
                            <span className="tabular-nums">{totalOf(result).headline}</span>
                            {/* The change since the member's first result on the form, and its category in words (§18). */}
                            {result.change.fromBaseline !== null ? (
                              <span className="text-xs text-slate-700 tabular-nums" data-change="fromBaseline">
                                {t.change.sinceFirst(signed(result.change.fromBaseline))}
                              </span>
                            ) : null}
                            <ReliableChangeBadge change={result.change} />
                            {result.change.remission ? <span className="text-xs font-medium text-emerald-800">{t.change.remission}</span> : null}
                            <span className="text-xs text-slate-500">{format.date(result.completedAt)}</span>
                            {result.subscales.length > 0 ? (
                              <span className="text-xs text-slate-600">
                                {result.subscales.map((subscale) => `${subscale.name} ${format.number(subscale.score)}`).join(" · ")}
                              </span>
                            ) : null}
                          </span>
                        ) : (
                          <span className="text-slate-500">
                            <span aria-hidden="true">–</span>
                            <span className="sr-only">{t.groups.results.noResult}</span>
                          </span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
    </div>
  );
}
