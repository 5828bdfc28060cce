import { pageQuery } from "~/lib/http.server.ts";
import { Form, Link, data, redirect } from "react-router";
import type { Route } from "./+types/login";
import { Alert } from "~/components/alert.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { AuthLayout, authLinkClasses } from "~/components/auth-layout.tsx";
import { Button, buttonClasses } from "~/components/button.tsx";
import { Field } from "~/components/field.tsx";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useT } from "~/i18n/hooks.ts";
import { issueCsrfToken } from "~/lib/auth/csrf.server.ts";
import { oidcProviderName } from "~/features/auth/oidc.server.ts";
import { beginCodeStep, codeStepAction, type LoginActionResult } from "~/features/auth/sign-in-page.server.ts";
import { credentialsBody, SecondFactorRequiredError, signInWithCredentials } from "~/features/auth/sign-in.server.ts";
import { actorContext, clientAddressContext } from "~/lib/context.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { ApiError, problemTextOf } from "~/lib/problem.server.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { pagePost, parsePageForm, postedIntent, refusal, pageTranslations } from "~/lib/page.server.ts";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { signInCodeForm } from "~/features/auth/two-factor-schemas.ts";
import { redeemUnlockLink } from "~/features/auth/sign-in-unlock.server.ts";

/** A throttled sign-in says when to try again (ADR 15). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

/** The first step's form: the API's sign-in body without the CSRF token, which `pagePost` checks. */
const signInPageForm = credentialsBody.pick({ email: true, password: true });

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.signIn.title) }];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const locale = resolveLocale(params.locale);
  if (context.get(actorContext)) throw redirect(`/${locale}/home`);
  const { token, setCookie } = await issueCsrfToken(request);
  const query = pageQuery(request, ["notice", "unlock"]);
  const t = pageTranslations(context, locale);
  const headers = new Headers();
  if (setCookie) headers.append("Set-Cookie", setCookie);
  // Set by the reset-password page after a new password was saved.
  let notice: { tone: "success" | "error"; text: string } | null =
    query.notice === "password-reset" ? { tone: "success", text: t.signIn.passwordResetNotice } : null;
  // The link e-mailed to the owner of a paused account (ADR 47).
  if (query.unlock) {
    const unlockCookie = await redeemUnlockLink(query.unlock);
    if (unlockCookie) headers.append("Set-Cookie", unlockCookie);
    notice = unlockCookie ? { tone: "success", text: t.signIn.unlockedNotice } : { tone: "error", text: t.signIn.unlockLinkInvalid };
  }
  return data(
    // oidcProvider: the "Sign in with …" button's name, when an OpenID provider is configured.
    {
      csrfToken: token,
      notice,
      oidcProvider: oidcProviderName(),
      validation: clientValidation(signInPageForm, pageTranslations(context, locale)),
      codeValidation: clientValidation(signInCodeForm, pageTranslations(context, locale)),
    },
    { headers },
  );
}

type ActionResult = LoginActionResult;

/**
 * The page's own form posts here and signs in with the same service as
 * POST /api/auth/callback/credentials, so errors can be shown next to the fields instead of JSON.
 * A user with a second factor gets a second step asking for the code (sign-in-page.server.ts).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const post = await pagePost(request);
  const step = postedIntent(post.formData, ["code", "resend"]);
  if (step) {
    const meta = { ipAddress: context.get(clientAddressContext), userAgent: request.headers.get("user-agent") };
    return codeStepAction(request, post, step, meta, locale);
  }
  const form = parsePageForm(post.formData, signInPageForm, t);
  const email = typeof form.submission.payload.email === "string" ? form.submission.payload.email : "";
  const refused = (formError: string | null, reply: ReturnType<typeof refusal>) =>
    data<ActionResult>({ step: "credentials", formError, notice: null, email, method: null, ...reply.data }, reply.init ?? undefined);
  // A missing or wrong CSRF token is a stale page (docs/api-contract.md §8): 403, whatever else is wrong.
  if (!post.tokenValid) {
    const formError = t.signIn.sessionExpired;
    return refused(formError, refusal(form.submission, { fieldErrors: {}, formError }, 403));
  }
  if (!form.ok) return refused(null, form.reply);
  try {
    const { setCookie } = await signInWithCredentials(form.value, {
      ipAddress: context.get(clientAddressContext),
      userAgent: request.headers.get("user-agent"),
      request,
    });
    return redirect(`/${locale}/home`, { headers: { "Set-Cookie": setCookie } });
  } catch (error) {
    if (error instanceof SecondFactorRequiredError) return beginCodeStep(error.user, locale);
    if (!(error instanceof ApiError)) throw error;
    const formError = error.code === "RATE_LIMITED" ? t.signIn.tooManyAttempts : problemTextOf(t, error);
    return refused(formError, refusal(form.submission, { fieldErrors: {}, formError }, error.status, error.headers));
  }
}

export default function Login({ loaderData, actionData, params }: Route.ComponentProps) {
  const t = useT();
  const locale = resolveLocale(params.locale);
  const { form, fields } = useForm(pageFormOptions(loaderData.validation, actionData?.step === "credentials" ? actionData.result : undefined));
  if (actionData?.step === "code" && actionData.method) {
    return <CodeStep csrfToken={loaderData.csrfToken} result={actionData} method={actionData.method} locale={locale} validation={loaderData.codeValidation} />;
  }
  // A form error the code step sent back here (an expired sign-in) has no Conform result; the
  // others are in the error summary.
  const formError = form.errors?.[0] ? null : actionData?.formError;
  return (
    <AuthLayout
      title={t.signIn.title}
      description={t.app.tagline}
      footer={
        <p>
          <Link to={`/${locale}/forgot-password`} className={authLinkClasses}>
            {t.signIn.forgot}
          </Link>
        </p>
      }
    >
      <Form method="post" className="space-y-5" {...form.props}>
        <input type="hidden" name="csrfToken" value={loaderData.csrfToken} />
        {loaderData.notice && !actionData ? <Alert tone={loaderData.notice.tone}>{loaderData.notice.text}</Alert> : null}
        {formError ? <Alert tone="error">{formError}</Alert> : null}
        <ErrorSummary form={form} fields={["email", "password"]} label={(name) => (name === "email" ? t.signIn.email : t.signIn.password)} />
        <Field
          label={t.signIn.email}
          id="email"
          name={fields.email.name}
          type="email"
          autoComplete="username"
          required={fields.email.required}
          defaultValue={fields.email.defaultValue ?? actionData?.email}
          error={fields.email.errors}
        />
        <Field
          label={t.signIn.password}
          id="password"
          name={fields.password.name}
          type="password"
          autoComplete="current-password"
          required={fields.password.required}
          error={fields.password.errors}
        />
        <Button type="submit" variant="primary" className="w-full" pendingText={t.signIn.submitting}>
          {t.signIn.submit}
        </Button>
      </Form>
      {loaderData.oidcProvider ? (
        <>
          <p className="my-4 flex items-center gap-3 text-sm text-slate-600 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200">
            {t.signIn.or}
          </p>
          {/* A plain link, not <Link> or a form: the browser itself must follow the redirect to the provider. */}
          <a href={`/api/auth/oidc?locale=${locale}`} className={buttonClasses({ variant: "secondary", className: "w-full" })}>
            {t.signIn.withProvider(loaderData.oidcProvider)}
          </a>
        </>
      ) : null}
    </AuthLayout>
  );
}

/**
 * The second step: only the code is asked for. The password stays out of the HTML; the pending
 * cookie set with this answer stands for it. Pressing Enter submits the first button (intent=code).
 */
function CodeStep(props: { csrfToken: string; result: ActionResult; method: "TOTP" | "EMAIL"; locale: string; validation: ClientValidation<"code"> }) {
  const t = useT();
  const { result, method } = props;
  const { form, fields } = useForm(pageFormOptions(props.validation, result.result));
  return (
    <AuthLayout
      title={t.signIn.codeTitle}
      description={t.signIn.signingInAs(result.email)}
      footer={
        <p>
          <a href={`/${props.locale}/login`} className={authLinkClasses}>
            {t.signIn.startAgain}
          </a>
        </p>
      }
    >
      <Form method="post" className="space-y-5" {...form.props}>
        <input type="hidden" name="csrfToken" value={props.csrfToken} />
        {result.notice ? <Alert tone="success">{result.notice}</Alert> : null}
        {result.formError ? <Alert tone="error">{result.formError}</Alert> : null}
        <p className="text-sm text-slate-700">{method === "TOTP" ? t.signIn.totpInstructions : t.signIn.emailInstructions}</p>
        <Field
          label={method === "TOTP" ? t.signIn.totpLabel : t.signIn.emailLabel}
          id="code"
          name={fields.code.name}
          type="text"
          autoComplete="one-time-code"
          inputMode="numeric"
          autoFocus
          error={fields.code.errors}
        />
        <Button type="submit" name="intent" value="code" variant="primary" className="w-full" pendingText={t.signIn.checking}>
          {t.signIn.verify}
        </Button>
        {method === "EMAIL" ? (
          <Button type="submit" name="intent" value="resend" variant="secondary" className="w-full" pendingText={t.signIn.sending}>
            {t.signIn.resend}
          </Button>
        ) : null}
      </Form>
    </AuthLayout>
  );
}
