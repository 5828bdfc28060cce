import type { Actor } from "~/lib/auth/actor.server.ts";
import { organizationScope } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { conflict } from "~/lib/problem.server.ts";
import { foldForSearch, submissionSearchText } from "~/lib/search.ts";
import { historySelect, visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";

/** Filters shared by the student and candidate lists: organization, not deleted, search, status. */
export function personListWhere(actor: Actor, query: { search?: string | undefined; status?: string | undefined; groupId?: string | undefined }) {
  return {
    deletedAt: null,
    ...organizationScope(actor),
    ...(query.search ? { searchName: { contains: foldForSearch(query.search) } } : {}),
    ...(query.status ? { status: query.status } : {}),
    // A group of another organization (or a deleted one) has no members here: an empty page.
    ...(query.groupId ? { groups: { some: { groupId: query.groupId, group: { deletedAt: null, ...organizationScope(actor) } } } } : {}),
  };
}

/**
 * E-mail addresses are unique among an organization's students (and, separately, candidates)
 * that are not deleted. Checked here rather than by a database constraint because deleted
 * records keep their address.
 */
export async function assertEmailFree(kind: "student" | "candidate", organizationId: string, email: string | null | undefined, exceptId?: string) {
  if (!email) return;
  const where = { organizationId, email, deletedAt: null, ...(exceptId ? { id: { not: exceptId } } : {}) };
  const taken =
    kind === "student"
      ? await db.student.findFirst({ where: where as Prisma.StudentWhereInput, select: { id: true } })
      : await db.candidate.findFirst({ where: where as Prisma.CandidateWhereInput, select: { id: true } });
  if (taken) throw conflict(`Another ${kind} of this organization already uses this e-mail address.`, "EMAIL_TAKEN");
}

type ProfileInput = {
  name?: string | undefined;
  status?: string | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  age?: number | null | undefined;
  grade?: string | null | undefined;
  gender?: string | null | undefined;
};

/** The columns a create or update body sets; fields left out are not touched. */
export function personData<S extends string>(input: ProfileInput & { status?: S | undefined }) {
  const data: { name?: string; searchName?: string; status?: S } & Record<string, string | number | null> = {};
  if (input.name !== undefined) Object.assign(data, { name: input.name, searchName: foldForSearch(input.name) });
  if (input.status !== undefined) data.status = input.status;
  for (const field of ["email", "phone", "age", "grade", "gender"] as const) {
    if (input[field] !== undefined) data[field] = input[field];
  }
  return data;
}

/** A student's or candidate's results that the caller may see, newest first. */
export function personHistory(actor: Actor, person: { studentId: string } | { candidateId: string }) {
  return db.submission.findMany({
    where: { AND: [person, visibleSubmissionsWhere(actor)] },
    select: historySelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** Results per page of a person's page, and how many completed ones its chart draws at most. */
export const HISTORY_PAGE_SIZE = 20;
export const HISTORY_CHART_LIMIT = 100;

/**
 * A person's page shows their results a page at a time (a pupil with 500 results is not a 750 KB
 * page), newest first, and a chart of their latest completed results.
 */
export async function personHistoryPage(actor: Actor, person: { studentId: string } | { candidateId: string }, page: number) {
  const where = { AND: [person, visibleSubmissionsWhere(actor)] };
  const [entries, total, charted] = await Promise.all([
    db.submission.findMany({
      where,
      select: historySelect,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * HISTORY_PAGE_SIZE,
      take: HISTORY_PAGE_SIZE,
    }),
    db.submission.count({ where }),
    db.submission.findMany({
      where: { AND: [...where.AND, { isCompleted: true }] },
      select: historySelect,
      orderBy: [{ completedAt: "desc" }, { id: "desc" }],
      take: HISTORY_CHART_LIMIT,
    }),
  ]);
  return { entries, charted, total, page, limit: HISTORY_PAGE_SIZE };
}

/** Who answers a submission: its student, or its candidate while no student was promoted from them. */
export type Respondent = { studentId: string } | { candidateId: string };

/**
 * Rewrites `searchText` of the respondent's completed submissions for their (new) `name`, inside
 * the caller's transaction, so the reports search, which reads only that column, finds a report by
 * the name the report shows. After a promotion the student is the respondent, so a candidate's
 * name only counts for the submissions that have no student. One UPDATE per distinct form title
 * (the title is part of the text and was captured per submission).
 */
export async function refreshRespondentSearchText(tx: Prisma.TransactionClient, respondent: Respondent, name: string) {
  const where: Prisma.SubmissionWhereInput =
    "studentId" in respondent
      ? { studentId: respondent.studentId, isCompleted: true }
      : { candidateId: respondent.candidateId, studentId: null, isCompleted: true };
  const titles = await tx.submission.findMany({ where, select: { formTitle: true }, distinct: ["formTitle"] });
  for (const { formTitle } of titles) {
    await tx.submission.updateMany({
      where: { AND: [where, { formTitle }] },
      data: { searchText: submissionSearchText(name, formTitle) },
    });
  }
}
