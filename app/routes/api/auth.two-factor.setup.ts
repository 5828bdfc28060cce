import { requireActor } from "~/lib/auth/actor.server.ts";
import { requireSessionCaller } from "~/lib/auth/end-access.server.ts";
import { beginTwoFactorSetup } from "~/features/auth/two-factor.server.ts";
import { twoFactorSetupBody, twoFactorSetupResponse } from "~/features/auth/two-factor-schemas.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/**
 * POST /api/auth/two-factor/setup {method}: starts enrolling the signed-in user's second factor.
 * TOTP answers the secret, its otpauth URI and a QR code (this once); EMAIL e-mails a code.
 */
const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const actor = requireSessionCaller(requireActor(actorOf(context)));
      const { method } = await readJsonBody(request, twoFactorSetupBody);
      return json(await beginTwoFactorSetup(actor, method));
    },
  },
  {
    POST: {
      operationId: "setupTwoFactor",
      tag: "Authentication",
      auth: "session",
      summary:
        "Start enrolling a second factor. TOTP answers the secret, otpauth URI and QR code (only this once; valid 15 minutes); EMAIL e-mails a confirmation code (3 codes per 10 minutes). 409 while a factor is on. Only from a signed-in session: 403 TOKEN_SCOPE with an API token.",
      body: { schema: twoFactorSetupBody, types: ["json"] },
      success: { status: 200, description: "The pending enrolment.", schema: twoFactorSetupResponse },
      errors: [400, 401, 403, 409, 413, 415, 429],
      codes: { 403: ["TOKEN_SCOPE"], 409: ["TWO_FACTOR_ALREADY_ENABLED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
