import { Link } from "react-router";
import type { Route } from "./+types/candidates.$id";
import { Alert } from "~/components/alert.tsx";
import { LinkButton } from "~/components/button.tsx";
import { Confirmation, PersonDetail } from "~/components/people/person-detail.tsx";
import { deleteCandidate, getCandidatePage, promoteCandidate } from "~/features/candidates/candidates.server.ts";
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
import { ApiError } from "~/lib/problem.server.ts";
import { pageQuery } from "~/lib/http.server.ts";

export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData?.candidate.name ?? t.candidates.title) }];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const { candidate, history } = await forPage(getCandidatePage(actor, params.id));
  const admin = isAdmin(actor);
  const canPromote = admin && candidate.status !== "PROMOTED";
  const asked = pageQuery(request, ["confirm"]).confirm;
  const confirm = admin && asked === "delete" ? "delete" : canPromote && asked === "promote" ? "promote" : null;
  return { candidate, history, canDelete: admin, canPromote, confirm, groups: await personGroups(actor, { candidateId: candidate.id }) };
}

/**
 * Promote or delete (administrators only: a teacher's POST gets the service's 403 as the friendly
 * page). Promoting leads to the new student.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const formData = await readPagePost(request);
  const intent = formData.get("intent");
  if (intent === "addToGroup") {
    await forPage(addPersonToGroup(actor, String(formData.get("groupId") ?? ""), { candidateId: params.id }));
    throw await redirectWithFlash(paths.candidate(locale, params.id), { kind: "success", key: "membersAdded" });
  }
  if (intent === "delete") {
    await forPage(deleteCandidate(actor, params.id));
    throw await redirectWithFlash(paths.candidates(locale), { kind: "success", key: "deleted" });
  }
  if (intent !== "promote") throw pageError(404);
  try {
    const { student } = await forPage(promoteCandidate(actor, params.id));
    throw await redirectWithFlash(paths.student(locale, student.id), { kind: "success", key: "promoted" });
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      const key = error.code === "ALREADY_PROMOTED" ? "alreadyPromoted" : "emailTakenOnPromote";
      throw await redirectWithFlash(paths.candidate(locale, params.id), { kind: "error", key });
    }
    throw error;
  }
}

export default function CandidatePage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { candidate, history, canDelete, canPromote, confirm, groups } = loaderData;
  const here = paths.candidate(locale, candidate.id);
  return (
    <PersonDetail
      kind="candidates"
      person={candidate}
      history={history}
      groups={<PersonGroups {...groups} />}
      dataProtection={canDelete ? <DataProtection kind="candidates" id={candidate.id} /> : null}
      actions={
        <>
          <LinkButton to={`${paths.newSchedule(locale)}?candidateId=${candidate.id}`}>{t.schedules.repeat}</LinkButton>
          <LinkButton to={paths.editCandidate(locale, candidate.id)}>{t.people.edit}</LinkButton>
          {canPromote && !confirm ? (
            <LinkButton id="promote-button" to={`${here}?confirm=promote`} variant="primary" preventScrollReset>
              {t.candidates.promote}
            </LinkButton>
          ) : null}
          {canDelete && !confirm ? (
            <LinkButton id="delete-button" to={`${here}?confirm=delete`} variant="danger" preventScrollReset>
              {t.people.delete}
            </LinkButton>
          ) : null}
        </>
      }
      confirmation={
        confirm === "delete" ? (
          <Confirmation
            title={t.people.confirmDeleteTitle(candidate.name)}
            text={t.people.confirmDeleteText}
            intent="delete"
            confirmLabel={t.people.confirmDelete}
            pendingText={t.people.deleting}
            cancelTo={here}
            returnTo="delete-button"
          />
        ) : confirm === "promote" ? (
          <Confirmation
            title={t.candidates.confirmPromoteTitle(candidate.name)}
            text={t.candidates.confirmPromoteText}
            intent="promote"
            confirmLabel={t.candidates.confirmPromote}
            pendingText={t.candidates.promoting}
            cancelTo={here}
            returnTo="promote-button"
            tone="primary"
          />
        ) : null
      }
      notice={
        candidate.promotedStudentId ? (
          <Alert tone="info" title={t.candidates.promotedTo}>
            <Link to={paths.student(locale, candidate.promotedStudentId)} className="font-medium underline">
              {t.candidates.openStudent}
            </Link>
          </Alert>
        ) : null
      }
    />
  );
}
