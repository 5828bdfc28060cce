import { changePasswordBody, passwordSetResponse } from "~/features/passwords/password-schemas.ts";
import { changePassword } from "~/features/passwords/passwords.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { requireSessionCaller } from "~/lib/auth/end-access.server.ts";
import { actorOf, clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/**
 * POST /api/user/password {currentPassword, newPassword}: every session and API token of the user
 * ends and the caller gets a new session cookie in the answer. Not with an API token (403).
 */
const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const actor = requireSessionCaller(requireActor(actorOf(context)));
      const input = await readJsonBody(request, changePasswordBody);
      const { setCookie } = await changePassword(actor, input, {
        ipAddress: clientAddressOf(context),
        userAgent: request.headers.get("user-agent"),
      });
      return json({ ok: true }, { headers: { "Set-Cookie": setCookie } });
    },
  },
  {
    POST: {
      operationId: "changePassword",
      tag: "Users",
      auth: "session",
      summary:
        "Change the caller's password. A wrong current password is 400 INVALID_CURRENT_PASSWORD naming `currentPassword` " +
        "(10 checks per 15 minutes per user). Every session and API token of the user ends; the answer sets a new session cookie for the caller. " +
        "Only from a signed-in session: 403 TOKEN_SCOPE with an API token.",
      body: { schema: changePasswordBody, types: ["json"] },
      success: { status: 200, description: "Changed; the new session cookie is set.", schema: passwordSetResponse, headers: ["Set-Cookie"] },
      errors: [400, 401, 403, 413, 415, 429],
      codes: { 400: ["INVALID_CURRENT_PASSWORD"], 403: ["TOKEN_SCOPE"] },
    },
  },
);

export const loader = handle;
export const action = handle;
