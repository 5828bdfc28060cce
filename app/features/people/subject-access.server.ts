import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { rawJson } from "~/lib/raw-values.ts";
import { recordAudit } from "../audit/audit.server.ts";
import { idsOf } from "../schedules/schedule-occurrences.server.ts";
import { scalesAndFlagsSelect } from "../reports/reports.server.ts";
import { readScaleResult } from "../scoring/scale-schemas.ts";
import { itemSelect } from "../submissions/submissions.server.ts";
import type { PersonKind } from "./erasure-modes.ts";
import { findPersonRecords, personSubmissionsWhere, recordIds, respondentsOf } from "./person-records.server.ts";
import { personSelect } from "./person-schemas.ts";

/**
 * Subject access (docs/api-contract.md §21, ADR 88): everything stored about one student or
 * candidate, in one JSON document an administrator downloads: the profile (and the other record a
 * promotion made), their login, groups, every submission with its answers and what it was scored,
 * the drafts, the schedules that reach them and the audit events about them. The download is
 * itself recorded (`person.exported`) before the document is answered.
 */

const profileSelect = { ...personSelect, anonymisedAt: true } satisfies Prisma.StudentSelect & Prisma.CandidateSelect;

const submissionSelect = {
  ...itemSelect,
  ...scalesAndFlagsSelect,
  formTitle: true,
  groupId: true,
  answers: {
    select: {
      questionId: true,
      position: true,
      questionText: true,
      questionType: true,
      optionIds: true,
      optionTexts: true,
      text: true,
      score: true,
      maxScore: true,
    },
    orderBy: { position: "asc" },
  },
  draft: { select: { answers: true, savedAt: true } },
} satisfies Prisma.SubmissionSelect;

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export async function exportPerson(actor: Actor, kind: PersonKind, id: string) {
  const records = await findPersonRecords(actor, kind, id);
  const { studentId, candidateId, organizationId } = records;
  const [student, candidate, login, memberships, submissions, schedules] = await Promise.all([
    studentId ? db.student.findUniqueOrThrow({ where: { id: studentId }, select: profileSelect }) : null,
    candidateId ? db.candidate.findUniqueOrThrow({ where: { id: candidateId }, select: profileSelect }) : null,
    records.userId
      ? db.user.findUniqueOrThrow({
          where: { id: records.userId },
          select: { id: true, email: true, name: true, phone: true, locale: true, isActive: true, lastLoginAt: true, createdAt: true, deletedAt: true },
        })
      : null,
    db.groupMember.findMany({
      where: { OR: respondentsOf(records) },
      select: { createdAt: true, group: { select: { id: true, name: true, deletedAt: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    db.submission.findMany({ where: personSubmissionsWhere(records), select: submissionSelect, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    // An organization's schedules are few: the JSON lists of people are read here, alike on both databases.
    db.schedule.findMany({
      where: { organizationId },
      select: {
        id: true,
        form: { select: { id: true, title: true } },
        groupId: true,
        studentIds: true,
        candidateIds: true,
        startsOn: true,
        everyDays: true,
        endsOn: true,
        nextOn: true,
        pausedAt: true,
        createdAt: true,
        deletedAt: true,
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
  ]);
  const groupIds = new Set(memberships.map((membership) => membership.group.id));
  const events = await db.auditEvent.findMany({
    where: { organizationId, targetId: { in: [...recordIds(records), ...submissions.map((row) => row.id)] } },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  const [person, other] = kind === "student" ? [student!, candidate] : [candidate!, student];
  const document = {
    exportedAt: new Date(),
    kind,
    person,
    alsoRecordedAs: other ? { kind: kind === "student" ? ("candidate" as const) : ("student" as const), profile: other } : null,
    login,
    groups: memberships.map(({ createdAt, group }) => ({ id: group.id, name: group.name, addedAt: createdAt, deletedAt: group.deletedAt })),
    submissions: submissions.map(({ draft: _, student: __, candidate: ___, form, subscales, flags, flaggedAt, answers, ...row }) => ({
      ...row,
      form: { id: form.id, title: form.title },
      ...readScaleResult({ subscales, flags, flaggedAt }),
      answers: answers.map((answer) => ({ ...answer, optionIds: strings(rawJson(answer.optionIds)), optionTexts: strings(rawJson(answer.optionTexts)) })),
    })),
    drafts: submissions.flatMap((row) =>
      row.draft ? [{ submissionId: row.id, answers: (rawJson(row.draft.answers) as unknown[]) ?? [], savedAt: row.draft.savedAt }] : [],
    ),
    schedules: schedules.flatMap(({ studentIds, candidateIds, ...schedule }) => {
      const namesThePerson =
        (studentId !== null && idsOf(studentIds).includes(studentId)) || (candidateId !== null && idsOf(candidateIds).includes(candidateId));
      return namesThePerson || (schedule.groupId !== null && groupIds.has(schedule.groupId)) ? [{ ...schedule, namesThePerson }] : [];
    }),
    auditEvents: events.map((event) => ({
      id: event.id,
      at: event.at,
      actor: { kind: event.actorKind, id: event.actorId, name: event.actorName },
      action: event.action,
      target: { type: event.targetType, id: event.targetId },
      details: (rawJson(event.details) as Record<string, unknown> | null) ?? null,
    })),
  };
  await recordAudit(db, { by: actor, action: "person.exported", targetId: id, details: { kind }, organizationId });
  return document;
}

/** The download's file name: the kind and the record's id, never the person's name. */
export const subjectAccessFilename = (kind: PersonKind, id: string) => `${kind}-${id}.json`;
