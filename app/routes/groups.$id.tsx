import { Form, Link, data, redirect } from "react-router";
import type { Route } from "./+types/groups.$id";
import type { PageRefusal } from "~/lib/page.server.ts";
import { Alert } from "~/components/alert.tsx";
import { Badge } from "~/components/badge.tsx";
import { Button, LinkButton } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { DangerDetails } from "~/components/danger-details.tsx";
import { controlClasses } from "~/components/field.tsx";
import { SearchIcon } from "~/components/icons.tsx";
import { PageHeader, Section } from "~/components/page-header.tsx";
import { RowAction } from "~/components/row-action.tsx";
import { BackLink } from "~/components/people/person-detail.tsx";
import { StatusBadge } from "~/components/people/status-badge.tsx";
import { groupMembersBody, groupStaffBody } from "~/features/groups/group-schemas.ts";
import { colleaguesToAdd, getGroupStaff, ownsGroup, replaceGroupStaff } from "~/features/groups/group-staff.server.ts";
import { GroupStaffSection, STAFF_INTENT } from "~/components/groups/group-staff.tsx";
import { addGroupMembers, canChangeGroup, deleteGroup, getGroup, peopleToAdd, removeGroupMembers } from "~/features/groups/groups.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, pageError, parsePageForm, postedIntent, readPagePost, serviceRefusal, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { FormProgressList } from "~/components/assignments/form-progress.tsx";
import { progressForPage } from "~/features/submissions/progress.server.ts";
import { GroupResultsTable } from "~/components/groups/group-results.tsx";
import { groupResults } from "~/features/summaries/group-results.server.ts";
import { remindFromPage } from "~/features/submissions/remind-page.server.ts";
import { pageQuery } from "~/lib/http.server.ts";

/**
 * A group's page: its members and its staff; for its owners and editors and the administrators
 * the ways to change it (add people found by name, ticked in a list, one post; remove one; edit;
 * delete), and for its owners and the administrators its staff. Every change is a plain POST
 * answered by a redirect back here with a message.
 */
export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData?.group.name ?? t.groups.title) }];
};

/** How many forms the group's results show side by side. */
const RESULT_FORMS = 6;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const group = await forPage(getGroup(actor, params.id));
  const [canChange, owns, { staff }] = await Promise.all([canChangeGroup(actor, params.id), ownsGroup(actor, params.id), getGroupStaff(actor, params.id)]);
  const q = (pageQuery(request, ["q"]).q ?? "").trim().slice(0, 200);
  const [people, progress, colleagues] = await Promise.all([
    canChange ? peopleToAdd(actor, params.id, q || undefined) : null,
    progressForPage(actor, { groupId: params.id }),
    owns ? colleaguesToAdd(actor, params.id) : null,
  ]);
  // The grade book's columns: the group's most recently assigned forms.
  const resultForms = progress.slice(0, RESULT_FORMS).map((item) => item.form);
  const results = await groupResults(
    actor,
    params.id,
    resultForms.map((form) => form.id),
  );
  return { group, canChange, q, people, progress, resultForms, results, staff, colleagues };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const formData = await readPagePost(request);
  const back = paths.group(locale, params.id);
  switch (postedIntent(formData, ["remind", "add", "remove", STAFF_INTENT, "delete"])) {
    // Any teacher who may assign to the group may remind its members of their links.
    case "remind":
      return remindFromPage(actor, formData);
    case "add": {
      // The ticked people, read as POST /api/groups/:id/members reads them: the same cap per call.
      const form = parsePageForm(formData, groupMembersBody, t, { skip: ["intent"] });
      if (!form.ok) return data({ membersError: Object.values(form.fieldErrors).join(" ") }, { status: 400 });
      if (form.value.studentIds.length + form.value.candidateIds.length > 0) await forPage(addGroupMembers(actor, params.id, form.value));
      return redirectWithFlash(back, { kind: "success", key: "membersAdded" });
    }
    case "remove": {
      // A member's row posts its id as DELETE /api/groups/:id/members takes it; a malformed one names nobody there is.
      const form = parsePageForm(formData, groupMembersBody, t, { skip: ["intent"] });
      if (!form.ok) throw pageError(404);
      await forPage(removeGroupMembers(actor, params.id, form.value));
      return redirectWithFlash(back, { kind: "success", key: "membersRemoved" });
    }
    case STAFF_INTENT: {
      // Each staff form posts the whole staff it leaves, as PUT /api/groups/:id/staff takes it;
      // its refusals (no owner left, a stranger named) are shown above the staff in the page's language.
      const form = parsePageForm(formData, groupStaffBody, t, { skip: ["intent"], listsWhenAbsent: ["staff"] });
      if (!form.ok) return form.reply;
      try {
        await replaceGroupStaff(actor, params.id, form.value);
      } catch (error) {
        return serviceRefusal(t, form.submission, error);
      }
      return redirectWithFlash(back, { kind: "success", key: "staffChanged" });
    }
    case "delete":
      await forPage(deleteGroup(actor, params.id));
      return redirectWithFlash(paths.groups(locale), { kind: "success", key: "deleted" });
    default:
      // No button sends anything else: back to the page, unchanged.
      return redirect(back);
  }
}

/** The messages of a refused staff form, already in the page's language. */
const refusalTexts = (result: PageRefusal["result"]) =>
  [...(result.error?.formErrors ?? []), ...Object.values(result.error?.fieldErrors ?? {}).flat()].filter((text): text is string => !!text);

export default function GroupPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { group, canChange, people, q } = loaderData;
  return (
    <div className="space-y-6">
      <BackLink to={paths.groups(locale)} />
      <PageHeader
        title={group.name}
        description={group.description ?? undefined}
        actions={
          <>
            {canChange ? <LinkButton to={paths.editGroup(locale, group.id)}>{t.groups.edit}</LinkButton> : null}
            {group.members.length > 0 ? (
              <LinkButton to={`${paths.newAssignment(locale)}?respondent=group:${group.id}`} variant="primary">
                {t.groups.assign}
              </LinkButton>
            ) : null}
            <LinkButton to={`${paths.newSchedule(locale)}?groupId=${group.id}`}>{t.schedules.repeat}</LinkButton>
          </>
        }
      />
      {canChange ? null : <Alert tone="info">{t.groups.readOnly}</Alert>}

      {group.members.length > 0 ? (
        <Section id="progress" title={t.progress.title} description={t.progress.groupDescription}>
          {loaderData.progress.length === 0 ? (
            <p className="px-4 py-5 text-sm text-slate-600 sm:px-5">{t.progress.groupEmpty}</p>
          ) : (
            <FormProgressList
              items={loaderData.progress}
              groupId={group.id}
              reminded={actionData && "reminded" in actionData ? actionData.reminded : undefined}
            />
          )}
        </Section>
      ) : null}

      {group.members.length > 0 && loaderData.resultForms.length > 0 ? (
        <Section id="results" title={t.groups.results.title} description={t.groups.results.description}>
          <GroupResultsTable groupId={group.id} members={group.members} forms={loaderData.resultForms} results={loaderData.results} />
        </Section>
      ) : null}

      <Section id="members" title={`${t.groups.membersTitle} (${format.number(group.members.length)})`}>
        {group.members.length === 0 ? (
          <p className="px-4 py-5 text-sm text-slate-600 sm:px-5">{t.groups.noMembers}</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {group.members.map((member) => (
              <li key={`${member.kind}-${member.id}`} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-5">
                <div className="flex min-w-0 flex-wrap items-center gap-2">
                  <Link
                    to={member.kind === "student" ? paths.student(locale, member.id) : paths.candidate(locale, member.id)}
                    className="font-medium wrap-anywhere text-indigo-700 underline-offset-2 hover:underline"
                  >
                    {member.name}
                  </Link>
                  <Badge tone="info">{t.groups.kinds[member.kind]}</Badge>
                  <StatusBadge kind={member.kind === "student" ? "students" : "candidates"} status={member.status} />
                </div>
                {canChange ? (
                  <RowAction
                    intent="remove"
                    values={{ [member.kind === "student" ? "studentIds" : "candidateIds"]: member.id }}
                    label={t.groups.remove}
                    name={t.groups.removeNamed(member.name)}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <GroupStaffSection
        staff={loaderData.staff}
        colleagues={loaderData.colleagues}
        errors={actionData && "result" in actionData ? refusalTexts(actionData.result) : []}
      />

      {people ? (
        <Section id="add-members" title={t.groups.addTitle} description={t.groups.addHint}>
          <div className="space-y-4 px-4 py-5 sm:px-5">
            {actionData && "membersError" in actionData ? <Alert tone="error">{actionData.membersError}</Alert> : null}
            <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <div className="min-w-0 flex-1">
                <label htmlFor="people-search" className="block text-sm font-medium text-slate-900">
                  {t.groups.findPeople}
                </label>
                <div className="relative mt-1.5">
                  <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
                  <input id="people-search" type="search" name="q" defaultValue={q} key={q} className={`${controlClasses(false)} pl-9`} />
                </div>
              </div>
              <Button type="submit" variant="secondary">
                {t.common.search}
              </Button>
            </Form>
            {people.students.length + people.candidates.length === 0 ? (
              <p className="text-sm text-slate-600">{t.groups.nothingFound}</p>
            ) : (
              <Form method="post" className="space-y-4">
                <CsrfInput />
                {(
                  [
                    ["student", "studentIds", people.students],
                    ["candidate", "candidateIds", people.candidates],
                  ] as const
                ).map(([kind, name, list]) =>
                  list.length > 0 ? (
                    <fieldset key={kind}>
                      <legend className="text-sm font-semibold text-slate-900">{kind === "student" ? t.nav.students : t.nav.candidates}</legend>
                      <ul className="mt-2 grid gap-2 sm:grid-cols-2">
                        {list.map((person) => (
                          <li key={person.id}>
                            <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-slate-300 px-3 py-2 hover:bg-slate-50 has-[:checked]:border-indigo-700 has-[:checked]:bg-indigo-50">
                              <input type="checkbox" name={name} value={person.id} className="size-5 accent-indigo-700" />
                              <span className="min-w-0 wrap-anywhere">{person.name}</span>
                            </label>
                          </li>
                        ))}
                      </ul>
                    </fieldset>
                  ) : null,
                )}
                {people.truncated ? <p className="text-sm text-slate-600">{t.assignments.truncated}</p> : null}
                <Button type="submit" name="intent" value="add" variant="primary" pendingText={t.common.working}>
                  {t.groups.addSelected}
                </Button>
              </Form>
            )}
          </div>
        </Section>
      ) : null}

      {canChange ? (
        <DangerDetails
          className="rounded-xl border border-red-200 bg-white p-4 shadow-sm sm:p-5"
          summary={t.groups.deleteTitle}
          text={t.groups.deleteText}
          intent="delete"
          confirmLabel={t.groups.confirmDelete}
        />
      ) : null}
    </div>
  );
}
