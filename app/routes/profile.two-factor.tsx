import { useForm } from "@conform-to/react/future";
import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/profile.two-factor";
import { Alert } from "~/components/alert.tsx";
import { Badge } from "~/components/badge.tsx";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { Field } from "~/components/field.tsx";
import { pageFormOptions, type PageResult } from "~/components/page-form.ts";
import { Section } from "~/components/page-header.tsx";
import { profilePageMeta, useProfileSummary } from "~/components/profile/profile-page.ts";
import { twoFactorDisableBody, twoFactorEnableBody, twoFactorSetupBody, type TwoFactorSetupResult } from "~/features/auth/two-factor-schemas.ts";
import { beginTwoFactorSetup, disableTwoFactor, enableTwoFactor } from "~/features/auth/two-factor.server.ts";
import { getProfile } from "~/features/users/users.server.ts";
import { useT } from "~/i18n/hooks.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, pageActor, parsePageForm, postedIntent, readPagePost, refusal, serviceRefusal, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError } from "~/lib/problem.server.ts";

/**
 * The second factor (/profile/two-factor), through the same schemas and service as
 * /api/auth/two-factor/{setup,enable,disable}: setting one up answers the QR code or e-mails a
 * code, this once (in the answer to the post, never in a URL); one valid code turns it on; the
 * password turns it off. Three forms, told apart by their `intent` button.
 */
export const meta: Route.MetaFunction = (args) => profilePageMeta(args, (t) => t.profile.twoFactorTitle);

/** The code form remembers which method is being set up, to say where the code comes from. */
const enableForm = twoFactorEnableBody.extend({ method: twoFactorSetupBody.shape.method.optional() });

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = pageActor(context);
  const profile = await forPage(getProfile(actor.userId));
  const t = pageTranslations(context, params.locale);
  return {
    twoFactor: { enabled: profile.twoFactorEnabled, method: profile.twoFactorMethod },
    validation: { enable: clientValidation(enableForm, t), disable: clientValidation(twoFactorDisableBody, t) },
  };
}

type Method = "TOTP" | "EMAIL";
type ActionData = { intent: "setup" | "enable" | "disable"; method?: Method | undefined; setup?: TwoFactorSetupResult; result?: PageResult };

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = pageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const formData = await readPagePost(request);
  const back = paths.profileTwoFactor(locale);
  const intent = postedIntent(formData, ["setup", "enable", "disable"]);
  // No button posts anything else: back to the page, unchanged.
  if (!intent) throw redirect(back);
  /** A refusal, with what the page needs to show the same form again. */
  const answer = (reply: ReturnType<typeof refusal>, method?: Method) => data<ActionData>({ ...reply.data, intent, method }, reply.init ?? undefined);

  if (intent === "setup") {
    const form = parsePageForm(formData, twoFactorSetupBody, t, { skip: ["intent"] });
    if (!form.ok) return answer(form.reply);
    try {
      return data<ActionData>({ intent, method: form.value.method, setup: await beginTwoFactorSetup(actor, form.value.method) });
    } catch (error) {
      return answer(serviceRefusal(t, form.submission, error), form.value.method);
    }
  }
  if (intent === "enable") {
    const form = parsePageForm(formData, enableForm, t, { skip: ["intent"] });
    if (!form.ok) return answer(form.reply, enableForm.shape.method.safeParse(form.submission.payload.method).data);
    try {
      await enableTwoFactor(actor, form.value.code);
    } catch (error) {
      return answer(serviceRefusal(t, form.submission, error), form.value.method);
    }
    throw await redirectWithFlash(back, { kind: "success", key: "twoFactorOn" });
  }
  const form = parsePageForm(formData, twoFactorDisableBody, t, { skip: ["intent"] });
  if (!form.ok) return answer(form.reply);
  try {
    await disableTwoFactor(actor, form.value.password);
  } catch (error) {
    // A wrong password is the password field's error, not the form's.
    if (error instanceof ApiError && error.code === "INVALID_PASSWORD") {
      return answer(refusal(form.submission, { fieldErrors: { password: t.profile.wrongPassword }, formError: null }, 400));
    }
    return answer(serviceRefusal(t, form.submission, error));
  }
  throw await redirectWithFlash(back, { kind: "success", key: "twoFactorOff" });
}

export default function ProfileTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { twoFactor, validation } = loaderData;
  const setup = actionData?.setup ?? null;
  const awaitingCode = !twoFactor.enabled && (setup !== null || actionData?.intent === "enable");
  const method = setup?.method ?? actionData?.method ?? "TOTP";
  return (
    <Section id="two-factor" title={t.profile.twoFactorTitle} description={t.profile.twoFactorDescription} className="max-w-3xl">
      <div className="space-y-5 px-4 py-5 sm:px-5">
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
          <Badge tone={twoFactor.enabled ? "success" : "neutral"}>{twoFactor.enabled ? t.profile.on : t.profile.off}</Badge>
          {twoFactor.method === "TOTP" ? t.profile.onTotp : twoFactor.method === "EMAIL" ? t.profile.onEmail : t.profile.offText}
        </p>
        {!twoFactor.enabled && actionData?.intent === "setup" && actionData.result?.error?.formErrors?.[0] ? (
          <Alert tone="error">{actionData.result.error.formErrors[0]}</Alert>
        ) : null}

        {awaitingCode ? (
          <EnableTwoFactorForm
            setup={setup}
            method={method}
            result={actionData?.intent === "enable" ? actionData.result : undefined}
            validation={validation.enable}
          />
        ) : null}

        {!twoFactor.enabled && !awaitingCode ? (
          <Form method="post" className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            <CsrfInput />
            <input type="hidden" name="intent" value="setup" />
            <Button type="submit" name="method" value="TOTP" variant="primary">
              {t.profile.setupTotp}
            </Button>
            <Button type="submit" name="method" value="EMAIL" variant="secondary">
              {t.profile.setupEmail}
            </Button>
          </Form>
        ) : null}
        {!twoFactor.enabled && awaitingCode ? (
          <Form method="post" className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
            <CsrfInput />
            <input type="hidden" name="intent" value="setup" />
            <Button type="submit" name="method" value={method === "TOTP" ? "EMAIL" : "TOTP"} variant="ghost" size="sm">
              {method === "TOTP" ? t.profile.setupEmail : t.profile.setupTotp}
            </Button>
          </Form>
        ) : null}

        {twoFactor.enabled ? (
          <DisableTwoFactorForm result={actionData?.intent === "disable" ? actionData.result : undefined} validation={validation.disable} />
        ) : null}
      </div>
    </Section>
  );
}

/** The code that turns the second factor on: from the authenticator app, or the one just e-mailed. */
function EnableTwoFactorForm({
  setup,
  method,
  result,
  validation,
}: {
  setup: TwoFactorSetupResult | null;
  method: Method;
  result: PageResult | undefined;
  validation: ClientValidation<"code" | "method">;
}) {
  const t = useT();
  const { form, fields } = useForm(pageFormOptions(validation, result));
  const summary = useProfileSummary();
  return (
    <Form method="post" className="space-y-4" {...form.props}>
      <CsrfInput />
      <input type="hidden" name="method" value={method} />
      <ErrorSummary form={form} {...summary({ code: "two-factor-code" })} />
      {setup?.method === "TOTP" ? (
        <>
          <p className="text-sm text-slate-700">{t.profile.totpInstructions}</p>
          <img src={setup.qrCode} alt={t.profile.qrAlt} width={192} height={192} className="size-48 rounded-lg border border-slate-200" />
          <div>
            <p className="text-sm font-medium text-slate-900" id="totp-secret-label">
              {t.profile.secret}
            </p>
            <code id="totp-secret" className="mt-1 block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900">
              {setup.secret}
            </code>
          </div>
        </>
      ) : setup?.method === "EMAIL" ? (
        <p className="text-sm text-slate-700">{t.profile.emailSent(setup.sentTo)}</p>
      ) : (
        <p className="text-sm text-slate-700">{method === "TOTP" ? t.profile.enterTotp : t.profile.enterEmailCode}</p>
      )}
      <Field
        label={t.profile.code}
        id="two-factor-code"
        name={fields.code.name}
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        maxLength={6}
        error={fields.code.errors}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="enable" variant="primary" pendingText={t.common.working}>
          {t.profile.enable}
        </Button>
      </div>
    </Form>
  );
}

/** Turning the second factor off asks for the password again. */
function DisableTwoFactorForm({ result, validation }: { result: PageResult | undefined; validation: ClientValidation<"password"> }) {
  const t = useT();
  const { form, fields } = useForm(pageFormOptions(validation, result));
  const summary = useProfileSummary();
  return (
    <Form method="post" className="space-y-4" {...form.props}>
      <CsrfInput />
      <ErrorSummary form={form} {...summary({ password: "disable-password" })} />
      <Field
        label={t.profile.password}
        description={t.profile.disableHint}
        id="disable-password"
        name={fields.password.name}
        type="password"
        autoComplete="current-password"
        required
        error={fields.password.errors}
      />
      <Button type="submit" name="intent" value="disable" variant="danger" pendingText={t.common.working}>
        {t.profile.disable}
      </Button>
    </Form>
  );
}
