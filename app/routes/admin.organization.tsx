import { useForm } from "@conform-to/react/future";
import { Form } from "react-router";
import type { Route } from "./+types/admin.organization";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { Field, Select, TextArea } from "~/components/field.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { PageHeader, SectionLink } from "~/components/page-header.tsx";
import { ORGANIZATION_KINDS } from "~/features/organization/organization-kinds.ts";
import { privacyNoticeTexts, updateOrganizationBody } from "~/features/organization/organization-schemas.ts";
import { getOrganization, updateOrganization } from "~/features/organization/organization.server.ts";
import { PRIVACY_NOTICE_MAX, type PrivacyNotice } from "~/features/organization/privacy-notice.ts";
import { MAX_RETENTION_MONTHS, RETENTION_ACTIONS } from "~/features/retention/retention-limits.ts";
import { retentionPolicyInput } from "~/features/retention/retention-schemas.ts";
import { previewRetention } from "~/features/retention/retention.server.ts";
import { type Dictionary, documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { clientValidation, groupValidation, withGroups } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { LOCALE_NAMES, LOCALES, type Locale, resolveLocale } from "~/lib/i18n.ts";
import { adminPageActor, parsePagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * The page posts every field, and needs a name and a zone; the API's PUT takes any of them. The
 * policy and the notice are posted as fields of their own (`retention.action`, `privacyNotice.es`):
 * all of a group left empty means none (keep everything; no notice).
 */
const settingsPageForm = updateOrganizationBody.required({ name: true, timeZone: true });
const GROUPS = { nullWhenAllEmpty: ["retention", "privacyNotice"] } as const;

/** The notice as the page's three fields show it: one text for every language is the default's (English) text, which is what every language reads. */
const noticeFields = (notice: PrivacyNotice | null) => (typeof notice === "string" ? { en: notice } : (notice ?? {}));

/** The browser's checks: the PUT's own, with those of the policy's and the notice's fields. */
function settingsValidation(t: Dictionary) {
  const own = clientValidation(settingsPageForm, t);
  return withGroups(own, groupValidation(retentionPolicyInput, "retention", t), groupValidation(privacyNoticeTexts, "privacyNotice", t)) as typeof own;
}

/** Every zone the server's Intl knows, for the select (computed once: the list never changes while running). */
const TIME_ZONES = [...new Set(["UTC", ...Intl.supportedValuesOf("timeZone")])];

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.organizationSettings.title) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = adminPageActor(context);
  const t = pageTranslations(context, params.locale);
  const [organization, preview] = await Promise.all([getOrganization(actor), previewRetention(actor)]);
  const { retention } = organization;
  return {
    organization: {
      name: organization.name,
      timeZone: organization.timeZone,
      kind: organization.kind,
      retention: {
        action: retention?.action ?? "",
        resultsMonths: retention?.resultsMonths?.toString() ?? "",
        inactivePeopleMonths: retention?.inactivePeopleMonths?.toString() ?? "",
      },
      privacyNotice: noticeFields(organization.privacyNotice),
    },
    preview: { nextRunAt: preview.nextRunAt, results: preview.results?.count ?? null, people: preview.people?.count ?? null },
    timeZones: TIME_ZONES,
    now: new Date(),
    validation: settingsValidation(t),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = adminPageActor(context);
  const locale = resolveLocale(params.locale);
  const form = await parsePagePost(request, settingsPageForm, pageTranslations(context, locale), GROUPS);
  if (!form.ok) return form.reply;
  await updateOrganization(actor, form.value);
  throw await redirectWithFlash(paths.organizationSettings(locale), { kind: "success", key: "settingsSaved" });
}

export default function OrganizationSettings({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const format = useFormat();
  const { organization, preview } = loaderData;
  const s = t.organizationSettings;
  const { form, fields } = useForm(pageFormOptions(loaderData.validation, actionData?.result, organization));
  const retention = fields.retention.getFieldset<typeof organization.retention>();
  const notice = fields.privacyNotice.getFieldset<Record<Locale, string>>();
  const labels: Record<string, string> = {
    name: s.name,
    timeZone: s.timeZone,
    kind: s.kind,
    "retention.action": s.retentionAction,
    "retention.resultsMonths": s.resultsMonths,
    "retention.inactivePeopleMonths": s.inactivePeopleMonths,
    ...Object.fromEntries(LOCALES.map((language) => [`privacyNotice.${language}`, `${s.privacyTitle}: ${LOCALE_NAMES[language]}`])),
  };
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={t.organizationSettings.title}
        description={t.organizationSettings.description}
        actions={<SectionLink to={paths.adminUsers(locale)}>{t.adminUsers.title}</SectionLink>}
      />
      <Form method="post" className="space-y-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" {...form.props}>
        <CsrfInput />
        <ErrorSummary form={form} fields={Object.keys(labels)} label={(name) => labels[name]} />
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
        {/* The retention policy (docs/api-contract.md §21): all left empty keeps everything. */}
        <fieldset className="space-y-4 border-t border-slate-200 pt-5" aria-describedby="retention-hint">
          <legend className="text-base font-semibold text-slate-900">{s.retentionTitle}</legend>
          <p id="retention-hint" className="text-sm text-slate-600">
            {s.retentionHint}
          </p>
          <Select
            label={s.retentionAction}
            id={retention.action.name}
            name={retention.action.name}
            defaultValue={retention.action.defaultValue}
            error={retention.action.errors}
            options={[
              { value: "", label: s.retentionActions.KEEP },
              ...RETENTION_ACTIONS.map((action) => ({ value: action, label: s.retentionActions[action] })),
            ]}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            {(["resultsMonths", "inactivePeopleMonths"] as const).map((rule) => (
              <Field
                key={rule}
                label={s[rule]}
                description={s[`${rule}Hint`]}
                id={retention[rule].name}
                name={retention[rule].name}
                defaultValue={retention[rule].defaultValue}
                error={retention[rule].errors}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_RETENTION_MONTHS}
              />
            ))}
          </div>
          {preview.nextRunAt ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-slate-50 p-3 text-sm" data-testid="retention-preview">
              <dt className="text-slate-600">{s.nextRun}</dt>
              <dd>{format.dateTime(preview.nextRunAt)}</dd>
              {preview.results !== null ? (
                <>
                  <dt className="text-slate-600">{s.wouldTouchResults}</dt>
                  <dd>{format.number(preview.results)}</dd>
                </>
              ) : null}
              {preview.people !== null ? (
                <>
                  <dt className="text-slate-600">{s.wouldTouchPeople}</dt>
                  <dd>{format.number(preview.people)}</dd>
                </>
              ) : null}
            </dl>
          ) : null}
        </fieldset>
        {/* The privacy notice (docs/api-contract.md §21): one text per language, each read on the public test pages. */}
        <fieldset className="space-y-4 border-t border-slate-200 pt-5" aria-describedby="privacy-hint">
          <legend className="text-base font-semibold text-slate-900">{s.privacyTitle}</legend>
          <p id="privacy-hint" className="text-sm text-slate-600">
            {s.privacyHint}
          </p>
          {LOCALES.map((language) => (
            <TextArea
              key={language}
              label={LOCALE_NAMES[language]}
              lang={language}
              id={notice[language].name}
              name={notice[language].name}
              defaultValue={notice[language].defaultValue}
              error={notice[language].errors}
              maxLength={PRIVACY_NOTICE_MAX}
              rows={5}
            />
          ))}
        </fieldset>
        <div className="border-t border-slate-200 pt-5">
          <Button type="submit" variant="primary" pendingText={t.common.saving}>
            {t.common.save}
          </Button>
        </div>
      </Form>
    </div>
  );
}
