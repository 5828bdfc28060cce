import type { Route } from "./+types/webhooks.$id";
import { updateWebhookBody, webhookItem } from "~/features/webhooks/webhook-schemas.ts";
import { deleteWebhook, getWebhook, updateWebhook } from "~/features/webhooks/webhooks.server.ts";
import { requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";
import { deletedApiToken as deletedId } from "~/features/tokens/api-token-schemas.ts";

const ADMINS = "ADMIN, SUPER_ADMIN (their own organization's)";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => json(await getWebhook(requireAdmin(actorOf(context)), params.id)),
    PUT: async ({ request, params, context }) => {
      const actor = requireAdmin(actorOf(context));
      return json(await updateWebhook(actor, params.id, await readJsonBody(request, updateWebhookBody)));
    },
    DELETE: async ({ params, context }) => json(await deleteWebhook(requireAdmin(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "getWebhook",
      tag: "Webhooks",
      auth: "session",
      roles: ADMINS,
      summary: "One endpoint.",
      success: { status: 200, description: "The endpoint.", schema: webhookItem },
      errors: [401, 403, 404],
    },
    PUT: {
      operationId: "updateWebhook",
      tag: "Webhooks",
      auth: "session",
      roles: ADMINS,
      summary: "Change the address or the events (the secret stays). In production the address must be https.",
      body: { schema: updateWebhookBody, types: ["json"] },
      success: { status: 200, description: "The endpoint.", schema: webhookItem },
      errors: [400, 401, 403, 404, 413, 415],
    },
    DELETE: {
      operationId: "deleteWebhook",
      tag: "Webhooks",
      auth: "session",
      roles: ADMINS,
      summary: "Remove an endpoint and its delivery log; deliveries still queued are dropped.",
      success: { status: 200, description: "The removed endpoint's id.", schema: deletedId },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
