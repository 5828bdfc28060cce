import { z } from "zod";
import { idSchema, timestamp } from "~/lib/schemas.ts";
import { reportItem } from "../reports/report-schemas.ts";
import { DELIVERY_TYPES, type DeliveryType } from "./webhook-events.ts";

/**
 * What each delivery's body holds (`{type, timestamp, data}`), one Zod schema per type. The places
 * that build an event pass its `data` through `emitWebhookEvent`, whose type is these schemas'
 * input, and the OpenAPI document's top-level `webhooks` is generated from them, so a receiver
 * reads the same shapes we send. Every `data` is a fixed set of fields: a new one is added to its
 * schema here first.
 */

const respondent = z.object({
  kind: z.enum(["student", "candidate"]),
  id: idSchema.meta({ description: "The student's or the candidate's id." }),
});

const externalId = (who: string) =>
  z
    .string()
    .nullable()
    .meta({ description: `The ${who}'s id in another system, if given.` });
const personCreated = (who: string) => z.object({ id: idSchema, name: z.string(), externalId: externalId(who), createdAt: timestamp });

const person = z.object({ id: idSchema, name: z.string() });

/** A completed result as `submission.completed` and `submission.flagged` carry it: the report item of GET /api/reports, the form's id and the respondent. */
const completedResult = reportItem.extend({ formId: idSchema, respondent });

/** Per type: a one-line summary, what it says in more words, and its `data`. */
export const WEBHOOK_PAYLOADS = {
  "submission.completed": {
    summary: "A test is completed",
    description: "A respondent sent their answers. `data` is the report item of GET /api/reports, with the form's id and the respondent.",
    data: completedResult,
  },
  "submission.flagged": {
    summary: "A completed test is flagged",
    description:
      "A respondent's answers picked a critical option or landed in a critical band (docs/api-contract.md §16): sent beside `submission.completed`, " +
      "with the same `data` (its `flags` and `flaggedAt` set). Acknowledging the result sends nothing.",
    data: completedResult,
  },
  "submission.created": {
    summary: "A test is assigned",
    description:
      "A link to a form was created for a student or a candidate: one event per link, by POST /api/submissions or per person of POST /api/submissions/bulk. It never carries the link's token.",
    data: z.object({
      id: idSchema.meta({ description: "The submission's id." }),
      formId: idSchema,
      respondent,
      assignedById: idSchema.meta({ description: "The user who assigned it." }),
      expiresAt: timestamp.nullable(),
      createdAt: timestamp,
    }),
  },
  "form.updated": {
    summary: "A form is changed",
    description: "A form was changed by PUT /api/forms/:id or its page (published or unpublished included).",
    data: z.object({
      id: idSchema.meta({ description: "The form's id." }),
      title: z.string(),
      isPublished: z.boolean(),
      isTemplate: z.boolean(),
      updatedById: idSchema.meta({ description: "The user who changed it." }),
      updatedAt: timestamp,
    }),
  },
  "student.created": {
    summary: "A student is added",
    description: "By POST /api/students, or one event per student a roster import creates.",
    data: personCreated("student"),
  },
  "student.updated": {
    summary: "A student is changed",
    description: "By PUT /api/students/:id, or one event per student a roster import changes.",
    data: z.object({ id: idSchema, name: z.string(), externalId: externalId("student"), updatedAt: timestamp }),
  },
  "candidate.created": {
    summary: "A candidate is added",
    description: "By POST /api/candidates, or one event per candidate a roster import creates.",
    data: personCreated("candidate"),
  },
  "candidate.promoted": {
    summary: "A candidate is promoted",
    description: "A candidate became a student (POST /api/candidates/:id/promote), with their results.",
    data: z.object({ candidate: person, student: person, promotedAt: timestamp }),
  },
  "webhook.test": {
    summary: "A test delivery",
    description:
      "Sent at once, and only, when an administrator asks for it (POST /api/webhooks/:id/test or the webhooks page), to check that the endpoint receives and verifies deliveries. No webhook subscribes to it.",
    data: z.object({
      webhookId: idSchema.meta({ description: "The webhook it was sent to." }),
      requestedById: idSchema.meta({ description: "The administrator who sent it." }),
    }),
  },
} as const satisfies Record<DeliveryType, { summary: string; description: string; data: z.ZodObject }>;

/** What an event of `type` carries in `data`, as the code that builds it writes it. */
export type WebhookData<T extends DeliveryType> = z.input<(typeof WEBHOOK_PAYLOADS)[T]["data"]>;

/** A type's name in PascalCase, as the OpenAPI document names its body and its entry: `submission.completed` → `SubmissionCompleted`. */
const pascalName = (type: DeliveryType) => type.replace(/(^|\.)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

/** The whole body of a delivery of `type`. */
const bodyOf = <T extends DeliveryType>(type: T) =>
  z
    .strictObject({
      type: z.literal(type),
      timestamp: timestamp.meta({ description: "When the event happened; a retry sends the same body, this time included." }),
      data: WEBHOOK_PAYLOADS[type].data,
    })
    .meta({ id: `${pascalName(type)}Event` });

/** Every delivery's body, with its names, summary and description, in the order of DELIVERY_TYPES (each schema made once: its id names it). */
export const WEBHOOK_BODIES = DELIVERY_TYPES.map((type) => ({
  type,
  name: pascalName(type),
  summary: WEBHOOK_PAYLOADS[type].summary,
  description: WEBHOOK_PAYLOADS[type].description,
  body: bodyOf(type),
}));
