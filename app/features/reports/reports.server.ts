import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { badRequest, conflict, notFound } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { foldForSearch } from "~/lib/search.ts";
import { visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";
import type { ScoredAgainst } from "../submissions/test-link.server.ts";
import type { ListReportsQuery, ReportDetail } from "./report-schemas.ts";

/**
 * Reports are completed submissions. Every number, label and colour in them was stored when the
 * test was completed; nothing here recomputes a score.
 */

const reportSelect = {
  id: true,
  completedAt: true,
  totalScore: true,
  maxScore: true,
  percentage: true,
  scoreLabel: true,
  scoreColor: true,
  scoredAgainst: true,
  createdAt: true,
  student: { select: { id: true, name: true, grade: true, age: true } },
  candidate: { select: { id: true, name: true, grade: true, age: true } },
  assignedBy: { select: { id: true, name: true } },
  organization: { select: { id: true, name: true } },
} satisfies Prisma.SubmissionSelect;

type ReportRow = Prisma.SubmissionGetPayload<{ select: typeof reportSelect }>;

/** Date-only bounds cover whole days in UTC; a date-time without a zone is read as UTC. */
export function completedAtRange(query: Pick<ListReportsQuery, "from" | "to">): Prisma.DateTimeNullableFilter | undefined {
  const parse = (value: string, endOfDay: boolean) => {
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
    const iso = dateOnly ? `${value}T${endOfDay ? "23:59:59.999" : "00:00:00.000"}Z` : /(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`;
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) || (dateOnly && date.toISOString().slice(0, 10) !== value) ? null : date;
  };
  const from = query.from ? parse(query.from, false) : undefined;
  const to = query.to ? parse(query.to, true) : undefined;
  if (from === null) throw badRequest("The start date is not a date.", [{ path: "from", message: "Not a valid date." }]);
  if (to === null) throw badRequest("The end date is not a date.", [{ path: "to", message: "Not a valid date." }]);
  if (from && to && from > to) throw badRequest("The start date is after the end date.", [{ path: "from", message: "Must not be after to." }]);
  if (!from && !to) return undefined;
  return { ...(from ? { gte: from } : {}), ...(to ? { lte: to } : {}) };
}

function toReportItem(row: ReportRow) {
  const snapshot = row.scoredAgainst as unknown as ScoredAgainst;
  const respondent = row.student ?? row.candidate;
  return {
    id: row.id,
    studentName: respondent?.name ?? snapshot.respondent.name,
    formTitle: snapshot.form.title,
    completedAt: row.completedAt!,
    totalScore: row.totalScore!,
    maxScore: row.maxScore!,
    percentage: row.percentage!,
    scoreLabel: row.scoreLabel,
    scoreColor: row.scoreColor,
    assignedByName: row.assignedBy.name,
  };
}

export async function listReports(actor: Actor, query: ListReportsQuery) {
  const filters: Prisma.SubmissionWhereInput[] = [visibleSubmissionsWhere(actor), { isCompleted: true }];
  const completedAt = completedAtRange(query);
  if (completedAt) filters.push({ completedAt });
  if (query.search) {
    const term = foldForSearch(query.search);
    filters.push({
      OR: [
        { searchText: { contains: term } },
        { student: { searchName: { contains: term } } },
        { candidate: { searchName: { contains: term } } },
      ],
    });
  }
  const where = { AND: filters };
  const [rows, total] = await Promise.all([
    db.submission.findMany({ where, select: reportSelect, orderBy: [{ completedAt: "desc" }, { id: "desc" }], ...skipTake(query) }),
    db.submission.count({ where }),
  ]);
  return { reports: rows.map(toReportItem), total, page: query.page, limit: query.limit };
}

/** The full report of one completed submission in the caller's scope (404 outside it, 409 while pending). */
export async function getReport(actor: Actor, submissionId: string): Promise<ReportDetail> {
  const row = await db.submission.findFirst({
    where: { AND: [{ id: submissionId }, visibleSubmissionsWhere(actor)] },
    select: {
      ...reportSelect,
      isCompleted: true,
      answers: {
        orderBy: { position: "asc" },
        select: { questionId: true, questionText: true, questionType: true, optionTexts: true, text: true, score: true, maxScore: true },
      },
    },
  });
  if (!row) throw notFound("report");
  if (!row.isCompleted) throw conflict("This test has not been completed yet.", "NOT_COMPLETED");
  const snapshot = row.scoredAgainst as unknown as ScoredAgainst;
  const live = row.student ?? row.candidate;
  return {
    ...toReportItem(row),
    form: snapshot.form,
    respondent: {
      ...snapshot.respondent,
      ...(live ? { id: live.id, name: live.name, grade: live.grade, age: live.age } : {}),
      kind: row.student ? "student" : "candidate",
    },
    assignedBy: row.assignedBy,
    organization: row.organization,
    assignedAt: row.createdAt,
    scoreRanges: snapshot.scoreRanges,
    answers: row.answers.map(({ questionType, optionTexts, ...answer }) => ({
      ...answer,
      type: questionType,
      optionTexts: optionTexts as string[],
    })),
  };
}
