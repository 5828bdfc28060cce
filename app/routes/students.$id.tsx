import type { Route } from "./+types/students.$id";
import { LinkButton } from "~/components/button.tsx";
import { Confirmation, PersonDetail } from "~/components/people/person-detail.tsx";
import { deleteStudent, getStudentPage } from "~/features/students/students.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { isAdmin } from "~/lib/auth/actor.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { addPersonToGroup, personGroups } from "~/features/groups/groups.server.ts";
import { PersonGroups } from "~/components/groups/person-groups.tsx";
import { DataProtection } from "~/components/people/data-protection.tsx";
import { forPage, pageError, staffPageActor, readPagePost } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { pageQuery } from "~/lib/http.server.ts";

export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData?.student.name ?? t.students.title) }];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const { student, history } = await forPage(getStudentPage(actor, params.id));
  const canDelete = isAdmin(actor);
  const confirm = canDelete && pageQuery(request, ["confirm"]).confirm === "delete";
  return { student, history, canDelete, confirm, groups: await personGroups(actor, { studentId: student.id }) };
}

/**
 * Add to a group (the group's creator or an administrator), or delete (administrators only: a
 * teacher's POST gets the service's 403 as the friendly page).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const formData = await readPagePost(request);
  if (formData.get("intent") === "addToGroup") {
    await forPage(addPersonToGroup(actor, String(formData.get("groupId") ?? ""), { studentId: params.id }));
    throw await redirectWithFlash(paths.student(resolveLocale(params.locale), params.id), { kind: "success", key: "membersAdded" });
  }
  if (formData.get("intent") !== "delete") throw pageError(404);
  await forPage(deleteStudent(actor, params.id));
  throw await redirectWithFlash(paths.students(resolveLocale(params.locale)), { kind: "success", key: "deleted" });
}

export default function StudentPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { student, history, canDelete, confirm, groups } = loaderData;
  const here = paths.student(locale, student.id);
  return (
    <PersonDetail
      kind="students"
      person={student}
      history={history}
      groups={<PersonGroups {...groups} />}
      dataProtection={canDelete ? <DataProtection kind="students" id={student.id} /> : null}
      actions={
        <>
          <LinkButton to={`${paths.newAssignment(locale)}?studentId=${student.id}`} variant="primary">
            {t.people.assign}
          </LinkButton>
          <LinkButton to={`${paths.newSchedule(locale)}?studentId=${student.id}`}>{t.schedules.repeat}</LinkButton>
          <LinkButton to={paths.editStudent(locale, student.id)}>{t.people.edit}</LinkButton>
          {canDelete && !confirm ? (
            <LinkButton id="delete-button" to={`${here}?confirm=delete`} variant="danger" preventScrollReset>
              {t.people.delete}
            </LinkButton>
          ) : null}
        </>
      }
      confirmation={
        confirm ? (
          <Confirmation
            title={t.people.confirmDeleteTitle(student.name)}
            text={t.people.confirmDeleteText}
            intent="delete"
            confirmLabel={t.people.confirmDelete}
            pendingText={t.people.deleting}
            cancelTo={here}
            returnTo="delete-button"
          />
        ) : null
      }
    />
  );
}
