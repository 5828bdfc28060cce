import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin, isStaff, organizationScope } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import { forbidden } from "~/lib/problem.server.ts";

/**
 * The submissions a caller may see (docs/spec.md §1 rules 3 and 4, docs/api-contract.md §19):
 * administrators every submission of their organization, students the ones they answer, teachers
 * the ones they assigned and, for each group they are staff of (ADR 86), every link given to the
 * group and every submission of one of its members assigned by one of its staff.
 */
export function visibleSubmissionsWhere(actor: Actor): Prisma.SubmissionWhereInput {
  const base: Prisma.SubmissionWhereInput = { deletedAt: null, ...organizationScope(actor) };
  if (isAdmin(actor)) return base;
  if (actor.role === "STUDENT") return { ...base, student: { userId: actor.userId } };
  if (actor.staffOf.length === 0) return { ...base, assignedById: actor.userId };
  return {
    ...base,
    OR: [
      { assignedById: actor.userId },
      { groupId: { in: actor.staffOf.map((group) => group.groupId) } },
      ...sharedStaffs(actor).map(({ staffIds, groupIds }) => {
        const inGroups = { groups: { some: { groupId: { in: groupIds } } } };
        return { AND: [{ assignedById: { in: staffIds } }, { OR: [{ student: inGroups }, { candidate: inGroups }] }] };
      }),
    ],
  };
}

/**
 * The caller's groups gathered by their staff: a member's result is shared when one of that same
 * staff assigned it. One condition per distinct staff rather than per group, and none for the
 * groups the caller staffs alone, whose members' results the caller assigned are theirs anyway: a
 * teacher with hundreds of classes (alone, or with the same colleagues) gets a condition of a few
 * terms. One term per group made a condition SQLite refused as too deep at a few hundred groups.
 */
export function sharedStaffs(actor: Pick<Actor, "userId" | "staffOf">): { staffIds: string[]; groupIds: string[] }[] {
  const byStaff = new Map<string, { staffIds: string[]; groupIds: string[] }>();
  for (const group of actor.staffOf) {
    if (group.staffIds.every((id) => id === actor.userId)) continue;
    const staffIds = [...new Set(group.staffIds)].sort();
    const key = staffIds.join(" ");
    const shared = byStaff.get(key) ?? { staffIds, groupIds: [] };
    shared.groupIds.push(group.groupId);
    byStaff.set(key, shared);
  }
  return [...byStaff.values()];
}

/**
 * The submissions a caller may change (revoke, extend, remind): an administrator's organization, a
 * teacher's own assignments and the links given to the groups they own or edit. A group's VIEWER
 * reads its links but changes none of them.
 */
export function changeableSubmissionsWhere(actor: Actor): Prisma.SubmissionWhereInput {
  const base: Prisma.SubmissionWhereInput = { deletedAt: null, ...organizationScope(actor) };
  if (isAdmin(actor)) return base;
  if (actor.role === "STUDENT") return { id: { in: [] } };
  // The staff as it is at the write, not as the request's snapshot of it was: a role taken away
  // refuses the next change.
  return { ...base, OR: [{ assignedById: actor.userId }, { group: { staff: { some: editorOf(actor) } } }] };
}

/**
 * 403 unless the caller may change the submission `id` they can see (changeableSubmissionsWhere):
 * what revoking, extending and e-mailing a link again check before anything about the link itself.
 */
export async function assertMayChangeSubmission(actor: Actor, id: string): Promise<void> {
  if ((await db.submission.count({ where: { AND: [{ id }, changeableSubmissionsWhere(actor)] } })) === 0) {
    throw forbidden("Only the one who assigned this link, the group's owners and editors, or an administrator may change it.");
  }
}

/** A group's staff entry that lets the caller change the group and its links: theirs, as OWNER or EDITOR. */
export const editorOf = (actor: Pick<Actor, "userId">): Prisma.GroupStaffWhereInput => ({ userId: actor.userId, role: { in: ["OWNER", "EDITOR"] } });

/** The submissions of a group's current members (students and candidates). */
export function inGroupWhere(groupId: string): Prisma.SubmissionWhereInput {
  const inGroup = { groups: { some: { groupId } } };
  return { OR: [{ student: inGroup }, { candidate: inGroup }] };
}

/**
 * `visibleSubmissionsWhere` as an SQL condition on the "Submission" row `alias`, for the raw
 * queries Prisma cannot express (the reports search). The same rules, kept next to each other so
 * they change together; tests/database/search-index.test.ts and tests/database/group-staff-scope.test.ts
 * check that both select the same rows for every role and every kind of group staff. Identifiers
 * are quoted, which both SQLite and PostgreSQL understand.
 */
export function visibleSubmissionsSql(actor: Actor, alias = "Submission"): Prisma.Sql {
  const table = Prisma.raw(`"${alias.replaceAll('"', '""')}"`);
  const conditions = [Prisma.sql`${table}."deletedAt" IS NULL`];
  const { organizationId } = organizationScope(actor);
  if (organizationId !== undefined) conditions.push(Prisma.sql`${table}."organizationId" = ${organizationId}`);
  if (actor.role === "STUDENT") {
    conditions.push(Prisma.sql`${table}."studentId" IN (SELECT "id" FROM "Student" WHERE "userId" = ${actor.userId})`);
  } else if (!isAdmin(actor)) {
    const own = Prisma.sql`${table}."assignedById" = ${actor.userId}`;
    if (actor.staffOf.length === 0) conditions.push(own);
    else {
      const groupIds = Prisma.join(actor.staffOf.map((group) => group.groupId));
      const byMemberAndStaff = sharedStaffs(actor).map(({ staffIds, groupIds }) => {
        const groups = Prisma.join(groupIds);
        return Prisma.sql`(${table}."assignedById" IN (${Prisma.join(staffIds)}) AND (
          ${table}."studentId" IN (SELECT "studentId" FROM "GroupMember" WHERE "groupId" IN (${groups}) AND "studentId" IS NOT NULL)
          OR ${table}."candidateId" IN (SELECT "candidateId" FROM "GroupMember" WHERE "groupId" IN (${groups}) AND "candidateId" IS NOT NULL)))`;
      });
      conditions.push(Prisma.sql`(${Prisma.join([own, Prisma.sql`${table}."groupId" IN (${groupIds})`, ...byMemberAndStaff], " OR ")})`);
    }
  }
  return Prisma.sql`(${Prisma.join(conditions, " AND ")})`;
}

/** A submission as it appears in a person's history. */
export const historySelect = {
  id: true,
  form: { select: { id: true, title: true } },
  isCompleted: true,
  completedAt: true,
  totalScore: true,
  maxScore: true,
  percentage: true,
  scoreLabel: true,
  scoreColor: true,
  createdAt: true,
} satisfies Prisma.SubmissionSelect;

/**
 * The respondent-visibility rule (docs/decisions/0042-results-the-respondent-reads.md): whether
 * `actor` may read a submission's result, that is its total, maximum, percentage, band (label and
 * colour) and each answer's score. Staff read every result in their scope. A STUDENT's own login
 * reads only submissions they answer (visibleSubmissionsWhere), so it is always the respondent: it
 * reads the result once the test is completed and only when the form's author allows it
 * (`showResultToRespondent`, false by default).
 */
export function showsResultTo(actor: Pick<Actor, "role">, submission: { isCompleted: boolean; form: { showResultToRespondent: boolean } }): boolean {
  return isStaff(actor) || (submission.isCompleted && submission.form.showResultToRespondent);
}

type ResultFields = {
  isCompleted: boolean;
  totalScore: number | null;
  maxScore: number | null;
  percentage: number | null;
  scoreLabel: string | null;
  scoreColor: string | null;
  form: { showResultToRespondent: boolean };
};

type SeenAnswer = { score: number };

/** A submission read as `actor` may see it (the shape of `asSeenBy`'s answer). */
export type SeenBy<Row extends ResultFields> = Omit<Row, "form" | "answers"> & {
  form: Omit<Row["form"], "showResultToRespondent">;
} & (Row extends { answers: (infer Answer extends SeenAnswer)[] } ? { answers: (Omit<Answer, "score"> & { score: number | null })[] } : unknown);

/**
 * A submission as `actor` may read it: what every read of submission rows goes through
 * (GET /api/submissions, GET /api/submissions/:id, the links a bulk assignment answers; the
 * student's own tests, shaped differently, ask `showsResultTo` directly). Where `showsResultTo`
 * says no, the result is withheld (null, as before completion) and so is each answer's score. The
 * rule's own input, the form's `showResultToRespondent`, is left out of the answer.
 */
export function asSeenBy<Row extends ResultFields & { answers?: SeenAnswer[] }>(actor: Pick<Actor, "role">, row: Row): SeenBy<Row> {
  const { showResultToRespondent: _, ...form } = row.form;
  if (showsResultTo(actor, row)) return { ...row, form } as SeenBy<Row>;
  return {
    ...row,
    form,
    totalScore: null,
    maxScore: null,
    percentage: null,
    scoreLabel: null,
    scoreColor: null,
    ...(row.answers ? { answers: row.answers.map((answer) => ({ ...answer, score: null })) } : {}),
  } as SeenBy<Row>;
}

/**
 * The staff's views of results (reports and their exports and PDFs, form summaries, group
 * results) show every result in scope whatever the form lets its respondent see, so a
 * respondent's own login never reaches them: 403.
 */
export function assertStaffResultsView(actor: Pick<Actor, "role">): void {
  if (!isStaff(actor)) throw forbidden();
}
