/** A candidate's statuses (constants pages need, kept apart from the Zod schemas). */
export const CANDIDATE_STATUSES = ["NEW", "IN_EVALUATION", "APPROVED", "REJECTED", "PROMOTED"] as const;
/** PROMOTED is reached only by promotion, never set by hand. */
export const EDITABLE_CANDIDATE_STATUSES = ["NEW", "IN_EVALUATION", "APPROVED", "REJECTED"] as const;
