import type { Actor } from "~/lib/auth/actor.server.ts";
import { organizationScope, requireAdmin } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { changedSince, changesPage, OLDEST_CHANGE_FIRST } from "~/lib/tombstones.server.ts";
import { claimVersion, type IfMatch } from "~/lib/entity-tag.server.ts";
import { emitWebhookEvent, webhookSubscribers } from "../webhooks/webhooks.server.ts";
import { foldForSearch } from "~/lib/search.ts";
import { personSelect } from "../people/person-schemas.ts";
import {
  assertBornByToday,
  assertProfileFree,
  deletePerson,
  personData,
  personHistory,
  personHistoryByForm,
  personListWhere,
  refreshRespondentSearchText,
} from "../people/people.server.ts";
import type { CreateStudentInput, ListStudentsQuery, UpdateStudentInput } from "./student-schemas.ts";
import { newId } from "~/lib/ids.server.ts";
import { recordAudit, recordUpdate } from "../audit/audit.server.ts";

export async function listStudents(actor: Actor, query: ListStudentsQuery) {
  const where = personListWhere(actor, query) as Prisma.StudentWhereInput;
  const [students, total] = await Promise.all([
    db.student.findMany({ where, select: personSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...skipTake(query) }),
    db.student.count({ where }),
  ]);
  return { students, total, page: query.page, limit: query.limit };
}

/** The list with `updatedSince` (ADR 52): the students changed since then that the filters select, oldest change first, and the deletions. */
export async function listStudentChanges(actor: Actor, query: ListStudentsQuery & { updatedSince: Date }) {
  const where: Prisma.StudentWhereInput = { AND: [personListWhere(actor, query) as Prisma.StudentWhereInput, changedSince(query.updatedSince)] };
  const { items, total } = await changesPage(actor, "student", query.updatedSince, query, {
    page: (offset, limit) => db.student.findMany({ where, select: personSelect, orderBy: OLDEST_CHANGE_FIRST, skip: offset, take: limit }),
    count: () => db.student.count({ where }),
  });
  return { students: items, total, page: query.page, limit: query.limit };
}

async function findStudent(actor: Actor, id: string) {
  const student = await db.student.findFirst({
    where: { id, deletedAt: null, ...organizationScope(actor) },
    select: { ...personSelect, organizationId: true },
  });
  if (!student) throw notFound("student");
  return student;
}

/** The student and the results the caller may see, per form (the student's page). */
export async function getStudentPage(actor: Actor, id: string) {
  const { organizationId: _, ...student } = await findStudent(actor, id);
  return { student, history: await personHistoryByForm(actor, { studentId: id }) };
}

/** The student with the history of results the caller may see. */
export async function getStudent(actor: Actor, id: string) {
  const { organizationId: _, ...student } = await findStudent(actor, id);
  const submissions = await personHistory(actor, { studentId: id });
  return { ...student, submissions };
}

export async function createStudent(actor: Actor, input: CreateStudentInput) {
  // The id and time are chosen here, so that the event can name them in the same transaction.
  const student = { id: newId(), name: input.name, externalId: input.externalId ?? null, createdAt: new Date() };
  const subscribers = await webhookSubscribers(actor.organizationId, "student.created");
  assertBornByToday(input, actor.timeZone);
  await db.$transaction(async (tx) => {
    await assertProfileFree(tx, "student", actor.organizationId, input);
    await tx.student.create({
      data: {
        ...student,
        organizationId: actor.organizationId,
        createdById: actor.userId,
        ...personData(input),
        searchName: foldForSearch(input.name),
      },
      select: { id: true },
    });
    await emitWebhookEvent(tx, subscribers, "student.created", { ...student, createdAt: student.createdAt.toISOString() });
    await recordAudit(tx, { by: actor, action: "student.created", targetId: student.id });
  });
  return getStudent(actor, student.id);
}

/** `ifMatch`: the request's If-Match, checked in the write's transaction (412 when the student has changed). */
export async function updateStudent(actor: Actor, id: string, input: UpdateStudentInput, ifMatch: IfMatch | null = null) {
  const existing = await findStudent(actor, id);
  assertBornByToday(input, actor.timeZone);
  const subscribers = await webhookSubscribers(existing.organizationId, "student.updated");
  // A new name is also written into the search text of the student's results, in the same
  // transaction, so the reports search finds them by the name they show.
  await db.$transaction(async (tx) => {
    await claimVersion(tx, "student", id, ifMatch);
    await assertProfileFree(tx, "student", existing.organizationId, input, id);
    const updated = await tx.student.update({ where: { id }, data: personData(input), select: { name: true, externalId: true, updatedAt: true } });
    if (input.name !== undefined) {
      await refreshRespondentSearchText(tx, { studentId: id }, input.name);
    }
    await emitWebhookEvent(tx, subscribers, "student.updated", { id, ...updated, updatedAt: updated.updatedAt.toISOString() });
    await recordUpdate(tx, actor, "student.updated", { id, organizationId: existing.organizationId }, input);
  });
  return getStudent(actor, id);
}

/**
 * Soft delete: the record stays for the results that reference it. Its pending links stop working
 * because the public link checks the respondent's deletedAt.
 */
export async function deleteStudent(actor: Actor, id: string) {
  // Scope before role: another organization's student is 404 for everyone (docs/api-contract.md §1), and only
  // a student the caller can see answers 403 to a teacher.
  await findStudent(actor, id);
  requireAdmin(actor);
  return { id, deletedAt: await deletePerson(actor, { studentId: id }) };
}
