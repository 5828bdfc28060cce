import { apiTokenList, createApiTokenBody, createdApiToken } from "~/features/tokens/api-token-schemas.ts";
import { createApiToken, listApiTokens } from "~/features/tokens/api-tokens.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";
import { requireSessionCaller } from "~/lib/auth/end-access.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ context }) => json(await listApiTokens(requireActor(actorOf(context)))),
    POST: async ({ request, context }) => {
      const actor = requireSessionCaller(requireActor(actorOf(context)));
      return json(await createApiToken(actor, await readJsonBody(request, createApiTokenBody)), 201);
    },
  },
  {
    GET: {
      operationId: "listApiTokens",
      tag: "Users",
      auth: "session",
      roles: "any signed-in user",
      summary: "The caller's personal API tokens, newest first, without their secret.",
      success: { status: 200, description: "The tokens, with their scopes and when each was last used.", schema: apiTokenList },
      errors: [401],
    },
    POST: {
      operationId: "createApiToken",
      idempotencyKey: true,
      tag: "Users",
      auth: "session",
      roles: "any signed-in user (from a session: 403 TOKEN_SCOPE with a token)",
      summary:
        'Create a personal API token: `Authorization: Bearer <token>` then acts as the caller, without CSRF token. scopes ["read"] makes it read-only (its writes answer 403 TOKEN_SCOPE); left out, ["read", "write"].',
      body: { schema: createApiTokenBody, types: ["json"] },
      success: { status: 201, description: "The token, shown this once.", schema: createdApiToken, location: "/api/user/tokens/{id}" },
      errors: [400, 401, 403, 413, 415],
      codes: { 403: ["TOKEN_SCOPE"] },
    },
  },
);

export const loader = handle;
export const action = handle;
