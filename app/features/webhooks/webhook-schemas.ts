import { z } from "zod";
import { idNaming, idSchema, timestamp } from "~/lib/schemas.ts";

import { DELIVERY_TYPES, WEBHOOK_EVENTS } from "./webhook-events.ts";

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

/** At most this many forms chosen on one webhook; beyond them, all forms is the choice to make. */
export const WEBHOOK_FORMS_LIMIT = 100;

const formIds = z
  .array(idSchema)
  .max(WEBHOOK_FORMS_LIMIT)
  .transform((list) => [...new Set(list)])
  .meta({
    description:
      "Only the events of these forms of the organization (submission.*, form.updated); empty or absent: every form's. Events about a person (student.*, candidate.*) are about no form and are always sent.",
  });

export const createWebhookBody = z.strictObject({ url: webhookUrl, events, formIds: formIds.optional() }).meta({ id: "WebhookCreate" });
export const updateWebhookBody = z
  .strictObject({ url: webhookUrl.optional(), events: events.optional(), formIds: formIds.optional() })
  .meta({ id: "WebhookUpdate" });
export type CreateWebhookInput = z.output<typeof createWebhookBody>;
export type UpdateWebhookInput = z.output<typeof updateWebhookBody>;

const webhookFields = {
  id: idSchema,
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  formIds: z.array(idSchema).meta({ description: "The forms whose events it is sent; empty: every form's." }),
  createdAt: timestamp,
  updatedAt: timestamp,
};
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
    event: z.enum(DELIVERY_TYPES),
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

export const webhookTestResult = z
  .object({
    delivered: z.boolean().meta({ description: "The endpoint answered 2xx." }),
    status: z.number().int().nullable().meta({ description: "The endpoint's HTTP status; null when it gave none." }),
    error: z.string().nullable().meta({
      description:
        "Why it was not delivered, as the delivery log says it (`answered <status>`, `endpoint gone (410)`, `address refused`, `timed out`, `connection failed`); null when delivered.",
    }),
    deliveryId: idSchema.meta({ description: "The test in the delivery log; also its `webhook-id` header." }),
  })
  .meta({ id: "WebhookTestResult" });
