import {
  clearOidcStateCookie,
  completeOidcSignIn,
  flowLocale,
  oidcCallbackQuery,
  oidcConfigured,
  oidcNotConfigured,
  OidcSignInError,
} from "~/features/auth/oidc.server.ts";
import { createSession, destroySession } from "~/lib/auth/session.server.ts";
import { actorOf, clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { requestOrigin } from "~/lib/request-origin.server.ts";

/**
 * GET /api/auth/oidc/callback: where the provider sends the browser back (a cross-site top-level
 * GET, so only SameSite=Lax cookies arrive). Always a 302 that deletes the state cookie: to
 * /{locale}/home with a new session, or to the sign-in error page with the reason. The target is
 * built from a fixed list, never from the request.
 */
const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      if (!oidcConfigured()) throw oidcNotConfigured();
      // The code and state in this URL must not travel on in a Referer or sit in a cache.
      const headers = new Headers({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
      headers.append("Set-Cookie", await clearOidcStateCookie());
      try {
        const { userId, locale } = await completeOidcSignIn(request);
        const previous = actorOf(context);
        if (previous) await destroySession(previous.sessionId);
        const session = await createSession(userId, {
          ipAddress: clientAddressOf(context),
          userAgent: request.headers.get("user-agent"),
          signedIn: { origin: requestOrigin(request, clientAddressOf(context)), method: "oidc" },
        });
        headers.append("Set-Cookie", session.setCookie);
        headers.set("Location", `/${locale}/home`);
      } catch (error) {
        let reason = "provider";
        if (error instanceof OidcSignInError) {
          reason = error.reason;
          console.warn(`[oidc] sign-in refused (${reason}): ${error.message}`);
        } else {
          console.error("[oidc] sign-in failed:", error);
        }
        headers.set("Location", `/${await flowLocale(request)}/login/oidc-error?reason=${reason}`);
      }
      return new Response(null, { status: 302, headers });
    },
  },
  {
    GET: {
      operationId: "completeOidcSignIn",
      tag: "Authentication",
      auth: "public",
      summary:
        "Where the provider sends the browser back. Checks the state against the cookie, exchanges the code with the PKCE verifier, " +
        "verifies the ID token (signature, issuer, audience, expiry, nonce) and signs in an existing active user whose e-mail the " +
        "provider reports as verified (linked by issuer and subject from then on). The state cookie is deleted, so a callback works once.",
      query: oidcCallbackQuery,
      success: {
        status: 302,
        description:
          "Signed in: to /{locale}/home with a new session cookie. Refused: to the HTML page /{locale}/login/oidc-error?reason=… " +
          "(state, cancelled, provider, token, unverified, no-account, second-factor, linked-elsewhere, unavailable).",
        headers: ["Location", "Set-Cookie"],
      },
      errors: [404],
      codes: { 404: ["OIDC_NOT_CONFIGURED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
