import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, LONG_WRITE, type Prisma, serializeWrites } from "~/lib/db.server.ts";
import { insertRows } from "~/lib/insert-rows.server.ts";
import { badRequest, fieldProblem, notFound } from "~/lib/problem.server.ts";
import { assertNotGroupViewer, groupMemberIds } from "../groups/groups.server.ts";
import { BULK_LIMIT, type BulkAssignInput } from "./submission-schemas.ts";
import { assignableForm, newToken, submissionCreatedData, submissionItems, waitingWhere } from "./submissions.server.ts";
import { enqueueJobs } from "../jobs/jobs.server.ts";
import { deliveryJobs } from "./link-mail.server.ts";
import { chargeMail } from "./mail-quota.server.ts";
import { linkExpiry } from "./link-expiry.server.ts";
import { newId } from "~/lib/ids.server.ts";
import { emitWebhookEvents, webhookSubscribers } from "../webhooks/webhooks.server.ts";

type Person = { kind: "student" | "candidate"; id: string; name: string; status: string; email: string | null };

/** Who a bulk assignment gives links to. */
type Respondents = Pick<BulkAssignInput, "groupId" | "studentIds" | "candidateIds">;

/**
 * The people of a bulk assignment: the group's members now and the people named, each once, in
 * name order. Any id outside the organization (or the caller's scope, for the group) is 404 for
 * all; more than BULK_LIMIT people is a 400. A schedule checks its respondents with it too.
 */
export async function bulkRespondents(actor: Actor, organizationId: string, input: Respondents): Promise<Person[]> {
  const fromGroup = input.groupId ? await groupMemberIds(actor, input.groupId) : { studentIds: [], candidateIds: [] };
  if (input.groupId) await assertNotGroupViewer(actor, input.groupId);
  const studentIds = [...new Set([...fromGroup.studentIds, ...(input.studentIds ?? [])])];
  const candidateIds = [...new Set([...fromGroup.candidateIds, ...(input.candidateIds ?? [])])];
  if (studentIds.length + candidateIds.length > BULK_LIMIT) {
    throw badRequest(`Assign at most ${BULK_LIMIT} people at once.`, [fieldProblem(input.groupId ? "groupId" : "studentIds", "tooManyRespondents", "1,000")]);
  }

  // Everyone named must be a live record of the form's organization: any other id is 404 for all.
  const where = { organizationId, deletedAt: null };
  const select = { id: true, name: true, status: true, email: true } as const;
  const [students, candidates] = await Promise.all([
    studentIds.length ? db.student.findMany({ where: { ...where, id: { in: studentIds } }, select }) : [],
    candidateIds.length ? db.candidate.findMany({ where: { ...where, id: { in: candidateIds } }, select }) : [],
  ]);
  if (students.length !== studentIds.length) throw notFound("student");
  if (candidates.length !== candidateIds.length) throw notFound("candidate");
  return [
    ...students.map((person) => ({ kind: "student" as const, ...person })),
    ...candidates.map((person) => ({ kind: "candidate" as const, ...person })),
  ].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/**
 * How a caller other than a request runs a bulk assignment: a schedule's occurrence (ADR 76) gives
 * its clock, and writes its own record in the links' transaction (`inTransaction`, after the
 * links), so that the links and the record of their occurrence are written together or not at all.
 */
export type BulkAssignOptions = {
  now?: Date;
  inTransaction?: (tx: Prisma.TransactionClient, outcome: { created: number; skipped: number }) => Promise<void>;
};

/**
 * One form assigned to a whole class at once (docs/api-contract.md §10): a group's members and the people
 * named, each once. Someone who already has a link to this form still waiting for answers is
 * skipped (ALREADY_PENDING), as is a student who is not active or a candidate already promoted
 * (NOT_ACTIVE); everyone else gets a link, all in one transaction, which also queues one
 * `submission.created` event per link for the webhooks that want it.
 */
export async function bulkAssign(actor: Actor, input: BulkAssignInput, options: BulkAssignOptions = {}) {
  const expiresAt = linkExpiry(input.expiresAt, actor.timeZone, options.now);
  const form = await assignableForm(actor, input.formId);
  const people = await bulkRespondents(actor, form.organizationId, input);
  const studentIds = people.flatMap((person) => (person.kind === "student" ? [person.id] : []));
  const candidateIds = people.flatMap((person) => (person.kind === "candidate" ? [person.id] : []));

  // The links and their e-mails are written together: a link is never queued without its row. A
  // few multi-row statements keep this write short (on SQLite every other writer waits for it). The
  // e-mails are counted against the quotas last, in the same transaction: a call that would pass
  // one keeps nothing (ADR 45), and the quota's row is locked only for the end of the write.
  const subscribers = await webhookSubscribers(form.organizationId, "submission.created", form.id);
  const { chosen, rows, skipped } = await db.$transaction(async (tx) => {
    // Who already has a link waiting is read after taking the form's links: of a double-clicked
    // assignment, the second waits for the first and then skips everyone it assigned (ADR 41).
    await serializeWrites(tx, "links", form.id);
    const now = options.now ?? new Date();
    const waiting = await tx.submission.findMany({
      where: {
        formId: form.id,
        deletedAt: null,
        AND: [waitingWhere(now), { OR: [{ studentId: { in: studentIds } }, { candidateId: { in: candidateIds } }] }],
      },
      select: { studentId: true, candidateId: true },
    });
    const hasLink = new Set(waiting.map((row) => row.studentId ?? row.candidateId));
    const skipped: (Pick<Person, "kind" | "id" | "name"> & { reason: "ALREADY_PENDING" | "NOT_ACTIVE" })[] = [];
    const chosen: Person[] = [];
    for (const person of people) {
      const inactive = person.kind === "student" ? person.status !== "ACTIVE" : person.status === "PROMOTED";
      const who = { kind: person.kind, id: person.id, name: person.name };
      if (inactive) skipped.push({ ...who, reason: "NOT_ACTIVE" });
      else if (hasLink.has(person.id)) skipped.push({ ...who, reason: "ALREADY_PENDING" });
      else chosen.push(person);
    }
    const reachable = new Set(chosen.filter((person) => person.email).map((person) => person.id));
    const rows = chosen.map((person) => ({
      id: newId(),
      studentId: person.kind === "student" ? person.id : null,
      candidateId: person.kind === "candidate" ? person.id : null,
      mailed: reachable.has(person.id),
    }));
    const jobs = deliveryJobs(
      rows.filter((row) => row.mailed).map((row) => row.id),
      input,
      now,
    );
    await insertRows(
      tx,
      "Submission",
      [
        "id",
        "organizationId",
        "formId",
        "studentId",
        "candidateId",
        "assignedById",
        "token",
        "expiresAt",
        "isCompleted",
        "sendCount",
        "mailQueuedAt",
        "groupId",
        "createdAt",
        "updatedAt",
      ],
      rows.map((row) => [
        row.id,
        form.organizationId,
        form.id,
        row.studentId,
        row.candidateId,
        actor.userId,
        newToken(),
        expiresAt,
        false,
        0,
        input.send && row.mailed ? now : null,
        // The group's staff see the links given to it (ADR 86).
        input.groupId ?? null,
        now,
        now,
      ]),
    );
    await enqueueJobs(tx, jobs);
    await emitWebhookEvents(
      tx,
      subscribers,
      "submission.created",
      rows.map((row) => submissionCreatedData({ ...row, formId: form.id, assignedById: actor.userId, expiresAt, createdAt: now })),
    );
    await chargeMail(tx, { organizationId: form.organizationId, userId: actor.userId }, jobs.length, now);
    await options.inTransaction?.(tx, { created: rows.length, skipped: skipped.length });
    return { chosen, rows, skipped };
  }, LONG_WRITE);
  const emailOf = new Map(chosen.map((person) => [person.id, person.email]));
  // In the order the respondents were given (the ids are random, so the database's order is not).
  const position = new Map<string, number>(rows.map((row, index) => [row.id, index]));
  const items = (
    await submissionItems(
      actor,
      rows.map((row) => row.id),
    )
  ).sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  return {
    created: items.map((item) => {
      const personId = item.student?.id ?? item.candidate?.id ?? "";
      return input.send ? { ...item, delivery: emailOf.get(personId) ? ("QUEUED" as const) : ("NO_EMAIL" as const) } : item;
    }),
    skipped,
  };
}
