import { useForm } from "@conform-to/react/future";
import type { ReactNode } from "react";
import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/schedules.$id";
import { Alert } from "~/components/alert.tsx";
import { Badge } from "~/components/badge.tsx";
import { Button, LinkButton } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { PageHeader, Section } from "~/components/page-header.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { BackLink, Confirmation } from "~/components/people/person-detail.tsx";
import { ScheduleState, ScheduleTimingInputs, scheduleWho, timingLabels } from "~/components/schedules/schedule-parts.tsx";
import { CLEARED_WHEN_EMPTY, editSchedulePageForm } from "~/features/schedules/schedule-page-forms.server.ts";
import { deleteSchedule, getSchedule, updateSchedule } from "~/features/schedules/schedules.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { pageQuery } from "~/lib/http.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, parsePageForm, postedIntent, readPagePost, serviceRefusal, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { dayIn } from "~/lib/zoned-time.ts";

/**
 * One schedule (docs/api-contract.md §18): what it gives and to whom, its next occurrence, its
 * change (when and how the occurrences run), pause or resume, delete (asked first, `?confirm=delete`)
 * and the occurrences so far, a missed or failed one with the reason.
 */
export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData ? t.schedules.titleOf(loaderData.schedule.form.title) : t.schedules.title) }];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const { schedule, occurrences } = await forPage(getSchedule(actor, params.id));
  const form = schedule.status === "ENDED" && schedule.endedBecause !== "FINISHED" ? null : schedule;
  const value = (number: number | null) => (number === null ? "" : String(number));
  return {
    schedule,
    occurrences,
    confirm: pageQuery(request, ["confirm"]).confirm === "delete",
    today: dayIn(new Date(), actor.timeZone),
    // What the change's form shows: the schedule as it is (the next day, when there is one).
    current: form && {
      startsAt: schedule.nextOccurrence?.day ?? "",
      everyDays: String(schedule.everyDays),
      endsAt: schedule.endsAt ?? "",
      count: value(schedule.count),
      send: schedule.send ? "on" : "",
      remindAfterDays: value(schedule.remindAfterDays),
      expiresAfterDays: value(schedule.expiresAfterDays),
    },
    validation: clientValidation(editSchedulePageForm, pageTranslations(context, params.locale)),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const formData = await readPagePost(request);
  const here = paths.schedule(locale, params.id);
  switch (postedIntent(formData, ["save", "pause", "resume", "delete"])) {
    case "save": {
      const form = parsePageForm(formData, editSchedulePageForm, t, { skip: ["intent"], clearWhenEmpty: CLEARED_WHEN_EMPTY });
      if (!form.ok) return form.reply;
      const { startsAt, ...change } = form.value;
      try {
        // The next day as shown is no change: only a day chosen moves the next occurrence.
        const { schedule } = await forPage(getSchedule(actor, params.id));
        const moved = startsAt !== undefined && startsAt !== schedule.nextOccurrence?.day;
        await updateSchedule(actor, params.id, { ...change, ...(moved ? { startsAt } : {}) });
      } catch (error) {
        return serviceRefusal(t, form.submission, error);
      }
      return redirectWithFlash(here, { kind: "success", key: "scheduleSaved" });
    }
    case "pause":
    case "resume": {
      const resume = formData.get("intent") === "resume";
      await forPage(updateSchedule(actor, params.id, { paused: !resume }));
      return redirectWithFlash(here, { kind: "success", key: resume ? "scheduleResumed" : "schedulePaused" });
    }
    case "delete":
      await forPage(deleteSchedule(actor, params.id));
      return redirectWithFlash(paths.schedules(locale), { kind: "success", key: "scheduleDeleted" });
    default:
      // No button sends anything else: back to the page, unchanged.
      return redirect(here);
  }
}

export default function SchedulePage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { schedule, occurrences, confirm, current } = loaderData;
  const here = paths.schedule(locale, schedule.id);
  const count = (days: number | null, words: (days: number, formatted: string) => string) =>
    days === null ? t.schedules.none : words(days, format.number(days));
  const rows: [string, ReactNode][] = [
    [
      t.assignments.form,
      <Link key="form" to={paths.form(locale, schedule.form.id)} className="text-indigo-700 underline">
        {schedule.form.title}
      </Link>,
    ],
    [t.schedules.who, scheduleWho(t, format, schedule)],
    [t.schedules.repeats, t.schedules.every(schedule.everyDays, format.number(schedule.everyDays))],
    [t.schedules.startsAt, format.day(schedule.startsAt)],
    [
      t.schedules.ends,
      schedule.endsAt
        ? format.day(schedule.endsAt)
        : schedule.count !== null
          ? t.schedules.afterTimes(schedule.count, format.number(schedule.count))
          : t.schedules.never,
    ],
    [t.schedules.nextOccurrence, schedule.nextOccurrence ? format.dateTime(schedule.nextOccurrence.at) : t.schedules.none],
    [t.schedules.email, schedule.send ? t.schedules.emailed : t.schedules.notEmailed],
    [t.schedules.reminder, count(schedule.remindAfterDays, t.schedules.afterDays)],
    [
      t.schedules.linkExpiry,
      schedule.expiresAfterDays === null ? t.assignments.noExpiry : t.schedules.afterDays(schedule.expiresAfterDays, format.number(schedule.expiresAfterDays)),
    ],
    [t.schedules.occurrencesRun, format.number(schedule.occurrencesRun)],
    [t.schedules.madeBy, schedule.createdBy.name],
  ];
  return (
    <div className="space-y-6">
      <BackLink to={paths.schedules(locale)} />
      <PageHeader
        title={t.schedules.titleOf(schedule.form.title)}
        description={<ScheduleState schedule={schedule} />}
        actions={
          <>
            {schedule.status === "ACTIVE" || schedule.status === "PAUSED" ? (
              <Form method="post">
                <CsrfInput />
                <Button type="submit" name="intent" value={schedule.status === "ACTIVE" ? "pause" : "resume"} pendingText={t.common.working}>
                  {schedule.status === "ACTIVE" ? t.schedules.pause : t.schedules.resume}
                </Button>
              </Form>
            ) : null}
            {confirm ? null : (
              <LinkButton id="delete-button" to={`${here}?confirm=delete`} variant="danger" preventScrollReset>
                {t.schedules.delete}
              </LinkButton>
            )}
          </>
        }
      />
      {confirm ? (
        <Confirmation
          title={t.schedules.deleteTitle}
          text={t.schedules.deleteText}
          intent="delete"
          confirmLabel={t.schedules.confirmDelete}
          pendingText={t.schedules.deleting}
          cancelTo={here}
          returnTo="delete-button"
        />
      ) : null}
      {schedule.status === "PAUSED" ? <Alert tone="warning">{t.schedules.pausedNote}</Alert> : null}
      {schedule.endedBecause ? <Alert tone="info">{t.schedules.endings[schedule.endedBecause]}</Alert> : null}

      <Section id="details" title={t.schedules.details}>
        <dl className="divide-y divide-slate-200">
          {rows.map(([term, description]) => (
            <div key={term} className="grid gap-1 px-4 py-3 sm:grid-cols-3 sm:px-5">
              <dt className="text-sm font-medium text-slate-700">{term}</dt>
              <dd className="text-sm wrap-anywhere text-slate-900 sm:col-span-2">{description}</dd>
            </div>
          ))}
        </dl>
      </Section>

      {current ? <ScheduleChange current={current} today={loaderData.today} validation={loaderData.validation} result={actionData?.result} /> : null}

      <Section id="occurrences" title={t.schedules.occurrencesTitle} description={t.schedules.occurrencesDescription}>
        {occurrences.length === 0 ? (
          <p className="px-4 py-5 text-sm text-slate-600 sm:px-5">{t.schedules.noOccurrences}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-slate-700">
                <tr>
                  {[t.schedules.day, t.schedules.result, t.schedules.created, t.schedules.skipped, t.schedules.why].map((heading) => (
                    <th key={heading} scope="col" className="px-4 py-2 font-semibold sm:px-5">
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {occurrences.map((occurrence) => (
                  <tr key={occurrence.day}>
                    <th scope="row" className="px-4 py-2 text-left font-medium whitespace-nowrap text-slate-900 sm:px-5">
                      {format.day(occurrence.day)}
                    </th>
                    <td className="px-4 py-2 sm:px-5">
                      <Badge tone={occurrence.status === "DONE" ? "success" : occurrence.status === "MISSED" ? "warning" : "danger"}>
                        {t.schedules.occurrenceStatuses[occurrence.status as keyof typeof t.schedules.occurrenceStatuses]}
                      </Badge>
                    </td>
                    <td className="px-4 py-2 sm:px-5">{format.number(occurrence.created)}</td>
                    <td className="px-4 py-2 sm:px-5">{format.number(occurrence.skipped)}</td>
                    <td className="px-4 py-2 text-slate-700 sm:px-5">
                      {occurrence.status === "MISSED"
                        ? t.schedules.missedNote
                        : occurrence.reason
                          ? (t.schedules.reasons[occurrence.reason as keyof typeof t.schedules.reasons] ?? t.schedules.otherReason)
                          : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </div>
  );
}

/** The change's form: when and how the occurrences run. */
function ScheduleChange({
  current,
  today,
  validation,
  result,
}: {
  current: Record<string, string>;
  today: string;
  validation: Route.ComponentProps["loaderData"]["validation"];
  result: Parameters<typeof pageFormOptions>[1];
}) {
  const t = useT();
  const { form, fields } = useForm(pageFormOptions(validation, result, current));
  const labels = timingLabels(t, "next");
  return (
    <Section id="change" title={t.schedules.editTitle} description={t.schedules.editDescription}>
      <div className="space-y-5 px-4 py-5 sm:px-5">
        <ErrorSummary form={form} fields={Object.keys(labels)} label={(name) => labels[name]} />
        <Form method="post" className="space-y-6" {...form.props}>
          <CsrfInput />
          <ScheduleTimingInputs fields={fields} start="next" today={today} />
          <Button type="submit" name="intent" value="save" variant="primary" pendingText={t.common.saving}>
            {t.common.save}
          </Button>
        </Form>
      </div>
    </Section>
  );
}
