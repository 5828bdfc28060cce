import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/forms.$id.summary";
import { ScoreBadge } from "~/components/badge.tsx";
import { Button } from "~/components/button.tsx";
import { BarTable, StackedBar } from "~/components/charts/bar-table.tsx";
import { Field } from "~/components/field.tsx";
import { FilterSelect } from "~/components/filter-select.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { getFormOfResults } from "~/features/forms/forms.server.ts";
import { groupChoices } from "~/features/groups/groups.server.ts";
import { formSummaryQuery, type FormSummary } from "~/features/summaries/form-summary-schemas.ts";
import { formSummary } from "~/features/summaries/form-summary.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { isAdmin } from "~/lib/auth/actor.server.ts";
import { forPage, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, fieldTexts } from "~/lib/problem.server.ts";
import { pageQuery } from "~/lib/http.server.ts";

/**
 * A form's results at a glance (docs/api-contract.md §13), from the same service as
 * GET /api/forms/:id/summary: the links by state, the spread of the totals, the results by band
 * on the band colours, and each question's answers. Charts are SVG drawn here, each with its
 * numbers as text, so the page works without JavaScript and prints. A form graded by an answer key
 * shows its most missed questions first; a form with results at more than one version can show
 * one version's (docs/api-contract.md §22).
 */
export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.summary.pageTitle(loaderData?.form.title ?? "")) }];
};

const STATE_COLORS = { completed: "#1a7f37", waiting: "#64748b", expired: "#b54708", revoked: "#b42318" } as const;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const t = pageTranslations(context, params.locale);
  const [form, groups] = await Promise.all([forPage(getFormOfResults(actor, params.id)), groupChoices(actor)]);
  // Empty inputs arrive as `from=`; a hand-edited value that is not a date, or a group since
  // deleted, is left out, as the lists do.
  const raw = pageQuery(request, ["from", "to", "groupId", "version"]);
  const parsed = formSummaryQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : {};
  if (query.groupId && !groups.some((group) => group.id === query.groupId)) delete query.groupId;
  let summary: FormSummary | null = null;
  let errors: { from?: string | undefined; to?: string | undefined } = {};
  try {
    summary = await formSummary(actor, form.id, query);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    const { from, to } = fieldTexts(t, error.errors);
    errors = { from, to };
  }
  // The form's editor is offered the rescore of the results scored against an earlier version.
  const editor = isAdmin(actor) || form.createdBy.id === actor.userId;
  const older = editor && summary ? summary.versions.filter((entry) => entry.version < form.version).reduce((sum, entry) => sum + entry.results, 0) : 0;
  return { form: { id: form.id, title: form.title }, groups, summary, errors, older };
}

export default function FormSummaryPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const format = useFormat();
  const [params] = useSearchParams();
  const { form, summary, errors, older } = loaderData;
  const versions = (summary?.versions ?? []).filter((entry) => entry.results > 0 || String(entry.version) === params.get("version"));
  return (
    <div className="space-y-6">
      <p className="print:hidden">
        <Link to={paths.form(locale, form.id)} className="text-sm font-medium text-indigo-700 hover:underline">
          ← {t.summary.back}
        </Link>
      </p>
      <PageHeader title={t.summary.pageTitle(form.title)} description={t.summary.description} />

      <Form method="get" className="flex flex-wrap items-end gap-3 print:hidden">
        <Field
          id="from"
          name="from"
          type="date"
          label={t.reports.from}
          defaultValue={params.get("from") ?? ""}
          key={`from-${params.get("from") ?? ""}`}
          error={errors.from ? [errors.from] : undefined}
          className="w-44"
        />
        <Field
          id="to"
          name="to"
          type="date"
          label={t.reports.to}
          defaultValue={params.get("to") ?? ""}
          key={`to-${params.get("to") ?? ""}`}
          error={errors.to ? [errors.to] : undefined}
          className="w-44"
        />
        <FilterSelect
          name="groupId"
          label={t.reports.group}
          all={t.reports.allGroups}
          choices={loaderData.groups.map((group) => ({ id: group.id, label: group.name }))}
          className="min-w-0 sm:w-56"
        />
        {versions.length > 1 ? (
          <FilterSelect
            name="version"
            label={t.summary.version}
            all={t.summary.allVersions}
            choices={versions.map((entry) => ({
              id: String(entry.version),
              label: t.summary.versionChoice(format.number(entry.version), entry.results, format.number(entry.results)),
            }))}
            className="min-w-0 sm:w-56"
          />
        ) : null}
        <Button type="submit" variant="secondary">
          {t.summary.show}
        </Button>
      </Form>

      {older > 0 ? (
        <p className="text-sm text-slate-700 print:hidden">
          {t.summary.olderResults(older, format.number(older))}{" "}
          <Link to={paths.formRescore(locale, form.id)} className="font-medium text-indigo-700 hover:underline">
            {t.summary.rescoreLink}
          </Link>
        </p>
      ) : null}

      {summary ? <SummaryBody summary={summary} /> : null}
    </div>
  );
}

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white px-4 py-5 shadow-sm break-inside-avoid sm:px-6 print:border-slate-400 print:shadow-none">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Numbers({ items }: { items: { label: string; value: string }[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
      {items.map((item) => (
        <div key={item.label} className="rounded-lg bg-slate-50 px-3 py-2">
          <dt className="text-sm text-slate-600">{item.label}</dt>
          <dd className="text-xl font-semibold text-slate-900 tabular-nums">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function SummaryBody({ summary }: { summary: FormSummary }) {
  const t = useT();
  const format = useFormat();
  const n = (value: number | null) => (value === null ? "–" : format.number(value));
  const inBands = summary.bands.reduce((sum, band) => sum + band.count, 0);
  const share = (rate: number) => format.number(rate, { style: "percent", maximumFractionDigits: 1 });
  const questionText = new Map(summary.questions.map((question, i) => [question.id, `${i + 1}. ${question.text}`]));
  return (
    <>
      {summary.missed.length > 0 ? (
        <Panel title={t.summary.missed}>
          <p className="text-sm text-slate-600">{t.summary.missedDescription}</p>
          <ol className="mt-3 divide-y divide-slate-100 text-sm">
            {summary.missed.map((entry) => (
              <li key={entry.questionId} className="flex justify-between gap-3 py-2">
                <span className="wrap-anywhere text-slate-800">{questionText.get(entry.questionId)}</span>
                <span className="shrink-0 text-slate-700 tabular-nums">{t.summary.correct(share(entry.correctRate))}</span>
              </li>
            ))}
          </ol>
        </Panel>
      ) : null}

      <Panel title={t.summary.links}>
        <Numbers
          items={[
            { label: t.summary.assigned, value: n(summary.assigned) },
            { label: t.summary.completed, value: n(summary.completed) },
            { label: t.summary.waiting, value: n(summary.pending) },
            { label: t.summary.expired, value: n(summary.expired) },
            { label: t.summary.revoked, value: n(summary.revoked) },
          ]}
        />
        <div className="mt-4">
          <StackedBar
            label={t.summary.linksChart(n(summary.completed), n(summary.pending), n(summary.expired), n(summary.revoked))}
            parts={[
              { key: "completed", value: summary.completed, color: STATE_COLORS.completed },
              { key: "waiting", value: summary.pending, color: STATE_COLORS.waiting },
              { key: "expired", value: summary.expired, color: STATE_COLORS.expired },
              { key: "revoked", value: summary.revoked, color: STATE_COLORS.revoked },
            ]}
          />
        </div>
      </Panel>

      <Panel title={t.summary.scores}>
        {summary.completed === 0 ? (
          <p className="text-slate-600">{t.summary.noResults}</p>
        ) : (
          <Numbers
            items={[
              { label: t.summary.mean, value: n(summary.score.mean) },
              { label: t.summary.median, value: n(summary.score.median) },
              { label: t.summary.lowest, value: n(summary.score.min) },
              { label: t.summary.highest, value: n(summary.score.max) },
            ]}
          />
        )}
      </Panel>

      {summary.bands.length > 0 ? (
        <Panel title={t.summary.bands}>
          <StackedBar
            label={t.summary.bandsChart(summary.bands.map((band) => `${band.label} ${format.number(band.count)}`).join(", "))}
            parts={summary.bands.map((band, i) => ({ key: String(i), value: band.count, color: band.color }))}
          />
          <BarTable
            className="mt-4"
            caption={t.summary.bandsCaption}
            headers={[t.summary.band, t.summary.range, t.summary.results, t.summary.share]}
            total={summary.completed}
            rows={summary.bands.map((band, i) => ({
              key: String(i),
              value: band.count,
              color: band.color,
              cells: [<ScoreBadge key="badge" label={band.label} color={band.color} />, t.reports.bandRange(format.number(band.min), format.number(band.max))],
            }))}
          />
          {summary.completed > inBands ? <p className="mt-3 text-sm text-slate-600">{t.summary.noBand(format.number(summary.completed - inBands))}</p> : null}
        </Panel>
      ) : null}

      {summary.subscales.length > 0 ? (
        <Panel title={t.summary.subscales}>
          <table className="w-full text-sm">
            <caption className="sr-only">{t.summary.subscalesCaption}</caption>
            <thead>
              <tr className="text-left text-slate-600">
                <th scope="col" className="py-1 pr-4 font-medium">
                  {t.summary.subscale}
                </th>
                {[t.summary.results, t.summary.mean, t.summary.lowest, t.summary.highest].map((header) => (
                  <th key={header} scope="col" className="py-1 pl-4 text-right font-medium">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {summary.subscales.map((subscale) => (
                <tr key={subscale.key} className="border-t border-slate-200">
                  <th scope="row" className="py-2 pr-4 text-left font-medium text-slate-900">
                    {subscale.name}
                  </th>
                  {(
                    [
                      ["scored", subscale.scored],
                      ["mean", subscale.mean],
                      ["min", subscale.min],
                      ["max", subscale.max],
                    ] as const
                  ).map(([column, value]) => (
                    <td key={column} className="py-2 pl-4 text-right text-slate-700 tabular-nums">
                      {format.number(value)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      ) : null}

      <Panel title={t.summary.questions}>
        <ol className="space-y-6">
          {summary.questions.map((question, i) => (
            <li key={question.id} className="break-inside-avoid">
              <h3 className="font-medium text-slate-900">
                <span className="text-slate-500">{i + 1}. </span>
                {question.text}
              </h3>
              {question.type === "TEXT" ? (
                <p className="mt-1 text-sm text-slate-600">{t.summary.written(format.number(question.answered))}</p>
              ) : (
                <BarTable
                  className="mt-1"
                  caption={
                    <span className="text-sm font-normal text-slate-600">
                      <span className="sr-only">{t.summary.optionsCaption(i + 1)}: </span>
                      {t.summary.answered(format.number(question.answered))}
                      {question.meanScore !== null ? `, ${t.summary.meanScore(format.number(question.meanScore))}` : ""}
                      {question.correctRate !== null ? `, ${t.summary.correct(share(question.correctRate))}` : ""}
                    </span>
                  }
                  headers={[t.summary.option, t.summary.chosen, t.summary.share]}
                  total={question.answered}
                  rows={question.options.map((option) => ({ key: option.id, value: option.count, cells: [option.text] }))}
                />
              )}
            </li>
          ))}
        </ol>
      </Panel>
    </>
  );
}
