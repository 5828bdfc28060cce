import { useForm } from "@conform-to/react/future";
import type { Route } from "./+types/groups.new";
import { GroupForm } from "~/components/groups/group-form.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { PageHeader } from "~/components/page-header.tsx";
import { BackLink } from "~/components/people/person-detail.tsx";
import { createGroupBody } from "~/features/groups/group-schemas.ts";
import { createGroup } from "~/features/groups/groups.server.ts";
import { groupFormPost } from "~/features/groups/group-page.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.groups.newTitle) }];
};

export function loader({ context, params }: Route.LoaderArgs) {
  staffPageActor(context);
  return { validation: clientValidation(createGroupBody, pageTranslations(context, params.locale)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  return groupFormPost(request, locale, pageTranslations(context, locale), createGroupBody, (input) => createGroup(actor, input), "created");
}

export default function NewGroup({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const form = useForm(pageFormOptions(loaderData.validation, actionData?.result));
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to={paths.groups(locale)} />
      <PageHeader title={t.groups.newTitle} description={t.groups.description} />
      <GroupForm form={form} submitLabel={t.groups.create} cancelTo={paths.groups(locale)} />
    </div>
  );
}
