import { z } from "zod";
import { verifyCsrfField } from "~/lib/auth/csrf.server.ts";
import { askedLocale, authCall, nextAuthFields } from "~/features/auth/nextauth.server.ts";
import { beginOidcSignIn, oidcConfigured, oidcNotConfigured } from "~/features/auth/oidc.server.ts";
import { endpoint } from "~/lib/endpoint.server.ts";
import { env } from "~/lib/env.server.ts";
import { json, parseWith } from "~/lib/http.server.ts";

const oidcSignInBody = z
  .strictObject({
    csrfToken: z.string().min(1).max(200),
    locale: z.string().optional().meta({ description: "The language to land in after signing in (default: that of callbackUrl, else the account's)." }),
    ...nextAuthFields,
  })
  .meta({ id: "OidcSignIn" });

const oidcSignInResponse = z.object({
  ok: z.literal(true),
  url: z.string().meta({ description: "The provider's authorization address to send the browser to." }),
});

/**
 * POST /api/auth/signin/oidc: what NextAuth's browser client calls for signIn("oidc") (ADR 31). The
 * same start as GET /api/auth/oidc (state, PKCE, nonce in the state cookie), answered as {url} for
 * the client to go to, after the CSRF check a POST needs.
 */
const handle = endpoint(
  {
    POST: async ({ request }) =>
      authCall(request, async ({ body, isJson, nextAuth, locale }) => {
        if (!oidcConfigured()) throw oidcNotConfigured();
        await verifyCsrfField(request, body);
        parseWith(oidcSignInBody, body);
        const headers = new Headers({ "Cache-Control": "no-store" });
        let url: string;
        try {
          const started = await beginOidcSignIn(askedLocale(body));
          url = started.url;
          headers.set("Set-Cookie", started.setCookie);
        } catch (error) {
          console.error("[oidc] the provider could not be discovered:", error);
          url = `${env().APP_URL}/${locale}/login/oidc-error?reason=unavailable`;
        }
        if (!isJson && !nextAuth) {
          headers.set("Location", url);
          return new Response(null, { status: 302, headers });
        }
        return json({ ok: true, url }, { headers });
      }),
  },
  {
    POST: {
      operationId: "startOidcSignInForClient",
      tag: "Authentication",
      auth: "public",
      summary:
        'Start signing in with the external OpenID Connect provider from a script in the browser (NextAuth\'s signIn("oidc")): checks the CSRF token, ' +
        "sets the state cookie as GET /api/auth/oidc does and answers the provider's address as {ok, url} (a plain HTML form is redirected there). " +
        "404 OIDC_NOT_CONFIGURED when no provider is configured.",
      body: { schema: oidcSignInBody, types: ["json", "form"] },
      success: { status: 200, description: "Where to send the browser.", schema: oidcSignInResponse, headers: ["Set-Cookie"] },
      formRedirect: "A browser form (not JSON, no json=true): to the provider.",
      errors: [400, 403, 404, 413, 415],
      codes: { 404: ["OIDC_NOT_CONFIGURED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
