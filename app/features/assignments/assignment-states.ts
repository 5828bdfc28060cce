/** The states of an assignment, shared by its pages and the service. */
export const ASSIGNMENT_STATES = ["pending", "completed", "expired", "revoked"] as const;
export type AssignmentState = (typeof ASSIGNMENT_STATES)[number];
