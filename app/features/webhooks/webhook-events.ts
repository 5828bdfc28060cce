/**
 * What a webhook can be told about (docs/api-contract.md §14, §23): constants pages need, kept apart from the
 * Zod schemas. `student.created`, `student.updated` and `candidate.created` also fire for each
 * person a roster import creates or changes, `submission.created` for each link a bulk assignment
 * creates. `submission.flagged` fires beside `submission.completed` for a completion with a
 * critical answer (§16).
 */

/** Events about one form: a webhook with `formIds` is told only those of its forms. */
export const FORM_EVENTS = ["submission.completed", "submission.flagged", "submission.created", "form.updated"] as const;
/** Events about a person, who belongs to no form: told to every webhook that asked for them, whatever its forms (ADR 53). */
export const PERSON_EVENTS = ["student.created", "student.updated", "candidate.created", "candidate.promoted"] as const;
/** What a webhook subscribes to. */
export const WEBHOOK_EVENTS = [...FORM_EVENTS, ...PERSON_EVENTS] as const;

export type FormEvent = (typeof FORM_EVENTS)[number];
export type PersonEvent = (typeof PERSON_EVENTS)[number];
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * The `type` a delivery carries: every event, and `webhook.test`, which an administrator sends
 * on demand (POST /api/webhooks/:id/test) and no webhook subscribes to.
 */
export const DELIVERY_TYPES = [...WEBHOOK_EVENTS, "webhook.test"] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];
