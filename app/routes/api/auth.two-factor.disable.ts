import { requireActor } from "~/lib/auth/actor.server.ts";
import { requireSessionCaller } from "~/lib/auth/end-access.server.ts";
import { disableTwoFactor } from "~/features/auth/two-factor.server.ts";
import { twoFactorDisableBody, twoFactorStatusResponse } from "~/features/auth/two-factor-schemas.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

/** POST /api/auth/two-factor/disable {password}: turns the second factor off; needs the current password. */
const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      const actor = requireSessionCaller(requireActor(actorOf(context)));
      const { password } = await readJsonBody(request, twoFactorDisableBody);
      return json(await disableTwoFactor(actor, password));
    },
  },
  {
    POST: {
      operationId: "disableTwoFactor",
      tag: "Authentication",
      auth: "session",
      summary:
        "Turn the second factor off (the TOTP secret is erased); needs the current password (401 INVALID_PASSWORD when wrong). Only from a signed-in session: 403 TOKEN_SCOPE with an API token.",
      body: { schema: twoFactorDisableBody, types: ["json"] },
      success: { status: 200, description: "The second factor is off.", schema: twoFactorStatusResponse },
      errors: [400, 401, 403, 413, 415, 429],
      codes: { 401: ["INVALID_PASSWORD"], 403: ["TOKEN_SCOPE"] },
    },
  },
);

export const loader = handle;
export const action = handle;
