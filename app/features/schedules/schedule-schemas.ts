import { z } from "zod";
import { idSchema, pagedResponse, paginationQuery, timestamp } from "~/lib/schemas.ts";
import { chooseRespondents, respondentFields } from "../submissions/submission-schemas.ts";
import { OCCURRENCE_STATUSES, SCHEDULE_ENDINGS, SCHEDULE_STATUSES } from "./schedule-states.ts";

/**
 * Schedules (docs/api-contract.md §18, ADR 76): one form assigned again every `everyDays` days to a
 * group's members (read at each occurrence) and the people named, each occurrence creating the links
 * as a bulk assignment does, at the start of its day in the organization's time zone.
 */

/** A day of the schedule: a date, or a date-time standing for the day it falls on where the organization is. */
const scheduleDay = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "date" })
  .meta({ description: "ISO 8601 date (2026-03-01), or a date-time meaning the day it falls on in the organization's time zone." });

/** A whole number from 1 to `max`. */
const fromOneTo = (max: number, description: string) =>
  z.number({ error: "wholeNumber" }).int("wholeNumber").min(1, "tooSmall").max(max, "tooBig").meta({ description });

const everyDays = fromOneTo(365, "Days from one occurrence to the next, 1 to 365 (7: weekly).");
const count = fromOneTo(1000, "How many occurrences in all (missed and failed ones count), 1 to 1,000.");
const remindAfterDays = fromOneTo(60, "That many days after each occurrence, e-mail one reminder to each of its respondents still waiting who has an address.");
const expiresAfterDays = fromOneTo(
  365,
  "Each occurrence's links stop working at the start of the day this many days after it (7 with everyDays 7: as the next links are made).",
);
const endsAt = scheduleDay.meta({
  description: "The last day an occurrence may fall on: a date, or a date-time meaning its day in the organization's time zone.",
});

/** `endsAt` and `count` are two ways of saying when it ends: one at most. */
export function oneEnding(body: { endsAt?: string | null | undefined; count?: number | null | undefined }, ctx: z.RefinementCtx) {
  if (body.endsAt != null && body.count != null) ctx.addIssue({ code: "custom", path: ["count"], message: "endsAtOrCount" });
}

/** When and how a schedule's occurrences run: the fields of its creation besides the form and the respondents. */
export const scheduleTimingFields = {
  startsAt: scheduleDay.meta({ description: "The day of the first occurrence (today or later in the organization's time zone)." }),
  everyDays,
  endsAt: endsAt.optional(),
  count: count.optional(),
  send: z.boolean().meta({ description: "true: e-mail each occurrence's links to their respondents (through the job queue)." }),
  remindAfterDays: remindAfterDays.optional(),
  expiresAfterDays: expiresAfterDays.optional(),
};

export const createScheduleBody = z
  .strictObject({ formId: idSchema, ...respondentFields, ...scheduleTimingFields })
  .superRefine(chooseRespondents)
  .superRefine(oneEnding)
  .meta({ id: "ScheduleCreate", description: "Repeats until stopped when neither endsAt nor count is given." });
export type CreateScheduleInput = z.output<typeof createScheduleBody>;

/** PUT: any of the fields, null clearing an optional one; the form is the schedule's for good. */
export const updateScheduleBody = z
  .strictObject({
    groupId: idSchema.nullable().optional().meta({ description: "Every member of this group, read at each occurrence; null: no group." }),
    studentIds: respondentFields.studentIds,
    candidateIds: respondentFields.candidateIds,
    startsAt: scheduleDay
      .optional()
      .meta({ description: "The day of the next occurrence: today or later, after the last occurrence; the series goes on from it." }),
    everyDays: everyDays.optional(),
    endsAt: endsAt.nullable().optional().meta({ description: "A new last day (count then stops applying); null: none." }),
    count: count.nullable().optional().meta({ description: "A new number of occurrences in all (endsAt then stops applying); null: no limit." }),
    send: z.boolean().optional(),
    remindAfterDays: remindAfterDays.nullable().optional(),
    expiresAfterDays: expiresAfterDays.nullable().optional(),
    paused: z.boolean().optional().meta({
      description:
        "true: nothing happens until resumed (false); the days passed while paused are neither sent nor counted, and resuming goes on from the series' next day that is today or later.",
    }),
  })
  .superRefine(oneEnding)
  .meta({ id: "ScheduleUpdate" });
export type UpdateScheduleInput = z.output<typeof updateScheduleBody>;

export const listSchedulesQuery = z.strictObject({
  ...paginationQuery,
  formId: idSchema.optional().meta({ description: "Only this form's schedules." }),
  groupId: idSchema.optional().meta({ description: "Only the schedules of this group." }),
});
export type ListSchedulesQuery = z.output<typeof listSchedulesQuery>;

const ref = z.object({ id: idSchema, name: z.string() });

export const scheduleItem = z
  .object({
    id: idSchema,
    form: z.object({ id: idSchema, title: z.string() }),
    group: ref.nullable(),
    students: z.array(ref).meta({ description: "The students named (those deleted since are left out)." }),
    candidates: z.array(ref).meta({ description: "The candidates named (those deleted since are left out)." }),
    startsAt: z.iso.date().meta({ description: "The day the series starts from, in the organization's time zone." }),
    everyDays: z.number().int(),
    endsAt: z.iso.date().nullable(),
    count: z.number().int().nullable(),
    send: z.boolean(),
    remindAfterDays: z.number().int().nullable(),
    expiresAfterDays: z.number().int().nullable(),
    paused: z.boolean(),
    status: z.enum(SCHEDULE_STATUSES).meta({ description: "ACTIVE, PAUSED, or ENDED (see endedBecause)." }),
    endedBecause: z.enum(SCHEDULE_ENDINGS).nullable().meta({
      description:
        "FINISHED: its count or its last day is reached; FORM_DELETED, GROUP_DELETED: what it assigned is gone, and it stops for good. Null unless ENDED.",
    }),
    nextOccurrence: z
      .object({
        day: z.iso.date(),
        at: timestamp.meta({ description: "The start of that day in the organization's time zone, when its links are made." }),
      })
      .nullable()
      .meta({ description: "Null while paused and once ended." }),
    occurrencesRun: z.number().int().meta({ description: "Occurrences so far: done, missed and failed." }),
    createdBy: ref.meta({ description: "Who made it: the occurrences' links are assigned by them." }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Schedule" });

export const occurrenceItem = z
  .object({
    day: z.iso.date(),
    dueAt: timestamp.meta({ description: "The start of the day in the organization's time zone." }),
    ranAt: timestamp.meta({ description: "When it ran, or was found missed." }),
    status: z.enum(OCCURRENCE_STATUSES).meta({
      description:
        "DONE: its links were made; MISSED: the service could not run it within a day of its start (it was down), so nothing was sent late; FAILED: refused (see reason), and the schedule went on.",
    }),
    created: z.number().int().meta({ description: "Links made." }),
    skipped: z.number().int().meta({ description: "Respondents skipped: a link of the form still waiting, or not active." }),
    reason: z.string().nullable().meta({ description: "Why it failed: the problem's code (FORM_NOT_PUBLISHED, MAIL_QUOTA, VALIDATION_FAILED, ...)." }),
  })
  .meta({ id: "ScheduleOccurrence" });

export const scheduleResponse = z.object({ schedule: scheduleItem }).meta({ id: "ScheduleAnswer" });
export const scheduleDetailResponse = z
  .object({
    schedule: scheduleItem,
    occurrences: z
      .array(occurrenceItem)
      .meta({ description: "The occurrences so far, newest first (at most the latest 100; occurrencesRun counts them all)." }),
  })
  .meta({ id: "ScheduleDetail" });
export const scheduleListResponse = pagedResponse("schedules", scheduleItem);
