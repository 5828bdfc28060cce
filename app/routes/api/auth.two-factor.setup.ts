import { requireActor } from "~/lib/auth/actor.server.ts";
import { beginTwoFactorSetup, twoFactorSetupBody } from "~/lib/auth/two-factor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/**
 * POST /api/auth/two-factor/setup {method}: starts enrolling the signed-in user's second factor.
 * TOTP answers the secret, its otpauth URI and a QR code (this once); EMAIL e-mails a code.
 */
const handle = endpoint({
  POST: async ({ request, context }) => {
    const actor = requireActor(actorOf(context));
    const { method } = await readJsonBody(request, twoFactorSetupBody);
    return json(await beginTwoFactorSetup(actor, method));
  },
});

export const loader = handle;
export const action = handle;
