import { Form, Link, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { resetPasswordBody } from "~/features/passwords/password-schemas.ts";
import { isResetLinkUsable, resetPassword } from "~/features/passwords/passwords.server.ts";
import { issueCsrfToken, verifyCsrfToken } from "~/lib/auth/csrf.server.ts";
import { PASSWORD_MIN_LENGTH } from "~/lib/auth/password.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { ApiError } from "~/lib/problem.server.ts";

/**
 * The page behind reset and invitation links (`?token=`): a plain form for the new password that
 * sets it through the same service as POST /api/auth/reset-password, then sends the user to sign
 * in. The token is a credential, so the page is never cached and sends no Referer.
 */
const PRIVATE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => [
  { title: "Choose a new password · Assessment Service" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const usable = token !== "" && token.length <= 200 && (await isResetLinkUsable(token));
  const { token: csrfToken, setCookie } = await issueCsrfToken(request);
  return data(
    { csrfToken, token: usable ? token : "", usable, minLength: PASSWORD_MIN_LENGTH },
    { status: usable ? 200 : 400, headers: { ...PRIVATE_HEADERS, ...(setCookie ? { "Set-Cookie": setCookie } : {}) } },
  );
}

type ActionResult = { invalidLink: boolean; fieldErrors: Record<string, string>; formError: string | null };

export async function action({ request, params }: Route.ActionArgs) {
  const form = await request.formData();
  const input = { token: String(form.get("token") ?? ""), password: String(form.get("password") ?? "") };
  const fail = (result: Partial<ActionResult>, status: number, headers: Record<string, string> = {}) =>
    data<ActionResult>(
      { invalidLink: false, fieldErrors: {}, formError: null, ...result },
      { status, headers: { ...PRIVATE_HEADERS, ...headers } },
    );
  try {
    await verifyCsrfToken(request, String(form.get("csrfToken") ?? ""));
    const parsed = resetPasswordBody.safeParse(input);
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
      if (fieldErrors.token) return fail({ invalidLink: true }, 400);
      return fail({ fieldErrors }, 400);
    }
    await resetPassword(parsed.data);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "INVALID_TOKEN") return fail({ invalidLink: true }, 400);
    if (error.code === "CSRF_FAILED") return fail({ formError: "Your session expired. Please try again." }, 403);
    const fieldErrors = Object.fromEntries((error.errors ?? []).map((problem) => [problem.path, problem.message]));
    return fail({ fieldErrors, formError: error.errors?.length ? null : error.detail }, error.status, error.headers);
  }
  return redirect(`/${resolveLocale(params.locale)}/login?notice=password-reset`);
}

export default function ResetPassword({ loaderData, actionData, params }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const locale = resolveLocale(params.locale);
  const errors = actionData?.fieldErrors ?? {};
  const usable = loaderData.usable && !actionData?.invalidLink;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6">
      <h1 className="text-2xl font-bold tracking-tight">Choose a new password</h1>
      {usable ? (
        <Form method="post" className="mt-8 space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
          <input type="hidden" name="csrfToken" value={loaderData.csrfToken} />
          <input type="hidden" name="token" value={loaderData.token} />
          {actionData?.formError ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {actionData.formError}
            </p>
          ) : null}
          <div>
            <label htmlFor="password" className="block text-sm font-medium">
              New password
            </label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={loaderData.minLength}
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? "password-hint password-error" : "password-hint"}
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
            />
            <p id="password-hint" className="mt-1 text-sm text-slate-600">
              At least {loaderData.minLength} characters. Any characters, spaces and emoji work; a longer phrase is easier to
              remember and harder to guess. Very common passwords are not accepted.
            </p>
            {errors.password ? (
              <p id="password-error" className="mt-1 text-sm text-red-700">
                {errors.password}
              </p>
            ) : null}
          </div>
          <button
            type="submit"
            disabled={submitting}
            className="w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
          >
            {submitting ? "Saving…" : "Save the new password"}
          </button>
        </Form>
      ) : (
        <div role="alert" className="mt-8 rounded-lg border border-amber-200 bg-amber-50 p-6 text-amber-900">
          <p>This link is not valid any more: it was already used, it expired, or a newer one was sent.</p>
          <p className="mt-3">
            <Link to={`/${locale}/forgot-password`} className="font-medium text-indigo-700 underline hover:text-indigo-900">
              Send me a new link
            </Link>
          </p>
        </div>
      )}
      <p className="mt-6 text-sm">
        <Link to={`/${locale}/login`} className="font-medium text-indigo-700 underline hover:text-indigo-900">
          Back to sign in
        </Link>
      </p>
    </main>
  );
}
