import { createdWebhook, createWebhookBody, webhookList } from "~/features/webhooks/webhook-schemas.ts";
import { createWebhook, listWebhooks } from "~/features/webhooks/webhooks.server.ts";
import { requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const ADMINS = "ADMIN, SUPER_ADMIN (their own organization's)";

const handle = endpoint(
  {
    GET: async ({ context }) => json(await listWebhooks(requireAdmin(actorOf(context)))),
    POST: async ({ request, context }) => {
      const actor = requireAdmin(actorOf(context));
      return json(await createWebhook(actor, await readJsonBody(request, createWebhookBody)), 201);
    },
  },
  {
    GET: {
      operationId: "listWebhooks",
      tag: "Webhooks",
      auth: "session",
      roles: ADMINS,
      summary: "The organization's webhook endpoints, without their secrets.",
      success: { status: 200, description: "The endpoints.", schema: webhookList },
      errors: [401, 403],
    },
    POST: {
      operationId: "createWebhook",
      idempotencyKey: true,
      tag: "Webhooks",
      auth: "session",
      roles: ADMINS,
      summary:
        "Add an endpoint for some events; deliveries are signed per Standard Webhooks with the secret answered here once. At most 10 per organization (409 WEBHOOK_LIMIT); in production the address must be https.",
      body: { schema: createWebhookBody, types: ["json"] },
      success: { status: 201, description: "The endpoint and its signing secret.", schema: createdWebhook, location: "/api/webhooks/{id}" },
      errors: [400, 401, 403, 409, 413, 415],
      codes: { 409: ["WEBHOOK_LIMIT"] },
    },
  },
);

export const loader = handle;
export const action = handle;
