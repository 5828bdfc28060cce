import type { Route } from "./+types/candidates.$id.edit";
import { BackLink } from "~/components/people/person-detail.tsx";
import { PersonForm } from "~/components/people/person-form.tsx";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { EDITABLE_STATUSES } from "~/components/people/status-badge.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { createCandidateBody, updateCandidateBody } from "~/features/candidates/candidate-schemas.ts";
import { getCandidate, updateCandidate } from "~/features/candidates/candidates.server.ts";
import { profileValues } from "~/features/people/person-form.ts";
import { parseProfile, saveProfile } from "~/features/people/person-page.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, staffPageActor, readPagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData ? t.candidates.editTitle(loaderData.candidate.name) : t.candidates.title) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const { evaluations: _, ...candidate } = await forPage(getCandidate(actor, params.id));
  return { candidate, validation: clientValidation(createCandidateBody, pageTranslations(context, params.locale)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const formData = await readPagePost(request);
  const current = await forPage(getCandidate(actor, params.id));
  // A promoted candidate's status never changes, so its form has none.
  const parsed = parseProfile(formData, updateCandidateBody, { withStatus: current.status !== "PROMOTED", t: pageTranslations(context, params.locale) });
  if (!parsed.ok) return parsed.reply;
  const saved = await saveProfile(updateCandidate(actor, params.id, parsed.data), parsed.submission, pageTranslations(context, params.locale));
  if (!saved.ok) return saved.reply;
  throw await redirectWithFlash(paths.candidate(resolveLocale(params.locale), params.id), { kind: "success", key: "saved" });
}

export default function EditCandidate({ actionData, loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { candidate } = loaderData;
  const form = useForm(pageFormOptions(loaderData.validation, actionData?.result, profileValues(candidate)));
  const promoted = candidate.status === "PROMOTED";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to={paths.candidates(locale)} />
      <PageHeader title={t.candidates.editTitle(candidate.name)} />
      <PersonForm
        kind="candidates"
        form={form}
        statuses={promoted ? null : EDITABLE_STATUSES}
        note={promoted ? t.candidates.promotedStatusNote : undefined}
        submitLabel={t.people.save}
        cancelTo={paths.candidate(locale, candidate.id)}
      />
    </div>
  );
}
