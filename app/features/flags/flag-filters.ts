/**
 * The values of the reports' `flagged` filter (docs/api-contract.md §16): constants the reports
 * page needs too, kept apart from the Zod schemas. `true`: the results with a flag;
 * `unacknowledged`: those of them nobody has acknowledged yet.
 */
export const FLAGGED_FILTERS = ["true", "unacknowledged"] as const;

export type FlaggedFilter = (typeof FLAGGED_FILTERS)[number];

/** The longest note an acknowledgement keeps. */
export const ACKNOWLEDGEMENT_NOTE_MAX = 2000;
