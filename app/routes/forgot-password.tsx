import { Form, Link, data } from "react-router";
import type { Route } from "./+types/forgot-password";
import { Alert } from "~/components/alert.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { AuthLayout, authLinkClasses } from "~/components/auth-layout.tsx";
import { Button } from "~/components/button.tsx";
import { Field } from "~/components/field.tsx";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useT } from "~/i18n/hooks.ts";
import { forgotPasswordBody } from "~/features/passwords/password-schemas.ts";
import { requestPasswordReset } from "~/features/passwords/passwords.server.ts";
import { issueCsrfToken } from "~/lib/auth/csrf.server.ts";
import { pagePost, parsePageForm, refusal, pageTranslations } from "~/lib/page.server.ts";
import { clientAddressContext } from "~/lib/context.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { ApiError, problemTextOf } from "~/lib/problem.server.ts";
import { clientValidation, type pageResult } from "~/lib/client-validation.server.ts";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";

/**
 * "Forgot your password?": a plain form that asks for the e-mail address and answers with the
 * same neutral message whether or not an account uses it, through the same service as
 * POST /api/auth/forgot-password (same limits, same e-mail).
 */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.signIn.forgotTitle) }];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { token, setCookie } = await issueCsrfToken(request);
  const validation = clientValidation(forgotPasswordBody, pageTranslations(context, params.locale));
  return data({ csrfToken: token, validation }, { headers: setCookie ? { "Set-Cookie": setCookie } : {} });
}

type ActionResult = { sent: true } | { sent: false; result: ReturnType<typeof pageResult> };

export async function action({ request, context, params }: Route.ActionArgs) {
  const t = pageTranslations(context, params.locale);
  const post = await pagePost(request);
  const form = parsePageForm(post.formData, forgotPasswordBody, t);
  const refused = (reply: ReturnType<typeof refusal>) => data<ActionResult>({ sent: false, ...reply.data }, reply.init ?? undefined);
  // A stale page first: 403, whatever the address.
  if (!post.tokenValid) return refused(refusal(form.submission, { fieldErrors: {}, formError: t.signIn.sessionExpired }, 403));
  if (!form.ok) return refused(form.reply);
  try {
    await requestPasswordReset(form.value.email, context.get(clientAddressContext));
    return data<ActionResult>({ sent: true });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return refused(refusal(form.submission, { fieldErrors: {}, formError: problemTextOf(t, error) }, error.status, error.headers));
  }
}

export default function ForgotPassword({ loaderData, actionData, params }: Route.ComponentProps) {
  const t = useT();
  const locale = resolveLocale(params.locale);
  const failed = actionData && !actionData.sent ? actionData : null;
  const { form, fields } = useForm(pageFormOptions(loaderData.validation, failed?.result));
  return (
    <AuthLayout
      title={t.signIn.forgotTitle}
      description={t.signIn.forgotIntro}
      footer={
        <p>
          <Link to={`/${locale}/login`} className={authLinkClasses}>
            {t.signIn.backToSignIn}
          </Link>
        </p>
      }
    >
      {actionData?.sent ? (
        <Alert tone="success">{t.signIn.forgotSent}</Alert>
      ) : (
        <Form method="post" className="space-y-5" {...form.props}>
          <input type="hidden" name="csrfToken" value={loaderData.csrfToken} />
          <ErrorSummary form={form} label={() => t.signIn.email} />
          <Field
            label={t.signIn.email}
            id="email"
            name={fields.email.name}
            type="email"
            autoComplete="username"
            required={fields.email.required}
            maxLength={fields.email.maxLength}
            defaultValue={fields.email.defaultValue}
            error={fields.email.errors}
          />
          <Button type="submit" variant="primary" className="w-full" pendingText={t.signIn.sending}>
            {t.signIn.sendLink}
          </Button>
        </Form>
      )}
    </AuthLayout>
  );
}
