import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/login";
import { issueCsrfToken, verifyCsrfToken } from "~/lib/auth/csrf.server.ts";
import { credentialsBody, signInWithCredentials } from "~/lib/auth/sign-in.server.ts";
import { actorContext, clientAddressContext } from "~/lib/context.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { ApiError } from "~/lib/problem.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Sign in · Assessment Service" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const locale = resolveLocale(params.locale);
  if (context.get(actorContext)) throw redirect(`/${locale}/home`);
  const { token, setCookie } = await issueCsrfToken(request);
  return data({ csrfToken: token }, { headers: setCookie ? { "Set-Cookie": setCookie } : {} });
}

type ActionResult = { fieldErrors: Record<string, string>; formError: string | null; email: string };

/**
 * The page's own form posts here and signs in with the same service as
 * POST /api/auth/callback/credentials, so errors can be shown next to the fields instead of JSON.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const email = typeof form.email === "string" ? form.email : "";
  const parsed = credentialsBody.safeParse({ ...form, code: form.code || undefined });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return data<ActionResult>({ fieldErrors, formError: null, email }, { status: 400 });
  }
  try {
    await verifyCsrfToken(request, parsed.data.csrfToken);
    const { setCookie } = await signInWithCredentials(parsed.data, {
      ipAddress: context.get(clientAddressContext),
      userAgent: request.headers.get("user-agent"),
    });
    return redirect(`/${resolveLocale(params.locale)}/home`, { headers: { "Set-Cookie": setCookie } });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const formError = error.code === "CSRF_FAILED" ? "Your session expired. Please try again." : error.detail;
    return data<ActionResult>({ fieldErrors: {}, formError, email }, { status: error.status });
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const errors = actionData?.fieldErrors ?? {};
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6">
      <h1 className="text-2xl font-bold tracking-tight">Sign in</h1>
      <p className="mt-1 text-slate-600">Assessment Service for schools and clinics</p>
      <Form method="post" className="mt-8 space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
        <input type="hidden" name="csrfToken" value={loaderData.csrfToken} />
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
    </main>
  );
}

function Field(props: { label: string; name: string; type: string; autoComplete: string; defaultValue?: string | undefined; error?: string | undefined }) {
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
