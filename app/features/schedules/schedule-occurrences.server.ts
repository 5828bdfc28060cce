import { actorFromUser, actorUserSelect, isUsable } from "~/lib/auth/actor-user.server.ts";
import { staffedGroups } from "~/lib/auth/staffed-groups.server.ts";
import { db, isUniqueViolation, type Prisma } from "~/lib/db.server.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { addDays } from "~/lib/zoned-time.ts";
import { enqueueJobs, type JobHandler, type NewJob } from "../jobs/jobs.server.ts";
import { bulkAssign } from "../submissions/bulk-assignment.server.ts";
import { MISSED_AFTER_MS, occurrenceDueAt, scheduleState } from "./schedule-days.ts";
import type { OccurrenceStatus } from "./schedule-states.ts";

/**
 * A schedule's occurrences (docs/api-contract.md §18, ADR 76). Each is one job of the durable queue
 * ("schedule", keyed `schedule:<id>`), due at the start of its day in the organization's time zone,
 * carrying the schedule and the day. Its run creates the links as a bulk assignment does, as the
 * schedule's creator, reading the group's members then; in the links' transaction it claims the
 * day (a conditional update of the schedule's `nextOn`: of two runs of one occurrence, on two
 * instances or after a lease ran out, the second finds the day taken and its transaction, links
 * included, rolls back), records the occurrence (one per schedule and day: a unique key) and queues
 * the next. A run more than a day after the start records the occurrence MISSED and sends nothing;
 * a refusal (the form unpublished, a quota) records it FAILED with the problem's code; either way
 * the series goes on.
 */

export type OccurrencePayload = { scheduleId: string; day: string };

/** The key of a schedule's jobs: one runs at a time, and a change of the schedule replaces them. */
export const occurrenceKey = (scheduleId: string) => `schedule:${scheduleId}`;

/** The job of the occurrence of `day`, due at the start of that day in the zone. */
export const occurrenceJob = (scheduleId: string, day: string, timeZone: string): NewJob => ({
  kind: "schedule",
  payload: { scheduleId, day },
  runAt: occurrenceDueAt(day, timeZone),
  concurrencyKey: occurrenceKey(scheduleId),
});

/** The ids in a schedule's JSON list of people. */
export const idsOf = (value: Prisma.JsonValue): string[] => (Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : []);

/** Of the people a schedule names, those not deleted since. */
export async function livePeople(organizationId: string, studentIds: string[], candidateIds: string[]) {
  const where = { organizationId, deletedAt: null };
  const [students, candidates] = await Promise.all([
    studentIds.length ? db.student.findMany({ where: { ...where, id: { in: studentIds } }, select: { id: true } }) : [],
    candidateIds.length ? db.candidate.findMany({ where: { ...where, id: { in: candidateIds } }, select: { id: true } }) : [],
  ]);
  return { studentIds: students.map((person) => person.id), candidateIds: candidates.map((person) => person.id) };
}

/** A schedule's own columns, which its reads and its occurrences both take. */
export const scheduleColumns = {
  id: true,
  organizationId: true,
  groupId: true,
  studentIds: true,
  candidateIds: true,
  everyDays: true,
  endsOn: true,
  count: true,
  send: true,
  remindAfterDays: true,
  expiresAfterDays: true,
  nextOn: true,
  occurrencesRun: true,
  pausedAt: true,
  organization: { select: { timeZone: true } },
} satisfies Prisma.ScheduleSelect;

const occurrenceSelect = {
  ...scheduleColumns,
  formId: true,
  deletedAt: true,
  form: { select: { deletedAt: true } },
  group: { select: { deletedAt: true } },
  createdBy: { select: actorUserSelect },
} satisfies Prisma.ScheduleSelect;

/** Another run recorded this occurrence first, or the schedule changed under it: this run leaves everything as it was. */
class OccurrenceTaken extends Error {}

type Outcome = { status: OccurrenceStatus; created: number; skipped: number; reason: string | null };

/**
 * Claims the occurrence of `day`, records it and queues the next, in the caller's transaction. The
 * schedule as it is now (after the claim locked its row) decides the next day and whether there is one.
 */
async function recordOccurrence(tx: Prisma.TransactionClient, scheduleId: string, day: string, dueAt: Date, ranAt: Date, outcome: Outcome) {
  const claimed = await tx.schedule.updateMany({
    where: { id: scheduleId, nextOn: day, deletedAt: null, pausedAt: null },
    data: { occurrencesRun: { increment: 1 } },
  });
  if (claimed.count !== 1) throw new OccurrenceTaken();
  const schedule = await tx.schedule.findUniqueOrThrow({ where: { id: scheduleId }, select: occurrenceSelect });
  const nextOn = addDays(day, schedule.everyDays);
  await tx.schedule.update({ where: { id: scheduleId }, data: { nextOn }, select: { id: true } });
  await tx.scheduleOccurrence.create({ data: { scheduleId, day, dueAt, ranAt, ...outcome }, select: { id: true } });
  if (scheduleState({ ...schedule, nextOn }).status === "ACTIVE") {
    await enqueueJobs(tx, [occurrenceJob(scheduleId, nextOn, schedule.organization.timeZone)]);
  }
}

/** The job handler of an occurrence. */
export const scheduleOccurrenceJob: JobHandler = async (payload, run) => {
  const { scheduleId, day } = payload as OccurrencePayload;
  const now = run.now;
  const schedule = await db.schedule.findUnique({ where: { id: scheduleId }, select: occurrenceSelect });
  // A job the schedule no longer waits for (it was changed, paused, deleted or ended since this was
  // queued; a change queues its own job) does nothing.
  if (!schedule || schedule.deletedAt || schedule.nextOn !== day || scheduleState(schedule).status !== "ACTIVE") return;
  const timeZone = schedule.organization.timeZone;
  const dueAt = occurrenceDueAt(day, timeZone);
  // The organization moved to a zone where the day starts later: wait for it there.
  if (now < dueAt) {
    await enqueueJobs(db, [occurrenceJob(scheduleId, day, timeZone)]);
    return;
  }
  const record = (outcome: Outcome) => db.$transaction((tx) => recordOccurrence(tx, scheduleId, day, dueAt, now, outcome));
  const nothing = { created: 0, skipped: 0 };
  try {
    if (now.getTime() - dueAt.getTime() > MISSED_AFTER_MS) return await record({ status: "MISSED", ...nothing, reason: null });
    if (!isUsable(schedule.createdBy)) return await record({ status: "FAILED", ...nothing, reason: "CREATOR_INACTIVE" });
    const actor = actorFromUser(
      schedule.createdBy,
      { sessionId: occurrenceKey(scheduleId), expiresAt: now, via: "session" },
      await staffedGroups(schedule.createdBy),
    );
    const named = await livePeople(schedule.organizationId, idsOf(schedule.studentIds), idsOf(schedule.candidateIds));
    try {
      await bulkAssign(
        actor,
        {
          formId: schedule.formId,
          ...(schedule.groupId ? { groupId: schedule.groupId } : {}),
          ...named,
          send: schedule.send,
          ...(schedule.remindAfterDays ? { remindAfterDays: schedule.remindAfterDays } : {}),
          ...(schedule.expiresAfterDays ? { expiresAt: occurrenceDueAt(addDays(day, schedule.expiresAfterDays), timeZone).toISOString() } : {}),
        },
        { now, inTransaction: (tx, made) => recordOccurrence(tx, scheduleId, day, dueAt, now, { status: "DONE", ...made, reason: null }) },
      );
    } catch (error) {
      // Refused as a request would be (the form unpublished, past an e-mail quota, too many people):
      // nothing was written; the occurrence is recorded with the reason and the series goes on.
      if (!(error instanceof ApiError)) throw error;
      await record({ status: "FAILED", ...nothing, reason: error.code });
    }
  } catch (error) {
    if (error instanceof OccurrenceTaken || isUniqueViolation(error)) return;
    // Failing still at its last try (the database away for a day): recorded, so the series goes on.
    if (run.lastAttempt) await record({ status: "FAILED", ...nothing, reason: "ERROR" }).catch(() => undefined);
    throw error;
  }
};
