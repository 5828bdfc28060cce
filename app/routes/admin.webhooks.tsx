import { useForm } from "@conform-to/react/future";
import { Form } from "react-router";
import type { Route } from "./+types/admin.webhooks";
import { Alert } from "~/components/alert.tsx";
import { Badge } from "~/components/badge.tsx";
import { Button } from "~/components/button.tsx";
import { CopyField } from "~/components/copy-field.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { Field } from "~/components/field.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { PageHeader, Section, SectionLink } from "~/components/page-header.tsx";
import { RowAction } from "~/components/row-action.tsx";
import { WEBHOOK_EVENTS } from "~/features/webhooks/webhook-events.ts";
import { createWebhookBody } from "~/features/webhooks/webhook-schemas.ts";
import {
  createWebhook,
  deleteWebhook,
  GONE,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  testWebhook,
  webhookFormChoices,
} from "~/features/webhooks/webhooks.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { adminPageActor, forPage, readPagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { createShownOnce } from "~/lib/shown-once.server.ts";

/**
 * The organization's webhooks for administrators (docs/api-contract.md §14), from the same service as
 * /api/webhooks: add one for some events of some forms (its signing secret shown once, in the
 * answer to the post), send it a test and read what its endpoint answered, see each one's latest
 * deliveries with their state and last answer, send one again, remove a webhook.
 */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.adminWebhooks.title) }];
};

/** Why a delivery's last attempt failed, beyond its status code (shown with it), as a dictionary key. */
const FAILURE_REASONS = { [GONE]: "gone", "timed out": "timedOut", "address refused": "addressRefused", "connection failed": "connectionFailed" } as const;
const failureReason = (lastError: string | null) =>
  lastError && lastError in FAILURE_REASONS ? FAILURE_REASONS[lastError as keyof typeof FAILURE_REASONS] : null;

/** How many deliveries each webhook shows here (the API lists 100). */
const SHOWN_DELIVERIES = 10;

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = adminPageActor(context);
  const [{ webhooks }, forms] = await Promise.all([listWebhooks(actor), webhookFormChoices(actor)]);
  const withDeliveries = await Promise.all(
    webhooks.map(async (webhook) => ({
      ...webhook,
      deliveries: (await listDeliveries(actor, webhook.id)).deliveries
        .slice(0, SHOWN_DELIVERIES)
        .map(({ lastError, ...delivery }) => ({ ...delivery, reason: delivery.status === "SUCCEEDED" ? null : failureReason(lastError) })),
    })),
  );
  const t = pageTranslations(context, params.locale);
  const validation = clientValidation(createWebhookBody, t);
  // No box ticked is said as the server says it.
  validation.messages.events = { ...validation.messages.events, required: t.fieldProblems.chooseEvents };
  return { webhooks: withDeliveries, forms, validation };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = adminPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const formData = await readPagePost(request);
  const intent = formData.get("intent");
  const id = String(formData.get("id") ?? "");
  if (intent === "remove") {
    await forPage(deleteWebhook(actor, id));
    throw await redirectWithFlash(paths.adminWebhooks(locale), { kind: "success", key: "webhookRemoved" });
  }
  if (intent === "test") {
    // The outcome is this page's answer, not a redirect: it is read once, beside its webhook.
    const { delivered, status, error } = await forPage(testWebhook(actor, id));
    return { tested: { webhookId: id, delivered, status, reason: failureReason(error) }, result: undefined, created: null };
  }
  if (intent === "resend") {
    await forPage(resendDelivery(actor, id, String(formData.get("deliveryId") ?? "")));
    throw await redirectWithFlash(paths.adminWebhooks(locale), { kind: "success", key: "webhookResent" });
  }
  return createShownOnce(formData, createWebhookBody, t, async (input) => {
    const created = await createWebhook(actor, input);
    return { url: created.url, secret: created.secret };
  });
}

const STATUS_TONES = { PENDING: "neutral", SUCCEEDED: "success", FAILED: "danger" } as const;

export default function AdminWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const format = useFormat();
  const { form, fields } = useForm(pageFormOptions(loaderData.validation, actionData?.result));
  const created = actionData?.created ?? null;
  const tested = actionData && "tested" in actionData ? actionData.tested : null;
  const formTitles = new Map(loaderData.forms.map((choice) => [choice.id, choice.title]));
  const formsError = fields.formIds.errors?.[0];
  const eventsError = fields.events.errors?.[0];
  // What is wrong with the whole form rather than a field (the organization's limit of webhooks).
  const formError = form.errors?.[0];
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title={t.adminWebhooks.title}
        description={t.adminWebhooks.description}
        actions={<SectionLink to={paths.adminUsers(locale)}>{t.adminUsers.title}</SectionLink>}
      />
      {created ? (
        <Alert tone="success" title={t.adminWebhooks.created}>
          <div className="mt-3">
            <CopyField id="new-secret" label={`${t.adminWebhooks.secretLabel}: ${created.url}`} value={created.secret} />
          </div>
        </Alert>
      ) : null}

      <Form method="post" className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" {...form.props}>
        <CsrfInput />
        {formError ? <Alert tone="error" title={formError} /> : null}
        <Field
          label={t.adminWebhooks.url}
          description={t.adminWebhooks.urlHint}
          id="url"
          name={fields.url.name}
          type="url"
          defaultValue={fields.url.defaultValue}
          error={fields.url.errors}
          required
          maxLength={2000}
        />
        <fieldset aria-describedby={eventsError ? "events-error" : undefined}>
          <legend className="text-sm font-medium text-slate-900">{t.adminWebhooks.events}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" name={fields.events.name} value={event} className="size-4 rounded border-slate-400 accent-indigo-700" />
                {t.adminWebhooks.eventNames[event]}
              </label>
            ))}
          </div>
          {eventsError ? (
            <p id="events-error" className="mt-1.5 text-sm font-medium text-red-700">
              {eventsError}
            </p>
          ) : null}
        </fieldset>
        <fieldset aria-describedby={formsError ? "formIds-error formIds-hint" : "formIds-hint"}>
          <legend className="text-sm font-medium text-slate-900">{t.adminWebhooks.forms}</legend>
          <p id="formIds-hint" className="mt-1 text-sm text-slate-600">
            {t.adminWebhooks.formsHint}
          </p>
          <div className="mt-2 grid max-h-64 gap-2 overflow-y-auto sm:grid-cols-2">
            {loaderData.forms.map((choice) => (
              <label key={choice.id} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" name={fields.formIds.name} value={choice.id} className="size-4 rounded border-slate-400 accent-indigo-700" />
                {choice.title}
              </label>
            ))}
          </div>
          {formsError ? (
            <p id="formIds-error" className="mt-1.5 text-sm font-medium text-red-700">
              {formsError}
            </p>
          ) : null}
        </fieldset>
        <Button type="submit" name="intent" value="add" variant="primary" pendingText={t.common.working}>
          {t.adminWebhooks.add}
        </Button>
      </Form>

      <Section id="webhooks" title={t.adminWebhooks.listTitle}>
        {loaderData.webhooks.length === 0 ? (
          <p className="px-4 py-5 text-sm text-slate-600 sm:px-5">{t.adminWebhooks.none}</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {loaderData.webhooks.map((webhook) => (
              <li key={webhook.id} className="space-y-3 px-4 py-4 sm:px-5">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-medium wrap-anywhere text-slate-900">{webhook.url}</p>
                    <p className="text-sm text-slate-600">{webhook.events.map((event) => t.adminWebhooks.eventNames[event]).join(" · ")}</p>
                    <p className="text-sm text-slate-600">
                      {t.adminWebhooks.formsOf(
                        webhook.formIds.length === 0
                          ? t.adminWebhooks.allForms
                          : webhook.formIds.map((formId) => formTitles.get(formId) ?? t.adminWebhooks.removedForm).join(" · "),
                      )}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <RowAction
                      intent="test"
                      values={{ id: webhook.id }}
                      variant="secondary"
                      label={t.adminWebhooks.sendTest}
                      name={t.adminWebhooks.sendTestNamed(webhook.url)}
                    />
                    <RowAction intent="remove" values={{ id: webhook.id }} label={t.adminWebhooks.remove} name={t.adminWebhooks.removeNamed(webhook.url)} />
                  </div>
                </div>
                {tested?.webhookId === webhook.id ? (
                  <Alert
                    tone={tested.delivered ? "success" : "error"}
                    title={
                      tested.delivered
                        ? t.adminWebhooks.testDelivered(String(tested.status))
                        : t.adminWebhooks.testNotDelivered(
                            tested.status
                              ? t.adminWebhooks.answered(String(tested.status))
                              : t.adminWebhooks.failureReasons[tested.reason ?? "connectionFailed"],
                          )
                    }
                  />
                ) : null}
                <div>
                  <h3 className="text-sm font-semibold text-slate-900">{t.adminWebhooks.deliveries}</h3>
                  {webhook.deliveries.length === 0 ? (
                    <p className="mt-1 text-sm text-slate-600">{t.adminWebhooks.noDeliveries}</p>
                  ) : (
                    <ul className="mt-1 divide-y divide-slate-100 text-sm">
                      {webhook.deliveries.map((delivery) => (
                        <li key={delivery.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                          <div className="flex min-w-0 flex-wrap items-center gap-2">
                            <Badge tone={STATUS_TONES[delivery.status]}>{t.adminWebhooks.statuses[delivery.status]}</Badge>
                            <span className="text-slate-800">{t.adminWebhooks.eventNames[delivery.event]}</span>
                            <span className="text-slate-600">{format.dateTime(delivery.createdAt)}</span>
                            <span className="text-slate-600">
                              {t.adminWebhooks.attempt(
                                format.number(delivery.attempts),
                                delivery.lastStatusCode ? String(delivery.lastStatusCode) : t.adminWebhooks.noAnswer,
                              )}
                              {delivery.reason ? `: ${t.adminWebhooks.failureReasons[delivery.reason]}` : null}
                            </span>
                          </div>
                          {delivery.status === "PENDING" ? null : (
                            <RowAction
                              intent="resend"
                              values={{ id: webhook.id, deliveryId: delivery.id }}
                              variant="secondary"
                              label={t.adminWebhooks.sendAgain}
                              name={t.adminWebhooks.sendAgainNamed(t.adminWebhooks.eventNames[delivery.event], format.dateTime(delivery.createdAt))}
                            />
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
