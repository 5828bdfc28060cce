import { z } from "zod";
import { verifyCsrfField } from "~/lib/auth/csrf.server.ts";
import { clearSessionCookie, destroySession } from "~/lib/auth/session.server.ts";
import { authCall, ownUrl } from "~/features/auth/nextauth.server.ts";
import { signOutBody } from "~/features/auth/sign-in.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, parseWith } from "~/lib/http.server.ts";

const signedOut = z.object({ ok: z.literal(true), url: z.string() }).meta({ id: "SignedOut" });

const handle = endpoint(
  {
    POST: async ({ request, context }) =>
      // NextAuth's browser client (ADR 31) posts a form and reads {url} back, failures included.
      authCall(request, async ({ body, isJson, nextAuth, locale }) => {
        const { callbackUrl } = parseWith(signOutBody, body);
        await verifyCsrfField(request, body);
        const actor = actorOf(context);
        if (actor) await destroySession(actor.sessionId);
        // The browser drops the pages it cached while signed in (those sent before no-store, or by
        // another tab): Back after signing out shows nobody's data.
        const headers = { "Set-Cookie": await clearSessionCookie(), "Clear-Site-Data": '"cache"' };
        const login = `/${locale}/login`;
        const url = ownUrl(callbackUrl, login);
        if (!isJson && !nextAuth) return new Response(null, { status: 302, headers: { ...headers, Location: callbackUrl ? url : login } });
        return json({ ok: true, url }, { headers });
      }),
  },
  {
    POST: {
      operationId: "signOut",
      tag: "Authentication",
      auth: "public",
      summary:
        "End the session (its row is deleted) and clear the cookie. HTML forms are redirected to the sign-in page (or their callbackUrl on this origin). " +
        "NextAuth's browser client (signOut from next-auth/react) posts a form with json=true and gets JSON.",
      body: { schema: signOutBody, types: ["json", "form"] },
      success: {
        status: 200,
        description: "Signed out. url: the callbackUrl when it is on this origin, else the sign-in page /{locale}/login.",
        schema: signedOut,
        headers: ["Set-Cookie"],
      },
      formRedirect: "A browser form (not JSON, no json=true) signed out: to the sign-in page /{locale}/login or the callbackUrl on this origin.",
      errors: [400, 403, 413, 415],
    },
  },
);

export const loader = handle;
export const action = handle;
