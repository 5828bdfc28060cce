import { randomBytes } from "node:crypto";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { endAccountAccess } from "~/lib/auth/end-access.server.ts";
import { forgetAddress } from "~/lib/auth/rate-limit.server.ts";
import { db, LONG_WRITE, Prisma, serializeWrites } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { badRequest, fieldProblem, notFound } from "~/lib/problem.server.ts";
import { foldForSearch } from "~/lib/search.ts";
import { recordTombstone } from "~/lib/tombstones.server.ts";
import { recordAudit } from "../audit/audit.server.ts";
import { forgetDeliveriesAbout } from "../webhooks/webhooks.server.ts";
import type { EraseInput } from "./data-protection-schemas.ts";
import type { PersonKind } from "./erasure-modes.ts";
import { refreshRespondentSearchText, softDeletePerson, touchGroupsOf } from "./people.server.ts";
import {
  eachRecord,
  findPersonRecords,
  type PersonRecords,
  personSubmissionsWhere,
  readPersonRecords,
  recordIds,
  respondentsOf,
} from "./person-records.server.ts";

/**
 * Erasure (docs/api-contract.md §21, ADR 88). ANONYMISE replaces everything that identifies the
 * person, in every record of theirs (the student, the candidate it was promoted from, the login),
 * and the free text of their answers, and keeps their scores for the statistics; the records leave
 * the lists as a deleted person does. DELETE removes the records, their submissions, answers and
 * drafts. Both happen in one transaction with their audit events, which name the records by id
 * only. The form summary's tallies, the submission counts and the reports' totals follow by the
 * database's own triggers (ADR 32, 36, 13), as for any write to the results.
 */

/** What stands in for an anonymised person's name: a mark no language has to translate. */
const anonymousName = () => `#${randomBytes(3).toString("hex").toUpperCase()}`;

/** What stands in for a free-text answer or note that is no longer kept; not null, so it still counts as answered. */
export const ERASED_TEXT = "—";

/** What the erasure page tells before asking: how much goes. */
export async function erasurePreview(actor: Actor, kind: PersonKind, id: string) {
  const records = await findPersonRecords(actor, kind, id);
  const where = personSubmissionsWhere(records);
  const [submissions, answers, drafts] = await Promise.all([
    db.submission.count({ where }),
    db.answer.count({ where: { submission: where } }),
    db.submissionDraft.count({ where: { submission: where } }),
  ]);
  return { id, kind, name: records.name, hasLogin: records.userId !== null, alsoRecorded: recordIds(records).length > 1, submissions, answers, drafts };
}

export async function erasePerson(actor: Actor, kind: PersonKind, id: string, input: EraseInput) {
  const found = await findPersonRecords(actor, kind, id);
  assertConfirmed(found, input.confirm);
  const erasedAt = new Date();
  const counts = await db.$transaction(async (tx) => {
    // Two erasures of one person (or an erasure and an edit) take turns; the second reads what the first left.
    await serializeWrites(tx, "roster", found.organizationId);
    const records = await readPersonRecords(tx, kind, id);
    if (!records) throw notFound(kind);
    assertConfirmed(records, input.confirm);
    const counts = input.mode === "ANONYMISE" ? await anonymiseRecords(tx, records, erasedAt) : await removeRecords(tx, records, erasedAt);
    for (const record of eachRecord(records)) {
      await recordAudit(tx, {
        by: actor,
        action: input.mode === "ANONYMISE" ? "person.anonymised" : "person.deleted",
        targetId: record.id,
        details: { kind: record.kind, submissions: counts.submissions },
        organizationId: records.organizationId,
      });
    }
    return counts;
  }, LONG_WRITE);
  return { id, kind, mode: input.mode, erasedAt, ...counts };
}

/** The name typed must be the person's, as stored: anything else is a 400 naming `confirm`. */
function assertConfirmed(records: PersonRecords, confirm: string) {
  if (confirm.normalize("NFC").trim() !== records.name.normalize("NFC").trim()) {
    throw badRequest("Type the person's name, as it is stored, to confirm.", [fieldProblem("confirm", "confirmName")]);
  }
}

type Counts = { submissions: number; answers: number; drafts: number };

/** The person's submissions and how many answers and drafts they hold. */
async function readSubmissions(tx: Prisma.TransactionClient, records: PersonRecords) {
  const where = personSubmissionsWhere(records);
  const [submissions, answers, drafts] = await Promise.all([
    tx.submission.findMany({ where, select: { id: true, assignedById: true } }),
    tx.answer.count({ where: { submission: where } }),
    tx.submissionDraft.count({ where: { submission: where } }),
  ]);
  return { where, submissions, counts: { submissions: submissions.length, answers, drafts } };
}

/**
 * ANONYMISE in the caller's transaction: an administrator's erasure, or the retention policy's
 * for a person inactive too long (ADR 89). The records leave the lists as a deleted person does.
 */
export async function anonymiseRecords(tx: Prisma.TransactionClient, records: PersonRecords, at: Date): Promise<Counts> {
  const { where, submissions, counts } = await readSubmissions(tx, records);
  const name = anonymousName();
  // Grade stays: a class or a service is shared by many, and the statistics are read by it.
  const profile = {
    name,
    searchName: foldForSearch(name),
    email: null,
    externalId: null,
    dateOfBirth: null,
    phone: null,
    age: null,
    gender: null,
    anonymisedAt: at,
  };
  if (records.studentId) await tx.student.update({ where: { id: records.studentId }, data: profile, select: { id: true } });
  if (records.candidateId) await tx.candidate.update({ where: { id: records.candidateId }, data: profile, select: { id: true } });
  for (const respondent of respondentsOf(records)) {
    await softDeletePerson(tx, respondent, at);
    // The reports search by the name the results show.
    await refreshRespondentSearchText(tx, respondent, name);
  }
  const submissionIds = submissions.map((row) => row.id);
  await anonymiseSnapshots(tx, submissionIds, name);
  // The free text goes; the choices and scores stay, and the tallies with them.
  await tx.answer.updateMany({ where: { submission: where, text: { not: null } }, data: { text: ERASED_TEXT } });
  await tx.submission.updateMany({ where: { AND: [where, { acknowledgementNote: { not: null } }] }, data: { acknowledgementNote: ERASED_TEXT } });
  await tx.submission.updateMany({ where: { AND: [where, { mailError: { not: null } }] }, data: { mailError: null } });
  // Marked as the retention policy marks the results it anonymises (ADR 89): never again.
  await tx.submission.updateMany({ where: { AND: [where, { anonymisedAt: null }] }, data: { anonymisedAt: at } });
  await tx.submissionDraft.deleteMany({ where: { submission: where } });
  // Nobody is left to e-mail; a finished job's error may quote their address. A pending alert to
  // the staff about a flagged result still goes, naming the result as it is now.
  await tx.job.deleteMany({
    where: { submissionId: { in: submissionIds }, OR: [{ kind: { in: ["sendLink", "remind"] } }, { doneAt: { not: null } }, { failedAt: { not: null } }] },
  });
  await forgetDeliveriesAbout(tx, records.organizationId, [...recordIds(records), ...submissionIds]);
  if (records.userId) await anonymiseLogin(tx, records.userId, name, at);
  return counts;
}

/**
 * The respondent each result captured at completion (`scoredAgainst.respondent`, ADR 68): its name
 * becomes `name` and its age goes, as on the record. One statement per few hundred results.
 */
async function anonymiseSnapshots(tx: Prisma.TransactionClient, submissionIds: string[], name: string) {
  for (let start = 0; start < submissionIds.length; start += 500) {
    const ids = Prisma.join(submissionIds.slice(start, start + 500));
    if (env().databaseProvider === "postgresql") {
      await tx.$executeRaw`UPDATE "Submission" SET "scoredAgainst" = jsonb_set(jsonb_set("scoredAgainst", '{respondent,name}', to_jsonb(${name}::text)), '{respondent,age}', 'null'::jsonb)
        WHERE "id" IN (${ids}) AND jsonb_typeof("scoredAgainst"->'respondent') = 'object'`;
    } else {
      await tx.$executeRaw`UPDATE "Submission" SET "scoredAgainst" = json_set("scoredAgainst", '$.respondent.name', ${name}, '$.respondent.age', NULL)
        WHERE "id" IN (${ids}) AND json_type("scoredAgainst", '$.respondent') = 'object'`;
    }
  }
}

/** DELETE in the caller's transaction: an administrator's erasure, or the retention policy's (ADR 89). */
export async function removeRecords(tx: Prisma.TransactionClient, records: PersonRecords, at: Date): Promise<Counts> {
  const { where, submissions, counts } = await readSubmissions(tx, records);
  const submissionIds = submissions.map((row) => row.id);
  await tx.job.deleteMany({ where: { submissionId: { in: submissionIds } } });
  await forgetDeliveriesAbout(tx, records.organizationId, [...recordIds(records), ...submissionIds]);
  // The submissions' and reports' lists read with updatedSince learn that these left (ADR 52).
  await tx.tombstone.createMany({
    data: submissions.map((row) => ({
      organizationId: records.organizationId,
      kind: "submission",
      itemId: row.id,
      ownerId: row.assignedById,
      audience: "OWNER",
      deletedAt: at,
    })),
  });
  // Their answers and drafts go with them; the triggers take them out of the tallies first.
  await tx.submission.deleteMany({ where });
  for (const { kind, id, respondent } of eachRecord(records)) {
    await touchGroupsOf(tx, respondent, at);
    // A person deleted before told the lists then.
    const live = { id, deletedAt: null };
    const wasLive = kind === "student" ? await tx.student.count({ where: live }) : await tx.candidate.count({ where: live });
    if (wasLive > 0) await recordTombstone(tx, { organizationId: records.organizationId, kind, itemId: id, audience: "ALL", deletedAt: at });
  }
  // The candidate first: it names the student it became. Their group memberships go with them.
  if (records.candidateId) await tx.candidate.delete({ where: { id: records.candidateId }, select: { id: true } });
  if (records.studentId) await tx.student.delete({ where: { id: records.studentId }, select: { id: true } });
  if (records.userId) {
    const login = await tx.user.delete({ where: { id: records.userId }, select: { email: true } });
    await forgetAddress(tx, login.email);
  }
  return counts;
}

/**
 * A student's login, anonymised: it can no longer sign in (no password, no second factor, no
 * session, token or linked provider), and its name and address are replaced; the row stays,
 * deleted, as the student's does.
 */
async function anonymiseLogin(tx: Prisma.TransactionClient, userId: string, name: string, at: Date) {
  const login = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, deletedAt: true } });
  await endAccountAccess(tx, userId);
  await tx.verification.deleteMany({ where: { userId } });
  await tx.externalAccount.deleteMany({ where: { userId } });
  await tx.avatar.deleteMany({ where: { userId } });
  await tx.idempotencyKey.deleteMany({ where: { userId } });
  // Unique, as the login name must be, and in a domain that can never receive mail (RFC 2606).
  const email = `${userId}@anonymised.invalid`;
  await tx.user.update({
    where: { id: userId },
    data: {
      name,
      email,
      searchName: foldForSearch(`${name} ${email}`),
      phone: null,
      passwordHash: null,
      twoFactorMethod: null,
      totpSecretEncrypted: null,
      totpLastUsedStep: null,
      isActive: false,
      deletedAt: login.deletedAt ?? at,
    },
    select: { id: true },
  });
  await forgetAddress(tx, login.email);
}
