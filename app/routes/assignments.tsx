import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/assignments";
import { Badge, ScoreBadge } from "~/components/badge.tsx";
import { Button, LinkButton } from "~/components/button.tsx";
import { CopyField } from "~/components/copy-field.tsx";
import { EmptyState } from "~/components/empty-state.tsx";
import { Select } from "~/components/field.tsx";
import { SendIcon } from "~/components/icons.tsx";
import { FilterSelect } from "~/components/filter-select.tsx";
import { PageHeader, Section } from "~/components/page-header.tsx";
import { Pagination } from "~/components/pagination.tsx";
import { ASSIGNMENT_STATES } from "~/features/assignments/assignment-states.ts";
import { assignedForms, listAssignments, listAssignmentsQuery } from "~/features/assignments/assignments.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT, useTotalText } from "~/i18n/hooks.ts";
import { capturedDisplays } from "~/features/scoring/score-display.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { readPagePost, staffPageActor } from "~/lib/page.server.ts";
import { progressForPage } from "~/features/submissions/progress.server.ts";
import { remindFromPage } from "~/features/submissions/remind-page.server.ts";
import { FormProgressList } from "~/components/assignments/form-progress.tsx";
import { paths } from "~/lib/paths.ts";
import { pageQuery } from "~/lib/http.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.assignments.title) }];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const parsed = listAssignmentsQuery.safeParse(pageQuery(request, ["page", "limit", "state", "formId"]));
  const query = parsed.success ? parsed.data : listAssignmentsQuery.parse({});
  // Progress at a glance: the chosen form's, or the forms with links still waiting.
  const [list, forms, progress] = await Promise.all([
    listAssignments(actor, query, { locale: resolveLocale(params.locale) }),
    assignedForms(actor),
    progressForPage(actor, { formId: query.formId }),
  ]);
  // How each completed result shows its total (ADR 79), which the API's list does not carry.
  const displays = await capturedDisplays(list.assignments.filter((a) => a.state === "completed").map((a) => a.id));
  return { ...list, forms, progress, displays: Object.fromEntries(displays) };
}

/** "Remind now" on one form's card. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  return remindFromPage(actor, await readPagePost(request));
}

const STATE_TONE = { pending: "info", completed: "success", expired: "warning", revoked: "neutral" } as const;

export default function Assignments({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const totalOf = useTotalText();
  const locale = useLocale();
  const [params] = useSearchParams();
  const filtered = params.has("state") || params.has("formId");
  return (
    <div className="space-y-6">
      <PageHeader
        title={t.assignments.title}
        description={t.assignments.description}
        actions={
          <LinkButton to={paths.newAssignment(locale)} variant="primary" icon={<SendIcon className="size-4" />}>
            {t.assignments.newTitle}
          </LinkButton>
        }
      />

      {loaderData.progress.length > 0 ? (
        <Section id="progress" title={t.progress.title} description={t.progress.assignmentsDescription}>
          <FormProgressList items={loaderData.progress} reminded={actionData?.reminded} />
        </Section>
      ) : null}

      <Form method="get" aria-label={t.assignments.filterLabel} className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <Select
          name="state"
          label={t.assignments.state}
          defaultValue={params.get("state") ?? ""}
          key={`state-${params.get("state") ?? ""}`}
          placeholder={t.assignments.allStates}
          options={ASSIGNMENT_STATES.map((state) => ({ value: state, label: t.assignments.states[state] }))}
          className="sm:w-48"
        />
        <FilterSelect
          name="formId"
          label={t.assignments.form}
          all={t.assignments.allForms}
          choices={loaderData.forms.map((form) => ({ id: form.id, label: form.title }))}
          className="min-w-0 sm:w-72"
        />
        <div className="flex gap-2">
          <Button type="submit" variant="secondary">
            {t.common.filter}
          </Button>
          {filtered ? (
            <Link
              to={paths.assignments(locale)}
              className="inline-flex min-h-10 items-center px-2 text-sm font-medium text-indigo-700 underline hover:text-indigo-900"
            >
              {t.common.clear}
            </Link>
          ) : null}
        </div>
      </Form>

      <section aria-label={t.assignments.title} className="rounded-xl border border-slate-200 bg-white shadow-sm">
        {loaderData.assignments.length === 0 ? (
          <EmptyState title={t.assignments.empty} description={filtered ? undefined : t.assignments.emptyHint} />
        ) : (
          <ul className="divide-y divide-slate-200">
            {loaderData.assignments.map((a) => (
              <li key={a.id} className="px-4 py-4 sm:px-5" data-state={a.state}>
                <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      <Link
                        to={paths.assignment(locale, a.id)}
                        className="min-w-0 font-medium wrap-anywhere text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
                      >
                        {a.respondent.name}
                      </Link>
                      <Badge>{t.respondent[a.respondent.kind]}</Badge>
                      <Badge tone={STATE_TONE[a.state]}>{t.assignments.states[a.state]}</Badge>
                    </div>
                    <p className="mt-0.5 text-sm wrap-anywhere text-slate-700">{a.form.title}</p>
                    <p className="mt-0.5 text-sm text-slate-600">
                      {t.assignments.assigned(format.date(a.createdAt))}
                      {a.state === "completed" && a.completedAt ? (
                        <>
                          <span aria-hidden="true"> · </span>
                          {t.assignments.completed(format.date(a.completedAt))}
                        </>
                      ) : a.expiresAt ? (
                        <>
                          <span aria-hidden="true"> · </span>
                          {a.state === "expired" ? t.assignments.expired(format.dateTime(a.expiresAt)) : t.assignments.expires(format.dateTime(a.expiresAt))}
                        </>
                      ) : null}
                    </p>
                  </div>
                  {a.state === "completed" ? (
                    <div className="flex shrink-0 items-center gap-3 sm:flex-col sm:items-end sm:gap-1">
                      <ScoreBadge label={a.scoreLabel} color={a.scoreColor} />
                      {a.totalScore !== null ? (
                        <span className="text-sm text-slate-700 tabular-nums">
                          {totalOf({ ...a, display: loaderData.displays[a.id] ?? "PERCENT" }).headline}
                        </span>
                      ) : null}
                      <Link to={paths.report(locale, a.id)} className="text-sm font-medium text-indigo-700 underline hover:text-indigo-900">
                        {t.assignments.viewReport}
                        <span className="sr-only">: {a.respondent.name}</span>
                      </Link>
                    </div>
                  ) : null}
                </div>
                {a.url ? (
                  <div className="mt-3">
                    <CopyField id={`link-${a.id}`} value={a.url} label={t.home.linkLabel(a.respondent.name, a.form.title)} />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <Pagination page={loaderData.page} limit={loaderData.limit} total={loaderData.total} />
    </div>
  );
}
