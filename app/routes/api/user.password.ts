import { changePasswordBody } from "~/features/passwords/password-schemas.ts";
import { changePassword } from "~/features/passwords/passwords.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { actorOf, clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/**
 * POST /api/user/password {currentPassword, newPassword}: every session of the user ends and the
 * caller gets a new session cookie in the answer.
 */
const handle = endpoint({
  POST: async ({ request, context }) => {
    const actor = requireActor(actorOf(context));
    const input = await readJsonBody(request, changePasswordBody);
    const { setCookie } = await changePassword(actor, input, {
      ipAddress: clientAddressOf(context),
      userAgent: request.headers.get("user-agent"),
    });
    return json({ ok: true }, { headers: { "Set-Cookie": setCookie } });
  },
});

export const loader = handle;
export const action = handle;
