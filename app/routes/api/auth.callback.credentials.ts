import { z } from "zod";
import { verifyCsrfToken } from "~/lib/auth/csrf.server.ts";
import { credentialsBody, signInWithCredentials } from "~/features/auth/sign-in.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { env } from "~/lib/env.server.ts";
import { json, parseWith, readJsonOrFormBody } from "~/lib/http.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";

const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const isJson = (request.headers.get("content-type") ?? "").includes("json");
      // The CSRF token first (contract §8): without a valid one the answer is 403, whatever else is wrong.
      const body = await readJsonOrFormBody(request, z.looseObject({}));
      await verifyCsrfToken(request, typeof body.csrfToken === "string" ? body.csrfToken : null);
      const input = parseWith(credentialsBody, body);
      const { setCookie } = await signInWithCredentials(input, {
        ipAddress: clientAddressOf(context),
        userAgent: request.headers.get("user-agent"),
      });
      const home = `/${resolveLocale(input.locale)}/home`;
      // A plain HTML form lands on the home page; scripts get JSON and the cookie.
      if (!isJson) return new Response(null, { status: 302, headers: { Location: home, "Set-Cookie": setCookie } });
      return json({ ok: true, url: `${env().APP_URL}${home}` }, { headers: { "Set-Cookie": setCookie } });
    },
  },
  {
    POST: {
      operationId: "signIn",
      tag: "Authentication",
      auth: "public",
      summary:
        "Sign in: verifies the credentials and, for a user with a second factor, the code (401 TWO_FACTOR_REQUIRED / TWO_FACTOR_INVALID / TWO_FACTOR_EXPIRED; 5 wrong codes lock the second step for 15 minutes, 429 TWO_FACTOR_LOCKED), then sets the session cookie. HTML forms are redirected (302) to /{locale}/home.",
      body: { schema: credentialsBody, types: ["json", "form"] },
      success: {
        status: 200,
        description: "Signed in; the session cookie is set.",
        schema: z.object({ ok: z.literal(true), url: z.string() }),
        headers: ["Set-Cookie"],
      },
      formRedirect: "A browser form (not JSON) signed in: to /{locale}/home, with the session cookie.",
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
