/** What a webhook can be told about (contract §14): a constant pages need, kept apart from the Zod schemas. */
export const WEBHOOK_EVENTS = ["submission.completed", "submission.created", "student.created", "candidate.promoted"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
