import { z } from "zod";
import { verifyCsrfField } from "~/lib/auth/csrf.server.ts";
import { authCall, ownUrl } from "~/features/auth/nextauth.server.ts";
import { credentialsBody, signInWithCredentials } from "~/features/auth/sign-in.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, parseWith } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    POST: async ({ request, context }) =>
      // NextAuth's browser client (ADR 31) posts a form and reads {url} back, failures included.
      authCall(request, async ({ body, isJson, nextAuth, locale }) => {
        // The CSRF token first (docs/api-contract.md §8): without a valid one the answer is 403, whatever else is wrong.
        await verifyCsrfField(request, body);
        const input = parseWith(credentialsBody, body);
        const { setCookie } = await signInWithCredentials(input, {
          ipAddress: clientAddressOf(context),
          userAgent: request.headers.get("user-agent"),
          request,
        });
        const home = `/${locale}/home`;
        const url = ownUrl(input.callbackUrl, home);
        // A plain HTML form lands on the home page (or its callbackUrl); scripts get JSON and the cookie.
        if (!isJson && !nextAuth) {
          return new Response(null, { status: 302, headers: { Location: input.callbackUrl ? url : home, "Set-Cookie": setCookie } });
        }
        return json({ ok: true, url }, { headers: { "Set-Cookie": setCookie } });
      }),
  },
  {
    POST: {
      operationId: "signIn",
      tag: "Authentication",
      auth: "public",
      summary:
        "Sign in: verifies the credentials and, for a user with a second factor, the code (401 TWO_FACTOR_REQUIRED / TWO_FACTOR_INVALID / TWO_FACTOR_EXPIRED; 5 wrong codes lock the second step for 15 minutes, 429 TWO_FACTOR_LOCKED), then sets the session cookie. HTML forms are redirected (302) to /{locale}/home or their callbackUrl. " +
        "NextAuth's browser client (signIn from next-auth/react) posts a form with json=true: it gets JSON, a failure with url (the sign-in page with ?error=CredentialsSignin or ?error=CODE). " +
        "429 RATE_LIMITED past 30 failures per client address, 10 per account and address, or 100 per account from anywhere in 15 minutes; past the last one the account's owner is e-mailed a one-time link whose cookie lets their browser sign in.",
      body: { schema: credentialsBody, types: ["json", "form"] },
      success: {
        status: 200,
        description: "Signed in; the session cookie is set. url: the callbackUrl when it is on this origin, else /{locale}/home.",
        schema: z.object({ ok: z.literal(true), url: z.string() }),
        headers: ["Set-Cookie"],
      },
      formRedirect: "A browser form (not JSON, no json=true) signed in: to /{locale}/home or the callbackUrl on this origin, with the session cookie.",
      errors: [400, 401, 403, 413, 415, 429],
      codes: {
        401: ["INVALID_CREDENTIALS", "PASSWORD_RESET_REQUIRED", "TWO_FACTOR_REQUIRED", "TWO_FACTOR_INVALID", "TWO_FACTOR_EXPIRED", "SIGN_IN_EXPIRED"],
        429: ["TWO_FACTOR_LOCKED"],
      },
    },
  },
);

export const loader = handle;
export const action = handle;
