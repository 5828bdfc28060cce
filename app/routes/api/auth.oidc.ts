import { beginOidcSignIn, oidcConfigured, oidcNotConfigured, oidcStartQuery } from "~/features/auth/oidc.server.ts";
import { endpoint } from "~/lib/endpoint.server.ts";
import { readQuery } from "~/lib/http.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";

/**
 * GET /api/auth/oidc[?locale=es]: sends the browser to the provider with state, a PKCE S256
 * challenge and a nonce, remembered in the signed state cookie.
 */
const handle = endpoint(
  {
    GET: async ({ request }) => {
      if (!oidcConfigured()) throw oidcNotConfigured();
      const { locale } = readQuery(request, oidcStartQuery);
      const headers = new Headers({ "Cache-Control": "no-store" });
      try {
        const { url, setCookie } = await beginOidcSignIn(locale);
        headers.set("Location", url);
        headers.set("Set-Cookie", setCookie);
      } catch (error) {
        console.error("[oidc] the provider could not be discovered:", error);
        headers.set("Location", `/${resolveLocale(locale)}/login/oidc-error?reason=unavailable`);
      }
      return new Response(null, { status: 302, headers });
    },
  },
  {
    GET: {
      operationId: "startOidcSignIn",
      tag: "Authentication",
      auth: "public",
      summary:
        "Start signing in with the external OpenID Connect provider (browsers): redirects to its authorization endpoint with " +
        "state, a PKCE S256 challenge and a nonce, kept in the signed, HttpOnly, SameSite=Lax cookie remix-auth.oidc-state (10 minutes). " +
        "404 OIDC_NOT_CONFIGURED when no provider is configured.",
      query: oidcStartQuery,
      success: {
        status: 302,
        description: "To the provider (or, when it cannot be reached, to the page /{locale}/login/oidc-error?reason=unavailable).",
        headers: ["Location", "Set-Cookie"],
      },
      errors: [400, 404],
      codes: { 404: ["OIDC_NOT_CONFIGURED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
