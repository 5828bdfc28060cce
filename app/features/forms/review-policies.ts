/** When a respondent reads their answers back (docs/api-contract.md §22): a constant pages need, kept apart from the Zod schemas. */
export const REVIEW_POLICIES = ["NEVER", "AFTER_SUBMIT", "AFTER_CLOSE"] as const;
export type ReviewPolicy = (typeof REVIEW_POLICIES)[number];
