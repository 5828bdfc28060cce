/**
 * What a retention policy may say, apart from its schemas so that the settings page's bundle
 * carries no Zod (tests/operations/client-bundle.test.ts).
 */
export const RETENTION_ACTIONS = ["ANONYMISE", "DELETE"] as const;
export type RetentionAction = (typeof RETENTION_ACTIONS)[number];

/** Fifty years: the longest period a policy may name. */
export const MAX_RETENTION_MONTHS = 600;
