import { okResponse } from "~/lib/schemas.ts";
import { verifyCsrfToken } from "~/lib/auth/csrf.server.ts";
import { clearSessionCookie, destroySession } from "~/lib/auth/session.server.ts";
import { signOutBody } from "~/features/auth/sign-in.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";

const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const isJson = (request.headers.get("content-type") ?? "").includes("json");
      const { csrfToken, locale } = await readJsonOrFormBody(request, signOutBody);
      await verifyCsrfToken(request, csrfToken);
      const actor = actorOf(context);
      if (actor) await destroySession(actor.sessionId);
      // The browser drops the pages it cached while signed in (those sent before no-store, or by
      // another tab): Back after signing out shows nobody's data.
      const headers = { "Set-Cookie": await clearSessionCookie(), "Clear-Site-Data": '"cache"' };
      if (!isJson) return new Response(null, { status: 302, headers: { ...headers, Location: `/${resolveLocale(locale)}/login` } });
      return json({ ok: true }, { headers });
    },
  },
  {
    POST: {
      operationId: "signOut",
      tag: "Authentication",
      auth: "public",
      summary: "End the session (its row is deleted) and clear the cookie. HTML forms are redirected to the sign-in page.",
      body: { schema: signOutBody, types: ["json", "form"] },
      success: { status: 200, description: "Signed out.", schema: okResponse, headers: ["Set-Cookie"] },
      formRedirect: "A browser form (not JSON) signed out: to the sign-in page /{locale}/login.",
      errors: [400, 403, 413, 415],
    },
  },
);

export const loader = handle;
export const action = handle;
