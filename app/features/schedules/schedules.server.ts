import { type Actor, isAdmin, isStaff, organizationScope } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { badRequest, conflict, fieldProblem, forbidden, notFound } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { dayIn } from "~/lib/zoned-time.ts";
import { bulkRespondents } from "../submissions/bulk-assignment.server.ts";
import { assignableForm } from "../submissions/submissions.server.ts";
import { enqueueJobs } from "../jobs/jobs.server.ts";
import { dayOf, occurrenceDueAt, scheduleState, seriesDayFrom } from "./schedule-days.ts";
import { idsOf, livePeople, occurrenceJob, occurrenceKey, scheduleColumns } from "./schedule-occurrences.server.ts";
import type { CreateScheduleInput, ListSchedulesQuery, UpdateScheduleInput } from "./schedule-schemas.ts";

/**
 * Schedules (docs/api-contract.md §18, ADR 76): create, read, change, pause, resume and delete. A
 * teacher sees and changes the schedules they made, an administrator every one of the
 * organization's; another organization's are 404. The respondents and the form are checked as a
 * bulk assignment checks them, when the schedule is made and whenever they change; the occurrences
 * themselves run as jobs (schedule-occurrences.server.ts). Each write replaces the schedule's job
 * with one for its next occurrence, in the same transaction.
 */

/** The latest occurrences a schedule's read lists. */
const OCCURRENCES_SHOWN = 100;

const scheduleSelect = {
  ...scheduleColumns,
  startsOn: true,
  createdAt: true,
  updatedAt: true,
  form: { select: { id: true, title: true, deletedAt: true } },
  group: { select: { id: true, name: true, deletedAt: true } },
  createdBy: { select: { id: true, name: true } },
} satisfies Prisma.ScheduleSelect;
type ScheduleRow = Prisma.ScheduleGetPayload<{ select: typeof scheduleSelect }>;

/** The schedules the caller sees: their own (a teacher), the organization's (an administrator). */
function visibleSchedulesWhere(actor: Actor): Prisma.ScheduleWhereInput {
  if (!isStaff(actor)) throw forbidden();
  const base = { deletedAt: null, ...organizationScope(actor) };
  return isAdmin(actor) ? base : { ...base, createdById: actor.userId };
}

async function findSchedule(actor: Actor, id: string): Promise<ScheduleRow> {
  const row = await db.schedule.findFirst({ where: { AND: [{ id }, visibleSchedulesWhere(actor)] }, select: scheduleSelect });
  if (!row) throw notFound("schedule");
  return row;
}

/** The names of the people the rows name, by id (those deleted since are left out). */
async function peopleNames(rows: ScheduleRow[]) {
  const studentIds = [...new Set(rows.flatMap((row) => idsOf(row.studentIds)))];
  const candidateIds = [...new Set(rows.flatMap((row) => idsOf(row.candidateIds)))];
  const where = { deletedAt: null };
  const select = { id: true, name: true } as const;
  const [students, candidates] = await Promise.all([
    studentIds.length ? db.student.findMany({ where: { ...where, id: { in: studentIds } }, select }) : [],
    candidateIds.length ? db.candidate.findMany({ where: { ...where, id: { in: candidateIds } }, select }) : [],
  ]);
  return { students: new Map(students.map((person) => [person.id, person])), candidates: new Map(candidates.map((person) => [person.id, person])) };
}

function scheduleItem(row: ScheduleRow, names: Awaited<ReturnType<typeof peopleNames>>) {
  const { status, endedBecause } = scheduleState(row);
  const named = (ids: Prisma.JsonValue, known: Map<string, { id: string; name: string }>) => idsOf(ids).flatMap((id) => known.get(id) ?? []);
  return {
    id: row.id,
    form: { id: row.form.id, title: row.form.title },
    group: row.group ? { id: row.group.id, name: row.group.name } : null,
    students: named(row.studentIds, names.students),
    candidates: named(row.candidateIds, names.candidates),
    startsAt: row.startsOn,
    everyDays: row.everyDays,
    endsAt: row.endsOn,
    count: row.count,
    send: row.send,
    remindAfterDays: row.remindAfterDays,
    expiresAfterDays: row.expiresAfterDays,
    paused: row.pausedAt !== null,
    status,
    endedBecause,
    nextOccurrence: status === "ACTIVE" ? { day: row.nextOn, at: occurrenceDueAt(row.nextOn, row.organization.timeZone) } : null,
    occurrencesRun: row.occurrencesRun,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type ScheduleItem = ReturnType<typeof scheduleItem>;

/** GET /api/schedules: newest first. */
export async function listSchedules(actor: Actor, query: ListSchedulesQuery) {
  const filters: Prisma.ScheduleWhereInput[] = [visibleSchedulesWhere(actor)];
  if (query.formId) filters.push({ formId: query.formId });
  if (query.groupId) filters.push({ groupId: query.groupId });
  const where = { AND: filters };
  const [rows, total] = await Promise.all([
    db.schedule.findMany({ where, select: scheduleSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...skipTake(query) }),
    db.schedule.count({ where }),
  ]);
  const names = await peopleNames(rows);
  return { schedules: rows.map((row) => scheduleItem(row, names)), total, page: query.page, limit: query.limit };
}

/** GET /api/schedules/:id: the schedule, and its latest occurrences, newest first. */
export async function getSchedule(actor: Actor, id: string) {
  const row = await findSchedule(actor, id);
  const [names, occurrences] = await Promise.all([
    peopleNames([row]),
    db.scheduleOccurrence.findMany({
      where: { scheduleId: id },
      select: { day: true, dueAt: true, ranAt: true, status: true, created: true, skipped: true, reason: true },
      orderBy: { day: "desc" },
      take: OCCURRENCES_SHOWN,
    }),
  ]);
  return { schedule: scheduleItem(row, names), occurrences };
}

/** A posted day, in the zone; a 400 naming `field` when it is not a real day. */
function postedDay(value: string, timeZone: string, field: "startsAt" | "endsAt") {
  const day = dayOf(value, timeZone);
  if (!day) throw badRequest("Not a date.", [fieldProblem(field, "date")]);
  return day;
}

const startsInThePast = () => badRequest("The schedule cannot start before today.", [fieldProblem("startsAt", "todayOrLater")]);
const endsBeforeStart = () => badRequest("The last day comes before the first.", [fieldProblem("endsAt", "startAfterEnd")]);

/** POST /api/schedules. `now`: the clock (tests give it). */
export async function createSchedule(actor: Actor, input: CreateScheduleInput, now = new Date()) {
  const form = await assignableForm(actor, input.formId);
  const { timeZone } = await db.organization.findUniqueOrThrow({ where: { id: form.organizationId }, select: { timeZone: true } });
  const startsOn = postedDay(input.startsAt, timeZone, "startsAt");
  const endsOn = input.endsAt === undefined ? null : postedDay(input.endsAt, timeZone, "endsAt");
  if (startsOn < dayIn(now, timeZone)) throw startsInThePast();
  if (endsOn !== null && endsOn < startsOn) throw endsBeforeStart();
  await bulkRespondents(actor, form.organizationId, input);
  const { id } = await db.$transaction(async (tx) => {
    const created = await tx.schedule.create({
      data: {
        organizationId: form.organizationId,
        createdById: actor.userId,
        formId: form.id,
        groupId: input.groupId ?? null,
        studentIds: [...new Set(input.studentIds ?? [])],
        candidateIds: [...new Set(input.candidateIds ?? [])],
        startsOn,
        everyDays: input.everyDays,
        endsOn,
        count: input.count ?? null,
        send: input.send,
        remindAfterDays: input.remindAfterDays ?? null,
        expiresAfterDays: input.expiresAfterDays ?? null,
        nextOn: startsOn,
      },
      select: { id: true },
    });
    await enqueueJobs(tx, [occurrenceJob(created.id, startsOn, timeZone)]);
    return created;
  });
  return { schedule: (await getSchedule(actor, id)).schedule };
}

/** The schedule's jobs not done and not running now: a change replaces them with its own. */
const waitingJobsWhere = (id: string, now: Date): Prisma.JobWhereInput => ({
  concurrencyKey: occurrenceKey(id),
  doneAt: null,
  failedAt: null,
  OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }],
});

/** How many times a change is tried again when an occurrence ran while it was being made. */
const UPDATE_TRIES = 3;

/**
 * PUT /api/schedules/:id. The respondents are checked again when they change (the people named
 * before and deleted since are left out). A new `startsAt` is the next occurrence's day; resuming
 * goes on from the series' next day that is today or later, the days passed while paused being
 * neither sent nor counted. The write is conditional on the schedule as read: an occurrence that
 * ran in between makes it read again.
 */
export async function updateSchedule(actor: Actor, id: string, input: UpdateScheduleInput, now = new Date()) {
  for (let attempt = 1; ; attempt++) {
    const row = await findSchedule(actor, id);
    const timeZone = row.organization.timeZone;
    const today = dayIn(now, timeZone);
    const data: Prisma.ScheduleUncheckedUpdateManyInput = {};
    let group = row.group;

    if (input.groupId !== undefined || input.studentIds !== undefined || input.candidateIds !== undefined) {
      const kept = await livePeople(row.organizationId, idsOf(row.studentIds), idsOf(row.candidateIds));
      const groupId = input.groupId === undefined ? row.groupId : input.groupId;
      const studentIds = [...new Set(input.studentIds ?? kept.studentIds)];
      const candidateIds = [...new Set(input.candidateIds ?? kept.candidateIds)];
      if (!groupId && studentIds.length === 0 && candidateIds.length === 0) {
        throw badRequest("Choose a group, or students or candidates.", [fieldProblem("groupId", "chooseRespondents")]);
      }
      await bulkRespondents(actor, row.organizationId, { ...(groupId ? { groupId } : {}), studentIds, candidateIds });
      Object.assign(data, { groupId, studentIds, candidateIds });
      if (groupId !== row.groupId) group = groupId ? { id: groupId, name: "", deletedAt: null } : null;
    }

    let nextOn = row.nextOn;
    let startsOn = row.startsOn;
    if (input.startsAt !== undefined) {
      startsOn = postedDay(input.startsAt, timeZone, "startsAt");
      const last = await db.scheduleOccurrence.findFirst({ where: { scheduleId: id }, orderBy: { day: "desc" }, select: { day: true } });
      if (last && startsOn <= last.day)
        throw badRequest("The next occurrence must come after the last.", [fieldProblem("startsAt", "afterLastOccurrence", last.day)]);
      nextOn = startsOn;
    }
    let endsOn = row.endsOn;
    let count = row.count;
    if (input.endsAt !== undefined) {
      endsOn = input.endsAt === null ? null : postedDay(input.endsAt, timeZone, "endsAt");
      if (endsOn !== null) count = null;
    }
    if (input.count !== undefined) {
      count = input.count;
      if (count !== null) endsOn = null;
    }
    if (input.startsAt !== undefined && startsOn < today) throw startsInThePast();
    if (endsOn !== null && endsOn < startsOn) throw endsBeforeStart();
    const everyDays = input.everyDays ?? row.everyDays;
    const paused = input.paused ?? row.pausedAt !== null;
    const pausedAt = paused ? (row.pausedAt ?? now) : null;
    // Resumed: on from the series' next day that is today or later.
    if (row.pausedAt && !paused && input.startsAt === undefined) nextOn = seriesDayFrom(nextOn, everyDays, today);
    Object.assign(data, {
      startsOn,
      everyDays,
      endsOn,
      count,
      nextOn,
      pausedAt,
      ...(input.send !== undefined ? { send: input.send } : {}),
      ...(input.remindAfterDays !== undefined ? { remindAfterDays: input.remindAfterDays } : {}),
      ...(input.expiresAfterDays !== undefined ? { expiresAfterDays: input.expiresAfterDays } : {}),
    });

    const saved = await db.$transaction(async (tx) => {
      const { count: written } = await tx.schedule.updateMany({
        where: { id, deletedAt: null, nextOn: row.nextOn, occurrencesRun: row.occurrencesRun, updatedAt: row.updatedAt },
        data,
      });
      if (written !== 1) return false;
      await tx.job.deleteMany({ where: waitingJobsWhere(id, now) });
      const state = scheduleState({ ...row, endsOn, count, nextOn, pausedAt, group });
      if (state.status === "ACTIVE") await enqueueJobs(tx, [occurrenceJob(id, nextOn, timeZone)]);
      return true;
    });
    if (saved) return { schedule: (await getSchedule(actor, id)).schedule };
    if (attempt === UPDATE_TRIES) throw conflict("The schedule changed while this change was being saved: read it again and retry.", "SCHEDULE_CHANGED");
  }
}

/** DELETE /api/schedules/:id: soft; no occurrence follows, and the links already made stay. */
export async function deleteSchedule(actor: Actor, id: string, now = new Date()) {
  await findSchedule(actor, id);
  await db.$transaction([
    db.schedule.update({ where: { id }, data: { deletedAt: now }, select: { id: true } }),
    db.job.deleteMany({ where: waitingJobsWhere(id, now) }),
  ]);
  return { id, deletedAt: now };
}
