import { z } from "zod";
import type { Route } from "./+types/webhooks.$id.deliveries.$deliveryId.resend";
import { resendDelivery } from "~/features/webhooks/webhooks.server.ts";
import { requireAdmin } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";
import { idSchema } from "~/lib/schemas.ts";

const resent = z.object({ id: idSchema, status: z.literal("PENDING") }).meta({ id: "WebhookDeliveryResent" });

const handle = endpoint<Route.LoaderArgs>(
  {
    POST: async ({ params, context }) => json(await resendDelivery(requireAdmin(actorOf(context)), params.id, params.deliveryId), 202),
  },
  {
    POST: {
      operationId: "resendWebhookDelivery",
      tag: "Webhooks",
      auth: "session",
      roles: "ADMIN, SUPER_ADMIN (their own organization's)",
      summary: "Send a delivery again: the same id and body, queued anew.",
      success: { status: 202, description: "Queued.", schema: resent },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
