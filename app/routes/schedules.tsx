import { Link, redirect } from "react-router";
import type { Route } from "./+types/schedules";
import { LinkButton } from "~/components/button.tsx";
import { EmptyState } from "~/components/empty-state.tsx";
import { PlusIcon } from "~/components/icons.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { Pagination } from "~/components/pagination.tsx";
import { RowAction } from "~/components/row-action.tsx";
import { ScheduleState, scheduleWho } from "~/components/schedules/schedule-parts.tsx";
import { scheduleRowForm } from "~/features/schedules/schedule-page-forms.server.ts";
import { listSchedulesQuery } from "~/features/schedules/schedule-schemas.ts";
import { listSchedules, updateSchedule } from "~/features/schedules/schedules.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { pageQuery } from "~/lib/http.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, pageError, parsePageForm, postedIntent, readPagePost, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * The schedules the caller sees (docs/api-contract.md §18): a teacher's own, an administrator's
 * organization's, newest first, each with its next occurrence and its buttons: pause or resume
 * (here), change or delete (on its page, which asks before deleting).
 */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.schedules.title) }];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  // A page number the schema refuses shows the first page, as the other lists do.
  const parsed = listSchedulesQuery.safeParse(pageQuery(request, ["page"]));
  return listSchedules(actor, parsed.success ? parsed.data : listSchedulesQuery.parse({}));
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const formData = await readPagePost(request);
  const intent = postedIntent(formData, ["pause", "resume"]);
  if (!intent) return redirect(paths.schedules(locale));
  // A row's button: its id is a hidden field, so a malformed one names no schedule there is (the 404 page).
  const form = parsePageForm(formData, scheduleRowForm, pageTranslations(context, locale), { skip: ["intent"] });
  if (!form.ok) throw pageError(404);
  await forPage(updateSchedule(actor, form.value.id, { paused: intent === "pause" }));
  // Back to the page of the list the button was on.
  const back = new URL(request.url).searchParams.get("page");
  return redirectWithFlash(`${paths.schedules(locale)}${back ? `?page=${encodeURIComponent(back)}` : ""}`, {
    kind: "success",
    key: intent === "pause" ? "schedulePaused" : "scheduleResumed",
  });
}

export default function Schedules({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { schedules, total, page, limit } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader
        title={t.schedules.title}
        description={t.schedules.description}
        actions={
          <LinkButton to={paths.newSchedule(locale)} variant="primary" icon={<PlusIcon className="size-4" />}>
            {t.schedules.new}
          </LinkButton>
        }
      />
      <section aria-label={t.schedules.title} className="rounded-xl border border-slate-200 bg-white shadow-sm">
        {schedules.length === 0 ? (
          <EmptyState title={t.schedules.empty} description={t.schedules.emptyHint} />
        ) : (
          <ul className="divide-y divide-slate-200">
            {schedules.map((schedule) => (
              <li key={schedule.id} className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5">
                <div className="min-w-0 space-y-1">
                  <Link to={paths.schedule(locale, schedule.id)} className="font-medium wrap-anywhere text-indigo-700 underline-offset-2 hover:underline">
                    {schedule.form.title}
                  </Link>
                  <p className="text-sm wrap-anywhere text-slate-700">{scheduleWho(t, format, schedule)}</p>
                  <p className="text-sm text-slate-600">{t.schedules.every(schedule.everyDays, format.number(schedule.everyDays))}</p>
                  <ScheduleState schedule={schedule} />
                  {schedule.endedBecause ? <p className="text-sm text-slate-600">{t.schedules.endings[schedule.endedBecause]}</p> : null}
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-2">
                  {schedule.status === "ENDED" ? null : (
                    <RowAction
                      intent={schedule.paused ? "resume" : "pause"}
                      values={{ id: schedule.id }}
                      label={schedule.paused ? t.schedules.resume : t.schedules.pause}
                      name={(schedule.paused ? t.schedules.resumeNamed : t.schedules.pauseNamed)(schedule.form.title)}
                      variant="secondary"
                    />
                  )}
                  <LinkButton to={paths.schedule(locale, schedule.id)} size="sm" aria-label={t.schedules.editNamed(schedule.form.title)}>
                    {t.schedules.edit}
                  </LinkButton>
                  <LinkButton
                    to={`${paths.schedule(locale, schedule.id)}?confirm=delete`}
                    size="sm"
                    variant="danger"
                    aria-label={t.schedules.deleteNamed(schedule.form.title)}
                  >
                    {t.schedules.delete}
                  </LinkButton>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Pagination page={page} limit={limit} total={total} />
    </div>
  );
}
