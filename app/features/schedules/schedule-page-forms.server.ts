import { z } from "zod";
import { assignPageForm } from "../assignments/assign-page-form.server.ts";
import { oneEnding, scheduleTimingFields, updateScheduleBody } from "./schedule-schemas.ts";

/**
 * The schedule pages' forms, read by the API's own fields. "New schedule" chooses the form and the
 * respondent as "Assign a test" does (a group, a student or a candidate in one select), and its
 * days are date inputs; the schedule's page changes when and how the occurrences run. A checkbox
 * posts nothing when it is not ticked: there `send` is false.
 */
export const newSchedulePageForm = z
  .object({
    formId: assignPageForm.shape.formId,
    respondent: assignPageForm.shape.respondent,
    ...scheduleTimingFields,
    send: z.boolean().optional(),
  })
  .superRefine(oneEnding);

const change = updateScheduleBody.shape;

/** The optional fields the schedule's form shows: posted empty, they are cleared (null). */
export const CLEARED_WHEN_EMPTY = ["endsAt", "count", "remindAfterDays", "expiresAfterDays"] as const;

export const editSchedulePageForm = z
  .object({
    startsAt: change.startsAt,
    everyDays: scheduleTimingFields.everyDays,
    endsAt: change.endsAt,
    count: change.count,
    send: z
      .boolean()
      .optional()
      .transform((value) => value ?? false),
    remindAfterDays: change.remindAfterDays,
    expiresAfterDays: change.expiresAfterDays,
  })
  .superRefine(oneEnding);

/** A schedule list's row buttons (pause, resume): the schedule's id, which PUT /api/schedules/:id has in its path. */
export const scheduleRowForm = z.object({ id: z.string().min(1) });
