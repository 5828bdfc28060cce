/**
 * What a webhook can be told about (contract §14, §23): a constant pages need, kept apart from the
 * Zod schemas. `student.created`, `student.updated` and `candidate.created` also fire for each
 * person a roster import creates or changes.
 */
export const WEBHOOK_EVENTS = [
  "submission.completed",
  "submission.created",
  "student.created",
  "student.updated",
  "candidate.created",
  "candidate.promoted",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
