import { useForm } from "@conform-to/react/future";
import { Form, Link } from "react-router";
import type { Route } from "./+types/schedules.new";
import { Alert } from "~/components/alert.tsx";
import { FormChoice, RespondentChoice, RespondentSearch } from "~/components/assignments/respondent-fields.tsx";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { ScheduleTimingInputs, timingLabels } from "~/components/schedules/schedule-parts.tsx";
import { respondentChoices } from "~/features/assignments/assignments.server.ts";
import { newSchedulePageForm } from "~/features/schedules/schedule-page-forms.server.ts";
import { createSchedule } from "~/features/schedules/schedules.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { pageQuery } from "~/lib/http.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { parsePagePost, refusal, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, fieldTexts, problemTextOf } from "~/lib/problem.server.ts";
import { dayIn } from "~/lib/zoned-time.ts";

/**
 * "Repeat a questionnaire" (docs/api-contract.md §18): a schedule of one form for a group, a student or
 * a candidate. The form, group and person pages link here with theirs chosen (`formId`, `groupId`,
 * `studentId`, `candidateId` in the address); the first day is today unless changed, weekly unless changed.
 */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.schedules.newTitle) }];
};

/** The address's parameters the page is opened with, which its search keeps. */
const CHOSEN = ["formId", "groupId", "studentId", "candidateId"] as const;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const query = pageQuery(request, ["q", "respondent", ...CHOSEN]);
  const choices = await respondentChoices(actor, query);
  const today = dayIn(new Date(), actor.timeZone);
  return {
    ...choices,
    today,
    selected: { formId: query.formId ?? "", respondent: choices.respondent, startsAt: today, everyDays: "7" },
    validation: clientValidation(newSchedulePageForm, pageTranslations(context, params.locale)),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const form = await parsePagePost(request, newSchedulePageForm, t);
  if (!form.ok) return form.reply;
  const { formId, respondent, send, ...timing } = form.value;
  const who = {
    ...(respondent.groupId ? { groupId: respondent.groupId } : {}),
    ...(respondent.studentId ? { studentIds: [respondent.studentId] } : {}),
    ...(respondent.candidateId ? { candidateIds: [respondent.candidateId] } : {}),
  };
  try {
    const { schedule } = await createSchedule(actor, { formId, ...who, ...timing, send: send ?? false });
    throw await redirectWithFlash(paths.schedule(locale, schedule.id), { kind: "success", key: "scheduleCreated" });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A day already past, or an end before the start: by its field. Too many people: the respondent's.
    if (error.status === 400) {
      const errors = (error.errors ?? []).map((problem) => (["groupId", "studentIds"].includes(problem.path) ? { ...problem, path: "respondent" } : problem));
      return refusal(form.submission, { fieldErrors: fieldTexts(t, errors), formError: null }, 400);
    }
    if (error.status === 404 || error.status === 409) {
      return refusal(
        form.submission,
        { fieldErrors: {}, formError: error.status === 409 ? t.assignments.errors.notPublished : t.assignments.errors.notFound },
        400,
      );
    }
    return refusal(form.submission, { fieldErrors: {}, formError: problemTextOf(t, error) }, error.status);
  }
}

export default function NewSchedule({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { form, fields } = useForm(pageFormOptions(loaderData.validation, actionData?.result, loaderData.selected));
  const labels: Record<string, string> = { formId: t.assignments.form, respondent: t.assignments.respondent, ...timingLabels(t, "first") };
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader title={t.schedules.newTitle} description={t.schedules.newDescription} />

      <ErrorSummary form={form} fields={Object.keys(labels)} label={(name) => labels[name]} />

      <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <RespondentSearch q={loaderData.q} keep={CHOSEN} />

        <Form method="post" className="mt-6 space-y-6 border-t border-slate-200 pt-6" {...form.props}>
          <CsrfInput />
          {loaderData.forms.length === 0 ? <Alert tone="warning" title={t.assignments.noForms} /> : null}
          <FormChoice field={fields.formId} forms={loaderData.forms} />
          <RespondentChoice field={fields.respondent} choices={loaderData} />
          <ScheduleTimingInputs fields={fields} start="first" today={loaderData.today} />
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" variant="primary" pendingText={t.schedules.creating}>
              {t.schedules.create}
            </Button>
            <Link to={paths.schedules(locale)} className="text-sm font-medium text-indigo-700 underline hover:underline">
              {t.schedules.title}
            </Link>
          </div>
        </Form>
      </div>
    </div>
  );
}
