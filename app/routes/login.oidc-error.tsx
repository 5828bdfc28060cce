import { data } from "react-router";
import type { Route } from "./+types/login.oidc-error";
import { Alert } from "~/components/alert.tsx";
import { AuthLayout } from "~/components/auth-layout.tsx";
import { buttonClasses } from "~/components/button.tsx";
import { documentTitle, type Dictionary } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useT } from "~/i18n/hooks.ts";
import { OIDC_FAILURES, oidcProviderName, type OidcFailure } from "~/features/auth/oidc.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { pageQuery } from "~/lib/http.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => [
  { title: documentTitle(metaTranslations({ params, matches }), metaTranslations({ params, matches }).signIn.oidcPageTitle) },
  { name: "robots", content: "noindex" },
];

type ReasonKey = keyof Dictionary["signIn"]["oidcReasons"];
type Explanation = { status: number; reason: ReasonKey; retry: boolean };

/** What each refusal of /api/auth/oidc/callback means for the person who was sent here (the words are in the dictionaries). */
const EXPLANATIONS: Record<OidcFailure, Explanation> = {
  state: { status: 400, reason: "state", retry: true },
  cancelled: { status: 400, reason: "cancelled", retry: true },
  provider: { status: 502, reason: "provider", retry: true },
  token: { status: 400, reason: "token", retry: true },
  unverified: { status: 403, reason: "unverified", retry: false },
  "no-account": { status: 403, reason: "noAccount", retry: false },
  "second-factor": { status: 403, reason: "secondFactor", retry: false },
  "linked-elsewhere": { status: 403, reason: "linkedElsewhere", retry: false },
  unavailable: { status: 503, reason: "unavailable", retry: false },
};

const isFailure = (value: string | null): value is OidcFailure => (OIDC_FAILURES as readonly (string | null)[]).includes(value);

/**
 * The page a refused OpenID Connect sign-in lands on: a sentence for the reason (from a fixed
 * list; nothing from the request is echoed) and the way back to the sign-in page.
 */
export function loader({ request, params }: Route.LoaderArgs) {
  const locale = resolveLocale(params.locale);
  const reason = pageQuery(request, ["reason"]).reason ?? null;
  const explanation: Explanation = isFailure(reason) ? EXPLANATIONS[reason] : { status: 400, reason: "unknown", retry: true };
  const providerName = oidcProviderName();
  return data(
    { locale, reason: explanation.reason, retryWith: explanation.retry ? providerName : null },
    { status: explanation.status, headers: { "Cache-Control": "no-store" } },
  );
}

export default function OidcSignInError({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { locale, reason, retryWith } = loaderData;
  return (
    <AuthLayout title={t.signIn.oidcTitle}>
      <Alert tone="error">{t.signIn.oidcReasons[reason]}</Alert>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <a className={buttonClasses({ variant: "primary" })} href={`/${locale}/login`}>
          {t.signIn.oidcBack}
        </a>
        {retryWith ? (
          <a className={buttonClasses({ variant: "secondary" })} href={`/api/auth/oidc?locale=${encodeURIComponent(locale)}`}>
            {t.signIn.oidcRetry(retryWith)}
          </a>
        ) : null}
      </div>
    </AuthLayout>
  );
}
