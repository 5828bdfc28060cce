import { pageQuery } from "~/lib/http.server.ts";
import { Form, Link, data, redirect } from "react-router";
import type { Route } from "./+types/reset-password";
import { Alert } from "~/components/alert.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { AuthLayout, authLinkClasses } from "~/components/auth-layout.tsx";
import { Button } from "~/components/button.tsx";
import { Field } from "~/components/field.tsx";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { resetPasswordBody } from "~/features/passwords/password-schemas.ts";
import { isResetLinkUsable, resetPassword } from "~/features/passwords/passwords.server.ts";
import { issueCsrfToken } from "~/lib/auth/csrf.server.ts";
import { pagePost, parsePageForm, pageTranslations } from "~/lib/page.server.ts";
import { PASSWORD_MIN_LENGTH } from "~/lib/auth/password.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { clientAddressContext } from "~/lib/context.server.ts";
import { requestOrigin } from "~/lib/request-origin.server.ts";
import { ApiError, pageErrors } from "~/lib/problem.server.ts";
import { clientValidation, pageResult } from "~/lib/client-validation.server.ts";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";

/**
 * The page behind reset and invitation links (`?token=`): a plain form for the new password that
 * sets it through the same service as POST /api/auth/reset-password, then sends the user to sign
 * in. The token is a credential, so the page is never cached and sends no Referer.
 */
const PRIVATE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = ({ params, matches }) => [
  { title: documentTitle(metaTranslations({ params, matches }), metaTranslations({ params, matches }).signIn.resetTitle) },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const token = pageQuery(request, ["token"]).token ?? "";
  const usable = token !== "" && token.length <= 200 && (await isResetLinkUsable(token));
  const { token: csrfToken, setCookie } = await issueCsrfToken(request);
  return data(
    {
      csrfToken,
      token: usable ? token : "",
      usable,
      minLength: PASSWORD_MIN_LENGTH,
      validation: clientValidation(resetPasswordBody.pick({ password: true }), pageTranslations(context, params.locale)),
    },
    { status: usable ? 200 : 400, headers: { ...PRIVATE_HEADERS, ...(setCookie ? { "Set-Cookie": setCookie } : {}) } },
  );
}

type ActionResult = { invalidLink: boolean; result: ReturnType<typeof pageResult> | null };

export async function action({ request, context, params }: Route.ActionArgs) {
  const t = pageTranslations(context, params.locale);
  const post = await pagePost(request);
  const form = parsePageForm(post.formData, resetPasswordBody, t);
  const fail = (
    answer: { invalidLink?: boolean; fieldErrors?: Record<string, string>; formError?: string | null },
    status: number,
    headers: Record<string, string> = {},
  ) =>
    data<ActionResult>(
      {
        invalidLink: answer.invalidLink ?? false,
        result: pageResult(form.submission, { fieldErrors: answer.fieldErrors ?? {}, formError: answer.formError ?? null }),
      },
      { status, headers: { ...PRIVATE_HEADERS, ...headers } },
    );
  if (!post.tokenValid) return fail({ formError: t.signIn.sessionExpired }, 403);
  if (!form.ok) {
    // The link's token is a hidden field: wrong, it is the link that is not valid.
    return fail(form.fieldErrors.token ? { invalidLink: true } : { fieldErrors: form.fieldErrors }, 400);
  }
  try {
    await resetPassword(form.value, requestOrigin(request, context.get(clientAddressContext)));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "INVALID_TOKEN") return fail({ invalidLink: true }, 400);
    return fail(pageErrors(t, error), error.status, error.headers);
  }
  return redirect(`/${resolveLocale(params.locale)}/login?notice=password-reset`);
}

export default function ResetPassword({ loaderData, actionData, params }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = resolveLocale(params.locale);
  const usable = loaderData.usable && !actionData?.invalidLink;
  const { form, fields } = useForm(pageFormOptions(loaderData.validation, actionData?.result));
  return (
    <AuthLayout
      title={t.signIn.resetTitle}
      footer={
        <p>
          <Link to={`/${locale}/login`} className={authLinkClasses}>
            {t.signIn.backToSignIn}
          </Link>
        </p>
      }
    >
      {usable ? (
        <Form method="post" className="space-y-5" {...form.props}>
          <input type="hidden" name="csrfToken" value={loaderData.csrfToken} />
          <input type="hidden" name="token" value={loaderData.token} />
          <ErrorSummary form={form} label={() => t.signIn.newPassword} />
          <Field
            label={t.signIn.newPassword}
            description={t.signIn.resetHint(format.number(loaderData.minLength))}
            id="password"
            name={fields.password.name}
            type="password"
            autoComplete="new-password"
            required={fields.password.required}
            minLength={loaderData.minLength}
            error={fields.password.errors}
          />
          <Button type="submit" variant="primary" className="w-full" pendingText={t.signIn.saving}>
            {t.signIn.saveNewPassword}
          </Button>
        </Form>
      ) : (
        <Alert tone="warning">
          <p>{t.signIn.linkInvalid}</p>
          <p className="mt-3">
            <Link to={`/${locale}/forgot-password`} className={authLinkClasses}>
              {t.signIn.sendNewLink}
            </Link>
          </p>
        </Alert>
      )}
    </AuthLayout>
  );
}
