import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin, organizationScope } from "~/lib/auth/actor.server.ts";
import { Prisma } from "~/lib/db.server.ts";

/**
 * The submissions a caller may see (spec §1 rules 3 and 4): administrators every submission of
 * their organization, teachers the ones they assigned, students the ones they answer.
 */
export function visibleSubmissionsWhere(actor: Actor): Prisma.SubmissionWhereInput {
  const base: Prisma.SubmissionWhereInput = { deletedAt: null, ...organizationScope(actor) };
  if (isAdmin(actor)) return base;
  if (actor.role === "STUDENT") return { ...base, student: { userId: actor.userId } };
  return { ...base, assignedById: actor.userId };
}

/** The submissions of a group's current members (students and candidates). */
export function inGroupWhere(groupId: string): Prisma.SubmissionWhereInput {
  const inGroup = { groups: { some: { groupId } } };
  return { OR: [{ student: inGroup }, { candidate: inGroup }] };
}

/**
 * `visibleSubmissionsWhere` as an SQL condition on the "Submission" row `alias`, for the raw
 * queries Prisma cannot express (the reports search). The same rules, kept next to each other so
 * they change together; tests/database/search-index.test.ts checks that both select the same
 * rows for every role. Identifiers are quoted, which both SQLite and PostgreSQL understand.
 */
export function visibleSubmissionsSql(actor: Actor, alias = "Submission"): Prisma.Sql {
  const table = Prisma.raw(`"${alias.replaceAll('"', '""')}"`);
  const conditions = [Prisma.sql`${table}."deletedAt" IS NULL`];
  const { organizationId } = organizationScope(actor);
  if (organizationId !== undefined) conditions.push(Prisma.sql`${table}."organizationId" = ${organizationId}`);
  if (actor.role === "STUDENT") {
    conditions.push(Prisma.sql`${table}."studentId" IN (SELECT "id" FROM "Student" WHERE "userId" = ${actor.userId})`);
  } else if (!isAdmin(actor)) {
    conditions.push(Prisma.sql`${table}."assignedById" = ${actor.userId}`);
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
