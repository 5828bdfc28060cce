import { useForm } from "@conform-to/react/future";
import { Form } from "react-router";
import type { Route } from "./+types/admin.organization";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { Field, Select } from "~/components/field.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { PageHeader, SectionLink } from "~/components/page-header.tsx";
import { ORGANIZATION_KINDS } from "~/features/organization/organization-kinds.ts";
import { updateOrganizationBody } from "~/features/organization/organization-schemas.ts";
import { getOrganization, updateOrganization } from "~/features/organization/organization.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { adminPageActor, parsePagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/** The page posts every field, and needs a name and a zone; the API's PUT takes any of them. */
const settingsPageForm = updateOrganizationBody.required({ name: true, timeZone: true });

/** Every zone the server's Intl knows, for the select (computed once: the list never changes while running). */
const TIME_ZONES = [...new Set(["UTC", ...Intl.supportedValuesOf("timeZone")])];

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.organizationSettings.title) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const organization = await getOrganization(adminPageActor(context));
  return {
    organization: { name: organization.name, timeZone: organization.timeZone, kind: organization.kind },
    timeZones: TIME_ZONES,
    now: new Date(),
    validation: clientValidation(settingsPageForm, pageTranslations(context, params.locale)),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = adminPageActor(context);
  const locale = resolveLocale(params.locale);
  const form = await parsePagePost(request, settingsPageForm, pageTranslations(context, locale));
  if (!form.ok) return form.reply;
  await updateOrganization(actor, form.value);
  throw await redirectWithFlash(paths.organizationSettings(locale), { kind: "success", key: "settingsSaved" });
}

export default function OrganizationSettings({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const format = useFormat();
  const { organization } = loaderData;
  const { form, fields } = useForm(pageFormOptions(loaderData.validation, actionData?.result, organization));
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={t.organizationSettings.title}
        description={t.organizationSettings.description}
        actions={<SectionLink to={paths.adminUsers(locale)}>{t.adminUsers.title}</SectionLink>}
      />
      <Form method="post" className="space-y-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" {...form.props}>
        <CsrfInput />
        <Field
          label={t.organizationSettings.name}
          id="name"
          name={fields.name.name}
          defaultValue={fields.name.defaultValue}
          error={fields.name.errors}
          required
          maxLength={200}
          autoComplete="organization"
        />
        <Select
          label={t.organizationSettings.timeZone}
          description={t.organizationSettings.timeZoneHint(format.dateTime(loaderData.now))}
          id="timeZone"
          name={fields.timeZone.name}
          defaultValue={fields.timeZone.defaultValue}
          error={fields.timeZone.errors}
          required
          options={loaderData.timeZones.map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") }))}
        />
        <Select
          label={t.organizationSettings.kind}
          description={t.organizationSettings.kindHint}
          id="kind"
          name={fields.kind.name}
          defaultValue={fields.kind.defaultValue}
          error={fields.kind.errors}
          required
          options={ORGANIZATION_KINDS.map((kind) => ({ value: kind, label: t.organizationSettings.kinds[kind] }))}
        />
        <div className="border-t border-slate-200 pt-5">
          <Button type="submit" variant="primary" pendingText={t.common.saving}>
            {t.common.save}
          </Button>
        </div>
      </Form>
    </div>
  );
}
