/**
 * How a person is erased (docs/api-contract.md §21, ADR 88): ANONYMISE replaces what identifies
 * them and keeps their scores; DELETE removes them with their results. Constants pages need, kept
 * apart from the Zod schemas.
 */
export const ERASURE_MODES = ["ANONYMISE", "DELETE"] as const;
export type ErasureMode = (typeof ERASURE_MODES)[number];

/** A student or a candidate, as the data protection endpoints and pages name them. */
export type PersonKind = "student" | "candidate";
