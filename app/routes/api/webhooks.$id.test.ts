import type { Route } from "./+types/webhooks.$id.test";
import { webhookTestResult } from "~/features/webhooks/webhook-schemas.ts";
import { testWebhook } from "~/features/webhooks/webhooks.server.ts";
import { requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ params, context }) => json(await testWebhook(requireAdmin(actorOf(context)), params.id)),
  },
  {
    POST: {
      operationId: "testWebhook",
      tag: "Webhooks",
      auth: "session",
      roles: "ADMIN, SUPER_ADMIN (their own organization's)",
      summary:
        "Send a webhook.test delivery to the endpoint now, signed like every delivery, and answer what the endpoint did (within its 10 s timeout). " +
        "It is kept in the delivery log and not retried; 200 whether or not it arrived.",
      success: { status: 200, description: "What the endpoint did with the test.", schema: webhookTestResult },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
