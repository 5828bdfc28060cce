import { requireActor } from "~/lib/auth/actor.server.ts";
import { enableTwoFactor, twoFactorEnableBody } from "~/lib/auth/two-factor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/** POST /api/auth/two-factor/enable {code}: turns on the factor started by setup with one valid code. */
const handle = endpoint({
  POST: async ({ request, context }) => {
    const actor = requireActor(actorOf(context));
    const { code } = await readJsonBody(request, twoFactorEnableBody);
    return json(await enableTwoFactor(actor, code));
  },
});

export const loader = handle;
export const action = handle;
