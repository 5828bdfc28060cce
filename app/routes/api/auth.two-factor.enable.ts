import { requireActor } from "~/lib/auth/actor.server.ts";
import { requireSessionCaller } from "~/lib/auth/end-access.server.ts";
import { enableTwoFactor } from "~/features/auth/two-factor.server.ts";
import { twoFactorEnableBody, twoFactorStatusResponse } from "~/features/auth/two-factor-schemas.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/** POST /api/auth/two-factor/enable {code}: turns on the factor started by setup with one valid code. */
const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const actor = requireSessionCaller(requireActor(actorOf(context)));
      const { code } = await readJsonBody(request, twoFactorEnableBody);
      return json(await enableTwoFactor(actor, code));
    },
  },
  {
    POST: {
      operationId: "enableTwoFactor",
      tag: "Authentication",
      auth: "session",
      summary:
        "Turn on the factor started by setup with one valid code (400 when wrong; 5 wrong codes spend the setup; 409 without a pending setup). Only from a signed-in session: 403 TOKEN_SCOPE with an API token.",
      body: { schema: twoFactorEnableBody, types: ["json"] },
      success: { status: 200, description: "The second factor is on.", schema: twoFactorStatusResponse },
      errors: [400, 401, 403, 409, 413, 415],
      codes: { 400: ["TWO_FACTOR_INVALID"], 403: ["TOKEN_SCOPE"], 409: ["TWO_FACTOR_ALREADY_ENABLED", "TWO_FACTOR_SETUP_MISSING"] },
    },
  },
);

export const loader = handle;
export const action = handle;
