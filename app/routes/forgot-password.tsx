import { Form, Link, data, useNavigation } from "react-router";
import type { Route } from "./+types/forgot-password";
import { forgotPasswordBody } from "~/features/passwords/password-schemas.ts";
import { FORGOT_PASSWORD_MESSAGE, requestPasswordReset } from "~/features/passwords/passwords.server.ts";
import { issueCsrfToken, verifyCsrfToken } from "~/lib/auth/csrf.server.ts";
import { clientAddressContext } from "~/lib/context.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { ApiError } from "~/lib/problem.server.ts";

/**
 * "Forgot your password?": a plain form that asks for the e-mail address and answers with the
 * same neutral message whether or not an account uses it, through the same service as
 * POST /api/auth/forgot-password (same limits, same e-mail).
 */
export const meta: Route.MetaFunction = () => [{ title: "Forgot your password · Assessment Service" }];

export async function loader({ request }: Route.LoaderArgs) {
  const { token, setCookie } = await issueCsrfToken(request);
  return data({ csrfToken: token }, { headers: setCookie ? { "Set-Cookie": setCookie } : {} });
}

type ActionResult =
  | { sent: true; message: string }
  | { sent: false; fieldErrors: Record<string, string>; formError: string | null; email: string };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const email = String(form.get("email") ?? "");
  const parsed = forgotPasswordBody.safeParse({ email });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return data<ActionResult>({ sent: false, fieldErrors, formError: null, email }, { status: 400 });
  }
  try {
    await verifyCsrfToken(request, String(form.get("csrfToken") ?? ""));
    await requestPasswordReset(parsed.data.email, context.get(clientAddressContext));
    return data<ActionResult>({ sent: true, message: FORGOT_PASSWORD_MESSAGE });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const formError = error.code === "CSRF_FAILED" ? "Your session expired. Please try again." : error.detail;
    return data<ActionResult>(
      { sent: false, fieldErrors: {}, formError, email },
      { status: error.status, headers: error.headers ?? {} },
    );
  }
}

export default function ForgotPassword({ loaderData, actionData, params }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const locale = resolveLocale(params.locale);
  const failed = actionData && !actionData.sent ? actionData : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6">
      <h1 className="text-2xl font-bold tracking-tight">Forgot your password?</h1>
      <p className="mt-1 text-slate-600">Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
      {actionData?.sent ? (
        <p role="status" className="mt-8 rounded-lg border border-emerald-200 bg-emerald-50 p-6 text-emerald-900">
          {actionData.message}
        </p>
      ) : (
        <Form method="post" className="mt-8 space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
          <input type="hidden" name="csrfToken" value={loaderData.csrfToken} />
          {failed?.formError ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {failed.formError}
            </p>
          ) : null}
          <div>
            <label htmlFor="email" className="block text-sm font-medium">
              E-mail
            </label>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="username"
              defaultValue={failed?.email}
              required
              aria-invalid={failed?.fieldErrors.email ? true : undefined}
              aria-describedby={failed?.fieldErrors.email ? "email-error" : undefined}
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
            />
            {failed?.fieldErrors.email ? (
              <p id="email-error" className="mt-1 text-sm text-red-700">
                {failed.fieldErrors.email}
              </p>
            ) : null}
          </div>
          <button
            type="submit"
            disabled={submitting}
            className="w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
          >
            {submitting ? "Sending…" : "Send me a link"}
          </button>
        </Form>
      )}
      <p className="mt-6 text-sm">
        <Link to={`/${locale}/login`} className="font-medium text-indigo-700 underline hover:text-indigo-900">
          Back to sign in
        </Link>
      </p>
    </main>
  );
}
