import { requireActor } from "~/lib/auth/actor.server.ts";
import { disableTwoFactor, twoFactorDisableBody } from "~/lib/auth/two-factor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/** POST /api/auth/two-factor/disable {password}: turns the second factor off; needs the current password. */
const handle = endpoint({
  POST: async ({ request, context }) => {
    const actor = requireActor(actorOf(context));
    const { password } = await readJsonBody(request, twoFactorDisableBody);
    return json(await disableTwoFactor(actor, password));
  },
});

export const loader = handle;
export const action = handle;
