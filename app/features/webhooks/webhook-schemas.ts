import { z } from "zod";
import { idNaming, idSchema, timestamp } from "~/lib/schemas.ts";

import { WEBHOOK_EVENTS } from "./webhook-events.ts";

const webhookUrl = z
  .string()
  .trim()
  .max(2000)
  .url("webhookUrl")
  .refine((value) => /^https?:\/\//i.test(value), "webhookUrl")
  .meta({
    description: "Where the events are posted: https (http is accepted outside production only).",
    examples: ["https://sis.example.org/hooks/assessments"],
  });

const events = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, "chooseEvents")
  .max(WEBHOOK_EVENTS.length)
  .transform((list) => [...new Set(list)]);

export const createWebhookBody = z.strictObject({ url: webhookUrl, events }).meta({ id: "WebhookCreate" });
export const updateWebhookBody = z.strictObject({ url: webhookUrl.optional(), events: events.optional() }).meta({ id: "WebhookUpdate" });
export type CreateWebhookInput = z.output<typeof createWebhookBody>;
export type UpdateWebhookInput = z.output<typeof updateWebhookBody>;

const webhookFields = { id: idSchema, url: z.string(), events: z.array(z.enum(WEBHOOK_EVENTS)), createdAt: timestamp, updatedAt: timestamp };
export const webhookItem = z.object(webhookFields).meta({ id: "Webhook" });
export const webhookList = z.object({ webhooks: z.array(webhookItem) }).meta({ id: "WebhookList" });
export const createdWebhook = z
  .object({
    ...webhookFields,
    secret: z
      .string()
      .meta({ description: "The signing secret (`whsec_…`), shown this once: verify each delivery's `webhook-signature` with it (Standard Webhooks)." }),
  })
  .meta({ id: "CreatedWebhook" });

export const webhookDelivery = z
  .object({
    id: idNaming("Also the delivery's `webhook-id` header."),
    event: z.enum(WEBHOOK_EVENTS),
    status: z.enum(["PENDING", "SUCCEEDED", "FAILED"]),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable().meta({
      description:
        "Why the last attempt failed: `answered <status>`, or `address refused`, `timed out` or `connection failed` (never an address, a port or what a name resolved to); null after a success.",
    }),
    lastAttemptAt: timestamp.nullable(),
    deliveredAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "WebhookDelivery" });
export const webhookDeliveryList = z.object({ deliveries: z.array(webhookDelivery) }).meta({ id: "WebhookDeliveryList" });
