import { Form, Link, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/login";
import { issueCsrfToken, verifyCsrfToken } from "~/lib/auth/csrf.server.ts";
import { oidcProviderName } from "~/lib/auth/oidc.server.ts";
import { beginCodeStep, codeStepAction, type LoginActionResult } from "~/lib/auth/sign-in-page.server.ts";
import { credentialsBody, SecondFactorRequiredError, signInWithCredentials } from "~/lib/auth/sign-in.server.ts";
import { actorContext, clientAddressContext } from "~/lib/context.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { ApiError } from "~/lib/problem.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Sign in · Assessment Service" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const locale = resolveLocale(params.locale);
  if (context.get(actorContext)) throw redirect(`/${locale}/home`);
  const { token, setCookie } = await issueCsrfToken(request);
  // Set by the reset-password page after a new password was saved.
  const notice =
    new URL(request.url).searchParams.get("notice") === "password-reset"
      ? "Your new password is saved. Sign in with it."
      : null;
  return data(
    // oidcProvider: the "Sign in with …" button's name, when an OpenID provider is configured.
    { csrfToken: token, notice, oidcProvider: oidcProviderName() },
    { headers: setCookie ? { "Set-Cookie": setCookie } : {} },
  );
}

type ActionResult = LoginActionResult;

/**
 * The page's own form posts here and signs in with the same service as
 * POST /api/auth/callback/credentials, so errors can be shown next to the fields instead of JSON.
 * A user with a second factor gets a second step asking for the code (sign-in-page.server.ts).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  if (form.intent === "code" || form.intent === "resend") {
    const meta = { ipAddress: context.get(clientAddressContext), userAgent: request.headers.get("user-agent") };
    return codeStepAction(request, form, meta, `/${resolveLocale(params.locale)}/home`);
  }
  const email = typeof form.email === "string" ? form.email : "";
  const parsed = credentialsBody.safeParse({ ...form, code: form.code || undefined });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return data<ActionResult>({ step: "credentials", fieldErrors, formError: null, notice: null, email, method: null }, { status: 400 });
  }
  try {
    await verifyCsrfToken(request, parsed.data.csrfToken);
    const { setCookie } = await signInWithCredentials(parsed.data, {
      ipAddress: context.get(clientAddressContext),
      userAgent: request.headers.get("user-agent"),
    });
    return redirect(`/${resolveLocale(params.locale)}/home`, { headers: { "Set-Cookie": setCookie } });
  } catch (error) {
    if (error instanceof SecondFactorRequiredError) return beginCodeStep(error.user);
    if (!(error instanceof ApiError)) throw error;
    const formError = error.code === "CSRF_FAILED" ? "Your session expired. Please try again." : error.detail;
    return data<ActionResult>(
      { step: "credentials", fieldErrors: {}, formError, notice: null, email, method: null },
      { status: error.status },
    );
  }
}

export default function Login({ loaderData, actionData, params }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const errors = actionData?.fieldErrors ?? {};
  if (actionData?.step === "code" && actionData.method) {
    return <CodeStep csrfToken={loaderData.csrfToken} result={actionData} method={actionData.method} locale={resolveLocale(params.locale)} submitting={submitting} />;
  }
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6">
      <h1 className="text-2xl font-bold tracking-tight">Sign in</h1>
      <p className="mt-1 text-slate-600">Assessment Service for schools and clinics</p>
      <Form method="post" className="mt-8 space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
        <input type="hidden" name="csrfToken" value={loaderData.csrfToken} />
        {loaderData.notice && !actionData ? (
          <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            {loaderData.notice}
          </p>
        ) : null}
        {actionData?.formError ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {actionData.formError}
          </p>
        ) : null}
        <Field label="E-mail" name="email" type="email" autoComplete="username" defaultValue={actionData?.email} error={errors.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" error={errors.password} />
        <button
          type="submit"
          disabled={submitting}
          className="w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
        >
          {submitting ? "Signing in…" : "Sign in"}
        </button>
      </Form>
      {loaderData.oidcProvider ? (
        // A plain link, not <Link> or a form: the browser itself must follow the redirect to the provider.
        <a
          href={`/api/auth/oidc?locale=${resolveLocale(params.locale)}`}
          className="mt-4 block w-full rounded-md border border-slate-300 bg-white px-4 py-2 text-center font-medium text-slate-800 hover:bg-slate-50"
        >
          {`Sign in with ${loaderData.oidcProvider}`}
        </a>
      ) : null}
      <p className="mt-6 text-sm">
        <Link to={`/${resolveLocale(params.locale)}/forgot-password`} className="font-medium text-indigo-700 underline hover:text-indigo-900">
          Forgot your password?
        </Link>
      </p>
    </main>
  );
}

/**
 * The second step: only the code is asked for. The password stays out of the HTML; the pending
 * cookie set with this answer stands for it. Pressing Enter submits the first button (intent=code).
 */
function CodeStep(props: { csrfToken: string; result: ActionResult; method: "TOTP" | "EMAIL"; locale: string; submitting: boolean }) {
  const { result, method } = props;
  const instructions =
    method === "TOTP"
      ? "Enter the 6-digit code your authenticator app shows for the Assessment Service."
      : "Enter the 6-digit code we e-mailed to you.";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6">
      <h1 className="text-2xl font-bold tracking-tight">Enter your code</h1>
      <p className="mt-1 text-slate-600">
        Signing in as <strong>{result.email}</strong>
      </p>
      <Form method="post" className="mt-8 space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
        <input type="hidden" name="csrfToken" value={props.csrfToken} />
        {result.notice ? (
          <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            {result.notice}
          </p>
        ) : null}
        {result.formError ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {result.formError}
          </p>
        ) : null}
        <p className="text-sm text-slate-700">{instructions}</p>
        <Field
          label={method === "TOTP" ? "Authenticator code" : "E-mailed code"}
          name="code"
          type="text"
          autoComplete="one-time-code"
          inputMode="numeric"
          autoFocus
          error={result.fieldErrors.code}
        />
        <button
          type="submit"
          name="intent"
          value="code"
          disabled={props.submitting}
          className="w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
        >
          {props.submitting ? "Checking…" : "Verify and sign in"}
        </button>
        {method === "EMAIL" ? (
          <button
            type="submit"
            name="intent"
            value="resend"
            disabled={props.submitting}
            className="w-full rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60"
          >
            Send a new code
          </button>
        ) : null}
      </Form>
      <p className="mt-6 text-sm">
        <a href={`/${props.locale}/login`} className="font-medium text-indigo-700 underline hover:text-indigo-900">
          Start again with another account
        </a>
      </p>
    </main>
  );
}

function Field(props: {
  label: string;
  name: string;
  type: string;
  autoComplete: string;
  defaultValue?: string | undefined;
  error?: string | undefined;
  inputMode?: "numeric" | undefined;
  autoFocus?: boolean | undefined;
}) {
  const errorId = `${props.name}-error`;
  return (
    <div>
      <label htmlFor={props.name} className="block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={props.name}
        name={props.name}
        type={props.type}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        inputMode={props.inputMode}
        autoFocus={props.autoFocus}
        required
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
      />
      {props.error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
