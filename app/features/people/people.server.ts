import type { Actor } from "~/lib/auth/actor.server.ts";
import { organizationScope } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { conflict } from "~/lib/problem.server.ts";
import { foldForSearch } from "~/lib/search.ts";
import { historySelect, visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";

/** Filters shared by the student and candidate lists: organization, not deleted, search, status. */
export function personListWhere(actor: Actor, query: { search?: string | undefined; status?: string | undefined }) {
  return {
    deletedAt: null,
    ...organizationScope(actor),
    ...(query.search ? { searchName: { contains: foldForSearch(query.search) } } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
}

/**
 * E-mail addresses are unique among an organization's students (and, separately, candidates)
 * that are not deleted. Checked here rather than by a database constraint because deleted
 * records keep their address.
 */
export async function assertEmailFree(
  kind: "student" | "candidate",
  organizationId: string,
  email: string | null | undefined,
  exceptId?: string,
) {
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
