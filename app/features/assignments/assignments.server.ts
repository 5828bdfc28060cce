import { z } from "zod";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { isStaff, organizationScope } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { idSchema, paginationQuery, searchParam, skipTake } from "~/lib/schemas.ts";
import { foldForSearch } from "~/lib/search.ts";
import { visibleFormsWhere } from "../forms/forms.server.ts";
import { visibleSubmissionsSql, visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";
import { statusWhere, testLinkUrl, waitingWhere } from "../submissions/submissions.server.ts";
import { groupChoice, groupChoices } from "../groups/groups.server.ts";

/**
 * What the assignment pages need beyond the submissions API: the choices of the "assign" form
 * (published forms the caller can see, the organization's active students and candidates) and
 * the caller's assignments filtered by state (pending, completed, expired).
 */

import { ASSIGNMENT_STATES, type AssignmentState } from "./assignment-states.ts";
import { type StatusFields, submissionStatus, STATUS_SELECT } from "../submissions/submission-status.ts";

export { ASSIGNMENT_STATES, type AssignmentState };

export const listAssignmentsQuery = z.object({
  ...paginationQuery,
  state: z.enum(ASSIGNMENT_STATES).optional().catch(undefined),
  formId: idSchema.optional(),
});
export type ListAssignmentsQuery = z.output<typeof listAssignmentsQuery>;

export const assignmentChoicesQuery = z.object({
  q: searchParam.catch(undefined),
});

const CHOICES_LIMIT = 200;

/** Candidates one can still assess: not promoted to a student (then the student is the respondent), not rejected. */
const ACTIVE_CANDIDATE_STATUSES = ["NEW", "IN_EVALUATION", "APPROVED"] as const;

export async function assignmentChoices(actor: Actor, options: { search?: string | undefined } = {}) {
  const term = options.search ? foldForSearch(options.search) : undefined;
  const people = { deletedAt: null, ...organizationScope(actor), ...(term ? { searchName: { contains: term } } : {}) };
  const [forms, students, candidates] = await Promise.all([
    db.form.findMany({
      where: { AND: [visibleFormsWhere(actor), { isPublished: true }] },
      select: { id: true, title: true },
      orderBy: [{ title: "asc" }, { id: "asc" }],
      take: CHOICES_LIMIT,
    }),
    db.student.findMany({
      where: { ...people, status: "ACTIVE" },
      select: { id: true, name: true },
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: CHOICES_LIMIT + 1,
    }),
    db.candidate.findMany({
      where: { ...people, status: { in: [...ACTIVE_CANDIDATE_STATUSES] } },
      select: { id: true, name: true },
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: CHOICES_LIMIT + 1,
    }),
  ]);
  const truncated = students.length > CHOICES_LIMIT || candidates.length > CHOICES_LIMIT;
  return { forms, students: students.slice(0, CHOICES_LIMIT), candidates: candidates.slice(0, CHOICES_LIMIT), truncated };
}

/** The pages' states are the API's statuses with the open ones (pending, opened) taken together. */
function stateWhere(state: AssignmentState, now: Date): Prisma.SubmissionWhereInput {
  if (state === "pending") return waitingWhere(now);
  return statusWhere(STATUS_OF_STATE[state], now);
}

const STATUS_OF_STATE = { completed: "COMPLETED", expired: "EXPIRED", revoked: "REVOKED" } as const;

export function assignmentState(row: StatusFields, now: Date): AssignmentState {
  const status = submissionStatus(row, now);
  return status === "COMPLETED" ? "completed" : status === "EXPIRED" ? "expired" : status === "REVOKED" ? "revoked" : "pending";
}

/** The caller's assignments (the submission scope), newest first; pending rows carry their link for staff. */
export async function listAssignments(actor: Actor, query: ListAssignmentsQuery, options: { locale: Locale; now?: Date }) {
  const now = options.now ?? new Date();
  const filters: Prisma.SubmissionWhereInput[] = [visibleSubmissionsWhere(actor)];
  if (query.state) filters.push(stateWhere(query.state, now));
  if (query.formId) filters.push({ formId: query.formId });
  const where = { AND: filters };
  const [rows, total] = await Promise.all([
    db.submission.findMany({
      where,
      select: {
        id: true,
        token: true,
        ...STATUS_SELECT,
        completedAt: true,
        createdAt: true,
        totalScore: true,
        maxScore: true,
        percentage: true,
        scoreLabel: true,
        scoreColor: true,
        form: { select: { id: true, title: true, instrument: true } },
        student: { select: { id: true, name: true } },
        candidate: { select: { id: true, name: true } },
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...skipTake(query),
    }),
    db.submission.count({ where }),
  ]);
  const staff = isStaff(actor);
  const assignments = rows.map(({ token, student, candidate, form: { instrument, ...form }, ...row }) => {
    const state = assignmentState(row, now);
    return {
      ...row,
      form,
      state,
      respondent: student ? { kind: "student" as const, ...student } : { kind: "candidate" as const, id: candidate?.id ?? "", name: candidate?.name ?? "" },
      url: staff && state === "pending" ? testLinkUrl(token, options.locale, instrument) : null,
    };
  });
  return { assignments, total, page: query.page, limit: query.limit };
}

/**
 * The forms the lists' form filter offers: the ones with a link in the caller's scope. The
 * organization's forms each ask whether one link exists (the `(formId, deletedAt)` index finds
 * it at once). Prisma's `submissions: { some }` became `id IN (SELECT formId FROM Submission …)`
 * over every form of every organization, which read all of an organization's links: at
 * 1,000,000 results the reports page took seconds.
 */
export async function assignedForms(actor: Actor): Promise<{ id: string; title: string }[]> {
  const { organizationId } = organizationScope(actor);
  const inOrganization = organizationId === undefined ? Prisma.sql`TRUE` : Prisma.sql`f."organizationId" = ${organizationId}`;
  return db.$queryRaw<{ id: string; title: string }[]>`
    SELECT f."id", f."title" FROM "Form" AS f
    WHERE ${inOrganization} AND EXISTS (SELECT 1 FROM "Submission" AS s WHERE s."formId" = f."id" AND ${visibleSubmissionsSql(actor, "s")})
    ORDER BY f."title", f."id" LIMIT 200`;
}

/** One active student or candidate of the caller's organization, to keep a preselected person in the list. */
export async function respondentChoice(actor: Actor, kind: "student" | "candidate", id: string) {
  const where = { id, deletedAt: null, ...organizationScope(actor) };
  return kind === "student"
    ? db.student.findFirst({ where: { ...where, status: "ACTIVE" }, select: { id: true, name: true } })
    : db.candidate.findFirst({ where: { ...where, status: { in: [...ACTIVE_CANDIDATE_STATUSES] } }, select: { id: true, name: true } });
}

/** The respondent select's value: `student:<id>`, `candidate:<id>` or `group:<id>`. */
export const respondentValue = (kind: "student" | "candidate" | "group", id: string) => `${kind}:${id}`;

/**
 * What a page that gives a form to someone offers (assigning a test, a schedule): the published
 * forms, the groups and the active people its search finds, with the one the page was opened for
 * (`studentId`, `candidateId`, `groupId` or `respondent` in its address) kept in the list even when
 * the search or the list's cap would leave them out.
 */
export async function respondentChoices(actor: Actor, query: Partial<Record<"q" | "studentId" | "candidateId" | "groupId" | "respondent", string>>) {
  const { q } = assignmentChoicesQuery.parse({ q: query.q });
  const [choices, groups] = await Promise.all([assignmentChoices(actor, { search: q }), groupChoices(actor, q)]);
  const { studentId, candidateId, groupId, respondent } = query;
  const selected = studentId
    ? respondentValue("student", studentId)
    : candidateId
      ? respondentValue("candidate", candidateId)
      : groupId
        ? respondentValue("group", groupId)
        : (respondent ?? "");
  const [kind, id] = selected.split(":");
  if (kind === "group" && id && !groups.some((group) => group.id === id)) {
    const found = await groupChoice(actor, id);
    if (found) groups.unshift(found);
  }
  if ((kind === "student" || kind === "candidate") && id) {
    const list = kind === "student" ? choices.students : choices.candidates;
    if (!list.some((person) => person.id === id)) {
      const found = await respondentChoice(actor, kind, id);
      if (found) list.unshift(found);
    }
  }
  return { ...choices, groups, q: q ?? "", respondent: selected };
}
