import type { Route } from "./+types/webhooks.$id.deliveries";
import { webhookDeliveryList } from "~/features/webhooks/webhook-schemas.ts";
import { listDeliveries } from "~/features/webhooks/webhooks.server.ts";
import { requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => json(await listDeliveries(requireAdmin(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "listWebhookDeliveries",
      tag: "Webhooks",
      auth: "session",
      roles: "ADMIN, SUPER_ADMIN (their own organization's)",
      summary: "The endpoint's latest 100 deliveries, newest first: their state, attempts and last answer.",
      success: { status: 200, description: "The delivery log.", schema: webhookDeliveryList },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
