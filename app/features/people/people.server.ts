import type { Actor } from "~/lib/auth/actor.server.ts";
import { organizationScope } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { conflict } from "~/lib/problem.server.ts";
import { foldForSearch } from "~/lib/search.ts";

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
