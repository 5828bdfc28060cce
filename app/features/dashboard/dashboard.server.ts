import type { Actor } from "~/lib/auth/actor.server.ts";
import { isStaff } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { startOfMonthIn } from "~/lib/zoned-time.ts";
import { visibleFormsWhere } from "../forms/forms.server.ts";
import { personListWhere } from "../people/people.server.ts";
import { listReports } from "../reports/reports.server.ts";
import { visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";
import { studentAssignments } from "../submissions/student-portal.server.ts";
import { testLinkUrl } from "../submissions/submissions.server.ts";

/**
 * What the home page shows: the caller's open assignments, their latest results and a few
 * counts. Everything goes through the same scope helpers as the lists and the API, so the home
 * page never shows more than those would.
 */

/**
 * Assignments still waiting for an answer whose link would work: not completed, not expired, and
 * neither the form nor the respondent deleted (the rules of the public link, test-link.server.ts).
 */
export function pendingAssignmentsWhere(actor: Actor, now: Date): Prisma.SubmissionWhereInput {
  return {
    AND: [
      visibleSubmissionsWhere(actor),
      { isCompleted: false },
      { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      { form: { deletedAt: null } },
      // After a promotion the student is the respondent, so only a candidate without one counts.
      { OR: [{ student: { is: { deletedAt: null } } }, { studentId: null, candidate: { is: { deletedAt: null } } }] },
    ],
  };
}

/**
 * The newest pending assignments. Staff get each test link (built for `locale`) to copy again, as
 * GET /api/submissions/:id gives it to them; a student's own login does not.
 */
export async function pendingAssignments(actor: Actor, options: { locale: Locale; limit?: number; now?: Date }) {
  const rows = await db.submission.findMany({
    where: pendingAssignmentsWhere(actor, options.now ?? new Date()),
    select: {
      id: true,
      token: true,
      createdAt: true,
      expiresAt: true,
      form: { select: { id: true, title: true, instrument: true } },
      student: { select: { id: true, name: true } },
      candidate: { select: { id: true, name: true } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit ?? 10,
  });
  const staff = isStaff(actor);
  return rows.map(({ token, student, candidate, form: { instrument, ...form }, ...row }) => ({
    ...row,
    form,
    respondent: student ? { kind: "student" as const, ...student } : { kind: "candidate" as const, ...candidate! },
    url: staff ? testLinkUrl(token, options.locale, instrument) : null,
  }));
}

/** How many flagged results the home page lists; the rest are a link to the filtered reports. */
export const NEEDS_ATTENTION_LIMIT = 10;

/**
 * The flagged results in the caller's scope that nobody has acknowledged yet, newest first, and
 * how many there are (docs/api-contract.md §16): the reports list with `flagged=unacknowledged`,
 * so the home page shows exactly what that filter lists.
 */
export async function needsAttention(actor: Actor) {
  if (!isStaff(actor)) return { results: [], total: 0 };
  const { reports, total } = await listReports(actor, { page: 1, limit: NEEDS_ATTENTION_LIMIT, flagged: "unacknowledged" });
  return { results: reports, total };
}

/** The latest completed results in the caller's scope (staff only, as reports are). */
export async function recentResults(actor: Actor, options: { limit?: number } = {}) {
  if (!isStaff(actor)) return [];
  const { reports } = await listReports(actor, { page: 1, limit: options.limit ?? 10 });
  return reports;
}

export type DashboardCounts = {
  students: number;
  candidates: number;
  forms: number;
  pending: number;
  completedThisMonth: number;
};

/** The home page's numbers; "this month" starts at midnight on the 1st in the organization's time zone. */
export async function dashboardCounts(actor: Actor, options: { now?: Date }): Promise<DashboardCounts> {
  const now = options.now ?? new Date();
  const people = personListWhere(actor, {});
  const [students, candidates, forms, pending, completedThisMonth] = await Promise.all([
    db.student.count({ where: people as Prisma.StudentWhereInput }),
    db.candidate.count({ where: people as Prisma.CandidateWhereInput }),
    db.form.count({ where: visibleFormsWhere(actor) }),
    db.submission.count({ where: pendingAssignmentsWhere(actor, now) }),
    db.submission.count({
      where: { AND: [visibleSubmissionsWhere(actor), { isCompleted: true }, { completedAt: { gte: startOfMonthIn(actor.timeZone, now) } }] },
    }),
  ]);
  return { students, candidates, forms, pending, completedThisMonth };
}

/** Everything the home page needs in one call; a student's login gets only their pending tests. */
export async function loadDashboard(actor: Actor, options: { locale: Locale; now?: Date }) {
  const organization = await db.organization.findUnique({ where: { id: actor.organizationId }, select: { name: true } });
  const base = { name: actor.name, organization: organization?.name ?? "" };
  if (!isStaff(actor)) {
    return { ...base, kind: "student" as const, ...(await studentAssignments(actor, options)) };
  }
  const [attention, pending, recent, counts] = await Promise.all([
    needsAttention(actor),
    pendingAssignments(actor, options),
    recentResults(actor),
    dashboardCounts(actor, options),
  ]);
  return { ...base, kind: "staff" as const, attention, pending, recent, counts };
}
