import { data } from "react-router";
import type { Route } from "./+types/login.oidc-error";
import { OIDC_FAILURES, oidcProviderName, type OidcFailure } from "~/lib/auth/oidc.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Sign-in failed · Assessment Service" },
  { name: "robots", content: "noindex" },
];

type Explanation = { status: number; message: string; retry: boolean };

/** What each refusal of /api/auth/oidc/callback means for the person who was sent here. */
const EXPLANATIONS: Record<OidcFailure, Explanation> = {
  state: {
    status: 400,
    message: "This sign-in has expired or was already used, or it was started in another browser. Please start again.",
    retry: true,
  },
  cancelled: { status: 400, message: "The sign-in was cancelled at the identity provider. Nothing was changed.", retry: true },
  provider: { status: 502, message: "The identity provider could not complete the sign-in. Please try again in a moment.", retry: true },
  token: {
    status: 400,
    message: "We could not verify the identity provider's answer, so we did not sign you in. Please start again.",
    retry: true,
  },
  unverified: {
    status: 403,
    message: "The identity provider does not confirm that your e-mail address is verified. Verify it there, or sign in with your password.",
    retry: false,
  },
  "no-account": {
    status: 403,
    message: "There is no active account here for the e-mail address the identity provider gave us. Ask your administrator for access, or sign in with your password.",
    retry: false,
  },
  "second-factor": {
    status: 403,
    message: "Your account is protected by a second factor here. Please sign in with your e-mail address, password and code.",
    retry: false,
  },
  "linked-elsewhere": {
    status: 403,
    message: "Your account here is already linked to a different identity at this provider. Sign in with that one, or with your password.",
    retry: false,
  },
  unavailable: {
    status: 503,
    message: "Signing in with the identity provider is not available right now. Please sign in with your password or try again later.",
    retry: false,
  },
};

const isFailure = (value: string | null): value is OidcFailure => (OIDC_FAILURES as readonly (string | null)[]).includes(value);

/**
 * The page a refused OpenID Connect sign-in lands on: a sentence for the reason (from a fixed
 * list; nothing from the request is echoed) and the way back to the sign-in page.
 */
export function loader({ request, params }: Route.LoaderArgs) {
  const locale = resolveLocale(params.locale);
  const reason = new URL(request.url).searchParams.get("reason");
  const explanation: Explanation = isFailure(reason)
    ? EXPLANATIONS[reason]
    : { status: 400, message: "We could not sign you in with the identity provider. Please start again.", retry: true };
  const providerName = oidcProviderName();
  return data(
    { locale, message: explanation.message, retryWith: explanation.retry ? providerName : null },
    { status: explanation.status, headers: { "Cache-Control": "no-store" } },
  );
}

export default function OidcSignInError({ loaderData }: Route.ComponentProps) {
  const { locale, message, retryWith } = loaderData;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6">
      <h1 className="text-2xl font-bold tracking-tight">We could not sign you in</h1>
      <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-red-800">
        {message}
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <a className="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800" href={`/${locale}/login`}>
          Back to the sign-in page
        </a>
        {retryWith ? (
          <a
            className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100"
            href={`/api/auth/oidc?locale=${encodeURIComponent(locale)}`}
          >
            {`Sign in with ${retryWith} again`}
          </a>
        ) : null}
      </div>
    </main>
  );
}
