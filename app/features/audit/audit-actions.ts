/**
 * Every action the audit log records (docs/api-contract.md §20, ADR 87), with the type of thing it
 * is about. One list: the services name an action from it, the administrators' page offers it as
 * a filter, and a table-driven test makes each one happen and finds exactly one event.
 */
export const AUDIT_ACTIONS = {
  // Signing in and the credentials that guard it.
  "auth.signed_in": "user",
  "auth.sign_in_failed": "user",
  "auth.password_changed": "user",
  "auth.password_reset": "user",
  "auth.two_factor_enabled": "user",
  "auth.two_factor_disabled": "user",
  // What the organization keeps.
  "form.created": "form",
  "form.updated": "form",
  "form.deleted": "form",
  "student.created": "student",
  "student.updated": "student",
  "student.deleted": "student",
  "students.imported": "organization",
  "candidate.created": "candidate",
  "candidate.updated": "candidate",
  "candidate.deleted": "candidate",
  "candidates.imported": "organization",
  "group.created": "group",
  "group.updated": "group",
  "group.deleted": "group",
  "group.staff_changed": "group",
  "user.created": "user",
  // Deactivating a login (no page or API deletes one) is an update; a student's login erased with
  // the student is the person's erasure.
  "user.updated": "user",
  "token.created": "token",
  "token.deleted": "token",
  "webhook.created": "webhook",
  "webhook.updated": "webhook",
  "webhook.deleted": "webhook",
  "organization.updated": "organization",
  // Reading and taking away.
  "report.read": "submission",
  "report.pdf_read": "submission",
  "export.created": "organization",
  // A link's life and what is done with its result.
  "link.revoked": "submission",
  "link.extended": "submission",
  "flag.acknowledged": "submission",
  "submission.rescored": "form",
  // Data protection (§21).
  "person.exported": "person",
  "person.anonymised": "person",
  "person.deleted": "person",
  "retention.applied": "organization",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditTargetType = (typeof AUDIT_ACTIONS)[AuditAction];

export const auditActions = Object.keys(AUDIT_ACTIONS) as AuditAction[];
export const isAuditAction = (value: string): value is AuditAction => Object.hasOwn(AUDIT_ACTIONS, value);
