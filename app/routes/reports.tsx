import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/reports";
import { ScoreBadge } from "~/components/badge.tsx";
import { EmptyState } from "~/components/empty-state.tsx";
import { FlagMark } from "~/components/flag-mark.tsx";
import { FLAGGED_FILTERS } from "~/features/flags/flag-filters.ts";
import { DateRangeFields } from "~/components/date-range-fields.tsx";
import { FilterSelect } from "~/components/filter-select.tsx";
import { ExportLinks } from "~/components/reports/export-links.tsx";
import { assignedForms } from "~/features/assignments/assignments.server.ts";
import { groupChoices } from "~/features/groups/groups.server.ts";
import { PageHeader } from "~/components/page-header.tsx";
import { Pagination } from "~/components/pagination.tsx";
import { SearchForm } from "~/components/search-form.tsx";
import { listReportsQuery } from "~/features/reports/report-schemas.ts";
import { listReports } from "~/features/reports/reports.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT, useTotalText } from "~/i18n/hooks.ts";
import { PercentCell } from "~/components/percent-cell.tsx";
import { pageQuery } from "~/lib/http.server.ts";
import { staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { parseSubmission, useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";
import { type DateFilterErrors, dateParseErrors, dateRangeErrors } from "~/lib/date-filters.server.ts";
import { clientValidation, pageResult } from "~/lib/client-validation.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.reports.title) }];
};

/** The filters the page shows, checked in the browser as the loader checks them. */
const reportFilters = listReportsQuery.pick({ search: true, from: true, to: true, formId: true, groupId: true, flagged: true });
const FILTER_NAMES = ["search", "from", "to", "formId", "groupId", "flagged"] as const;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const t = pageTranslations(context, params.locale);
  // Empty date inputs arrive as `from=`: left out rather than called invalid.
  const raw = pageQuery(request, [...FILTER_NAMES, "page", "limit"]);
  // Conform reads the filters as a GET form's submission, so a refusal shows like a post's: the
  // filters only, read as plain names (Conform would read any other name as a path).
  const filled = FILTER_NAMES.flatMap((name): [string, string][] => {
    const value = raw[name];
    return value === undefined ? [] : [[name, value]];
  });
  const submission = parseSubmission(new URLSearchParams(filled));
  const [forms, groups] = await Promise.all([assignedForms(actor), groupChoices(actor)]);
  const answer = (list: Awaited<ReturnType<typeof listReports>>, errors: DateFilterErrors) => ({
    ...list,
    errors,
    forms,
    groups,
    filters: { validation: clientValidation(reportFilters, t), result: pageResult(submission, { fieldErrors: { ...errors }, formError: null }) },
  });
  const parsed = listReportsQuery.safeParse(raw);
  const empty = { reports: [], total: 0, page: 1, limit: 20 };
  if (!parsed.success) {
    const errors = dateParseErrors(t, parsed.error);
    if (errors) return answer(empty, errors);
    // Any other hand-edited value (a search too long or with control characters) is left out,
    // as the other lists do.
    const withSearch = listReportsQuery.safeParse({ search: raw.search?.slice(0, 200) });
    const fallback = withSearch.success ? withSearch.data : listReportsQuery.parse({});
    return answer(await listReports(actor, fallback), {});
  }
  try {
    return answer(await listReports(actor, parsed.data), {});
  } catch (error) {
    // A group since deleted: the list without it.
    if (error instanceof ApiError && error.status === 404) return answer(await listReports(actor, { ...parsed.data, groupId: undefined }), {});
    return answer(empty, dateRangeErrors(t, error));
  }
}

export default function Reports({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const totalOf = useTotalText();
  const locale = useLocale();
  const [params] = useSearchParams();
  const { errors } = loaderData;
  const hasErrors = Boolean(errors.from || errors.to);
  const { form, fields } = useForm(pageFormOptions(loaderData.filters.validation, loaderData.filters.result));
  return (
    <div className="space-y-6">
      <PageHeader title={t.reports.title} description={t.reports.description} />

      <SearchForm label={t.reports.search} form={form}>
        <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-start">
          <DateRangeFields from={fields.from} to={fields.to} labels={{ from: t.reports.from, to: t.reports.to }} />
          <FilterSelect
            name="formId"
            label={t.reports.form}
            all={t.reports.allForms}
            choices={loaderData.forms.map((form) => ({ id: form.id, label: form.title }))}
            className="col-span-2 min-w-0 sm:w-60"
          />
          <FilterSelect
            name="groupId"
            label={t.reports.group}
            all={t.reports.allGroups}
            choices={loaderData.groups.map((group) => ({ id: group.id, label: group.name }))}
            className="col-span-2 min-w-0 sm:w-48"
          />
          <FilterSelect
            name="flagged"
            label={t.flags.filter}
            all={t.flags.filterAll}
            choices={FLAGGED_FILTERS.map((value) => ({ id: value, label: value === "true" ? t.flags.filterFlagged : t.flags.filterUnacknowledged }))}
            className="col-span-2 min-w-0 sm:w-56"
          />
        </div>
      </SearchForm>
      <ExportLinks params={params} />

      <section aria-label={t.reports.title} className="rounded-xl border border-slate-200 bg-white shadow-sm">
        {loaderData.reports.length === 0 ? (
          <EmptyState title={hasErrors ? (errors.from ?? errors.to) : t.reports.empty} description={hasErrors ? undefined : t.reports.emptyHint} />
        ) : (
          <>
            <div className="hidden lg:block print:block">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t.reports.title}</caption>
                <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      {t.reports.respondent}
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      {t.reports.form}
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      {t.reports.completedAt}
                    </th>
                    <th scope="col" className="px-4 py-3 text-right font-semibold">
                      {t.reports.score}
                    </th>
                    <th scope="col" className="px-4 py-3 text-right font-semibold">
                      {t.reports.percentage}
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      {t.reports.band}
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      {t.reports.assignedBy}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {loaderData.reports.map((report) => (
                    <tr key={report.id} className="hover:bg-slate-50">
                      <td className="px-4 py-3 font-medium wrap-anywhere text-slate-900">
                        <Link to={paths.report(locale, report.id)} className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                          {report.studentName}
                        </Link>
                      </td>
                      <td className="px-4 py-3 wrap-anywhere text-slate-700">{report.formTitle}</td>
                      <td className="px-4 py-3 whitespace-nowrap text-slate-700">{format.date(report.completedAt)}</td>
                      <td className="px-4 py-3 text-right whitespace-nowrap text-slate-700 tabular-nums">{totalOf(report).score}</td>
                      <td className="px-4 py-3 text-right text-slate-700 tabular-nums">
                        <PercentCell percent={totalOf(report).percent} />
                      </td>
                      <td className="px-4 py-3">
                        <span className="inline-flex flex-wrap items-center gap-1.5">
                          <ScoreBadge label={report.scoreLabel} color={report.scoreColor} />
                          <FlagMark result={report} />
                        </span>
                      </td>
                      <td className="px-4 py-3 wrap-anywhere text-slate-700">{report.assignedByName}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ul className="divide-y divide-slate-200 lg:hidden print:hidden">
              {loaderData.reports.map((report) => (
                <li key={report.id}>
                  <Link to={paths.report(locale, report.id)} className="flex items-start justify-between gap-3 px-4 py-3 hover:bg-slate-50 sm:px-5">
                    <div className="min-w-0">
                      <p className="font-medium wrap-anywhere text-slate-900">{report.studentName}</p>
                      <p className="text-sm wrap-anywhere text-slate-700">{report.formTitle}</p>
                      <p className="text-sm text-slate-600">
                        {format.date(report.completedAt)}
                        <span aria-hidden="true"> · </span>
                        {report.assignedByName}
                      </p>
                    </div>
                    <div className="flex shrink-0 flex-col items-end gap-1">
                      <ScoreBadge label={report.scoreLabel} color={report.scoreColor} />
                      <FlagMark result={report} />
                      <span className="text-sm font-medium text-slate-900 tabular-nums">{totalOf(report).headline}</span>
                      {totalOf(report).secondary === null ? null : <span className="text-sm text-slate-700 tabular-nums">{totalOf(report).secondary}</span>}
                    </div>
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <Pagination page={loaderData.page} limit={loaderData.limit} total={loaderData.total} />
    </div>
  );
}
