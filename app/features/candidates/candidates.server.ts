import type { Actor } from "~/lib/auth/actor.server.ts";
import { organizationScope, requireAdmin } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { conflict, notFound } from "~/lib/problem.server.ts";
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
import { getStudent } from "../students/students.server.ts";
import type { CreateCandidateInput, ListCandidatesQuery, UpdateCandidateInput } from "./candidate-schemas.ts";
import { newId } from "~/lib/ids.server.ts";
import { recordAudit, recordUpdate } from "../audit/audit.server.ts";

const candidateSelect = { ...personSelect, promotedStudentId: true, promotedAt: true } as const;

export async function listCandidates(actor: Actor, query: ListCandidatesQuery) {
  const where = personListWhere(actor, query) as Prisma.CandidateWhereInput;
  const [candidates, total] = await Promise.all([
    db.candidate.findMany({
      where,
      select: candidateSelect,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...skipTake(query),
    }),
    db.candidate.count({ where }),
  ]);
  return { candidates, total, page: query.page, limit: query.limit };
}

/** The list with `updatedSince` (ADR 52): the candidates changed since then that the filters select, oldest change first, and the deletions. */
export async function listCandidateChanges(actor: Actor, query: ListCandidatesQuery & { updatedSince: Date }) {
  const where: Prisma.CandidateWhereInput = { AND: [personListWhere(actor, query) as Prisma.CandidateWhereInput, changedSince(query.updatedSince)] };
  const { items, total } = await changesPage(actor, "candidate", query.updatedSince, query, {
    page: (offset, limit) => db.candidate.findMany({ where, select: candidateSelect, orderBy: OLDEST_CHANGE_FIRST, skip: offset, take: limit }),
    count: () => db.candidate.count({ where }),
  });
  return { candidates: items, total, page: query.page, limit: query.limit };
}

async function findCandidate(actor: Actor, id: string) {
  const candidate = await db.candidate.findFirst({
    where: { id, deletedAt: null, ...organizationScope(actor) },
    select: { ...candidateSelect, organizationId: true },
  });
  if (!candidate) throw notFound("candidate");
  return candidate;
}

/** The candidate with the evaluations the caller may see (also those kept after a promotion). */
/** The candidate and the results the caller may see, per form (the candidate's page). */
export async function getCandidatePage(actor: Actor, id: string) {
  const { organizationId: _, ...candidate } = await findCandidate(actor, id);
  return { candidate, history: await personHistoryByForm(actor, { candidateId: id }) };
}

export async function getCandidate(actor: Actor, id: string) {
  const { organizationId: _, ...candidate } = await findCandidate(actor, id);
  const evaluations = await personHistory(actor, { candidateId: id });
  return { ...candidate, evaluations };
}

export async function createCandidate(actor: Actor, input: CreateCandidateInput) {
  // The id and time are chosen here, so that the event can name them in the same transaction.
  const candidate = { id: newId(), name: input.name, externalId: input.externalId ?? null, createdAt: new Date() };
  const subscribers = await webhookSubscribers(actor.organizationId, "candidate.created");
  assertBornByToday(input, actor.timeZone);
  await db.$transaction(async (tx) => {
    await assertProfileFree(tx, "candidate", actor.organizationId, input);
    await tx.candidate.create({
      data: {
        ...candidate,
        organizationId: actor.organizationId,
        createdById: actor.userId,
        ...personData(input),
        searchName: foldForSearch(input.name),
      },
      select: { id: true },
    });
    await emitWebhookEvent(tx, subscribers, "candidate.created", { ...candidate, createdAt: candidate.createdAt.toISOString() });
    await recordAudit(tx, { by: actor, action: "candidate.created", targetId: candidate.id });
  });
  return getCandidate(actor, candidate.id);
}

/** `ifMatch`: the request's If-Match, checked in the write's transaction (412 when the candidate has changed). */
export async function updateCandidate(actor: Actor, id: string, input: UpdateCandidateInput, ifMatch: IfMatch | null = null) {
  const existing = await findCandidate(actor, id);
  assertBornByToday(input, actor.timeZone);
  if (existing.status === "PROMOTED" && input.status !== undefined) {
    throw conflict("A promoted candidate's status cannot change.", "ALREADY_PROMOTED");
  }
  // A new name is also written into the search text of the evaluations the candidate still
  // answers (not those a promoted student took over), in the same transaction.
  await db.$transaction(async (tx) => {
    await claimVersion(tx, "candidate", id, ifMatch);
    await assertProfileFree(tx, "candidate", existing.organizationId, input, id);
    await tx.candidate.update({ where: { id }, data: personData(input), select: { id: true } });
    if (input.name !== undefined) {
      await refreshRespondentSearchText(tx, { candidateId: id }, input.name);
    }
    await recordUpdate(tx, actor, "candidate.updated", { id, organizationId: existing.organizationId }, input);
  });
  return getCandidate(actor, id);
}

export async function deleteCandidate(actor: Actor, id: string) {
  // Scope before role: another organization's candidate is 404, never 403 (docs/api-contract.md §1).
  await findCandidate(actor, id);
  requireAdmin(actor);
  return { id, deletedAt: await deletePerson(actor, { candidateId: id }) };
}

const alreadyPromoted = () => conflict("This candidate has already been promoted.", "ALREADY_PROMOTED");

/**
 * Promotes a candidate to a student in one transaction: the candidate is claimed first with a
 * conditional update, so of two simultaneous promotions exactly one proceeds and the other gets
 * 409; then the student is created from the candidate's profile and the evaluation history is
 * attached to it (the submissions keep their candidate too, so the candidate's record still shows
 * where the student came from). Their search text is rewritten for the student, who is now the
 * respondent.
 */
export async function promoteCandidate(actor: Actor, id: string) {
  const candidate = await findCandidate(actor, id);
  requireAdmin(actor);
  if (candidate.status === "PROMOTED") throw alreadyPromoted();
  const subscribers = await webhookSubscribers(candidate.organizationId, "candidate.promoted");
  const studentId = await db.$transaction(async (tx) => {
    await assertProfileFree(tx, "student", candidate.organizationId, { email: candidate.email });
    const promotedAt = new Date();
    const claimed = await tx.candidate.updateMany({
      where: { id, deletedAt: null, status: { not: "PROMOTED" }, promotedStudentId: null },
      data: { status: "PROMOTED", promotedAt },
    });
    if (claimed.count !== 1) throw alreadyPromoted();
    const student = await tx.student.create({
      data: {
        organizationId: candidate.organizationId,
        createdById: actor.userId,
        name: candidate.name,
        searchName: foldForSearch(candidate.name),
        email: candidate.email,
        dateOfBirth: candidate.dateOfBirth,
        phone: candidate.phone,
        age: candidate.age,
        grade: candidate.grade,
        gender: candidate.gender,
        status: "ACTIVE",
      },
      select: { id: true },
    });
    await tx.candidate.update({ where: { id }, data: { promotedStudentId: student.id } });
    await tx.submission.updateMany({ where: { candidateId: id }, data: { studentId: student.id } });
    // The student is now the respondent of those submissions: their search text follows the
    // student's name (the same name today, but it is the student's from now on).
    await refreshRespondentSearchText(tx, { studentId: student.id }, candidate.name);
    await emitWebhookEvent(tx, subscribers, "candidate.promoted", {
      candidate: { id, name: candidate.name },
      student: { id: student.id, name: candidate.name },
      promotedAt: promotedAt.toISOString(),
    });
    // A promotion is two events: the candidate changed (promoted, naming the student) and a student
    // was created (naming the candidate), so each record's history in the log shows it.
    const organizationId = candidate.organizationId;
    await recordAudit(tx, {
      by: actor,
      action: "candidate.updated",
      targetId: id,
      organizationId,
      details: { fields: ["promotedStudentId", "status"], promotedTo: student.id },
    });
    await recordAudit(tx, { by: actor, action: "student.created", targetId: student.id, organizationId, details: { promotedFrom: id } });
    return student.id;
  });

  const [student, promoted] = await Promise.all([getStudent(actor, studentId), getCandidate(actor, id)]);
  const { submissions: _, ...studentRecord } = student;
  const { evaluations: __, ...candidateRecord } = promoted;
  return { student: studentRecord, candidate: candidateRecord };
}
