import { organizationScope, requireAdmin, type Actor } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/problem.server.ts";
import type { PersonKind } from "./erasure-modes.ts";
import type { Respondent } from "./people.server.ts";

/**
 * The records of one person, as subject access and erasure read them (docs/api-contract.md §21,
 * ADR 88): the student or candidate asked for, the same person's other record when a promotion
 * made two (a candidate and the student it became share their results), and a student's login.
 * Deleted records count: what a soft delete left stored is still theirs to read and to erase.
 */
export type PersonRecords = {
  kind: PersonKind;
  id: string;
  name: string;
  organizationId: string;
  studentId: string | null;
  candidateId: string | null;
  /** The student's own login, when they have one. */
  userId: string | null;
};

type Client = Prisma.TransactionClient | typeof db;

/** The person's records within `scope`; null when there is no such person there. */
export async function readPersonRecords(client: Client, kind: PersonKind, id: string, scope: { organizationId?: string } = {}): Promise<PersonRecords | null> {
  if (kind === "student") {
    const student = await client.student.findFirst({
      where: { id, ...scope },
      select: { name: true, organizationId: true, userId: true, promotedFrom: { select: { id: true } } },
    });
    return (
      student && {
        kind,
        id,
        name: student.name,
        organizationId: student.organizationId,
        studentId: id,
        candidateId: student.promotedFrom?.id ?? null,
        userId: student.userId,
      }
    );
  }
  const candidate = await client.candidate.findFirst({
    where: { id, ...scope },
    select: { name: true, organizationId: true, promotedStudent: { select: { id: true, userId: true } } },
  });
  return (
    candidate && {
      kind,
      id,
      name: candidate.name,
      organizationId: candidate.organizationId,
      studentId: candidate.promotedStudent?.id ?? null,
      candidateId: id,
      userId: candidate.promotedStudent?.userId ?? null,
    }
  );
}

/**
 * The person an administrator asks about. Scope before role: another organization's person is 404
 * for everyone (docs/api-contract.md §1), and only a person the caller can see answers 403 to a teacher.
 */
export async function findPersonRecords(actor: Actor, kind: PersonKind, id: string): Promise<PersonRecords> {
  const records = await readPersonRecords(db, kind, id, organizationScope(actor));
  if (!records) throw notFound(kind);
  requireAdmin(actor);
  return records;
}

/** Each record of the person: its kind, its id, and it as a respondent; the student first. */
export function eachRecord(records: PersonRecords): { kind: PersonKind; id: string; respondent: Respondent }[] {
  return [
    ...(records.studentId ? [{ kind: "student" as const, id: records.studentId, respondent: { studentId: records.studentId } }] : []),
    ...(records.candidateId ? [{ kind: "candidate" as const, id: records.candidateId, respondent: { candidateId: records.candidateId } }] : []),
  ];
}

/** Each record of the person as a respondent, the student first. */
export const respondentsOf = (records: PersonRecords): Respondent[] => eachRecord(records).map((record) => record.respondent);

/** The ids of the person's records. */
export const recordIds = (records: PersonRecords): string[] => eachRecord(records).map((record) => record.id);

/** The person's submissions, whichever of their records answers them. */
export const personSubmissionsWhere = (records: PersonRecords): Prisma.SubmissionWhereInput => ({ OR: respondentsOf(records) });
