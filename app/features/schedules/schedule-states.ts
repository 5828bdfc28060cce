/**
 * The states of a schedule and of its occurrences (docs/api-contract.md §18, ADR 76), outside the
 * schema file so that pages read them without Zod.
 */
export const SCHEDULE_STATUSES = ["ACTIVE", "PAUSED", "ENDED"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Why a schedule ended: its count or last day reached, or what it assigned deleted. */
export const SCHEDULE_ENDINGS = ["FINISHED", "FORM_DELETED", "GROUP_DELETED"] as const;
export type ScheduleEnding = (typeof SCHEDULE_ENDINGS)[number];

export const OCCURRENCE_STATUSES = ["DONE", "MISSED", "FAILED"] as const;
export type OccurrenceStatus = (typeof OCCURRENCE_STATUSES)[number];
