import { useForm } from "@conform-to/react/future";
import type { Route } from "./+types/groups.$id.edit";
import { GroupForm } from "~/components/groups/group-form.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { PageHeader } from "~/components/page-header.tsx";
import { BackLink } from "~/components/people/person-detail.tsx";
import { groupFormPost } from "~/features/groups/group-page.server.ts";
import { createGroupBody, updateGroupBody } from "~/features/groups/group-schemas.ts";
import { canChangeGroup, getGroup, updateGroup } from "~/features/groups/groups.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, pageError, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.groups.editTitle(loaderData?.group.name ?? "")) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const group = await forPage(getGroup(actor, params.id));
  if (!(await canChangeGroup(actor, params.id))) throw pageError(403);
  // The edit form always sends the name: it is checked as on creation.
  return {
    group: { id: group.id, name: group.name, description: group.description },
    validation: clientValidation(createGroupBody, pageTranslations(context, params.locale)),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  // An emptied description arrives as nothing at all: it means "no description", not "unchanged".
  return groupFormPost(
    request,
    locale,
    pageTranslations(context, locale),
    updateGroupBody,
    (input) => updateGroup(actor, params.id, { ...input, description: input.description ?? null }),
    "saved",
  );
}

export default function EditGroup({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { group } = loaderData;
  const form = useForm(pageFormOptions(loaderData.validation, actionData?.result, { name: group.name, description: group.description ?? "" }));
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to={paths.group(locale, group.id)} />
      <PageHeader title={t.groups.editTitle(group.name)} />
      <GroupForm form={form} submitLabel={t.common.save} cancelTo={paths.group(locale, group.id)} />
    </div>
  );
}
