import { unique } from "./api.ts";
import { testDatabase } from "./database.ts";

/**
 * Organizations and completed results written straight to the database, for the tests of what the
 * database itself keeps (versions, tallies): each test makes its own organization, so the files
 * running alongside cannot change what it counts.
 */
export type World = { organizationId: string; userId: string; formId: string; studentId: string };

/** A new organization with an administrator, a teacher, a form and a student (and no submission). */
export async function newOrganization(label: string): Promise<World & { teacherId: string }> {
  const db = testDatabase();
  const tag = unique(label).toLowerCase();
  const organization = await db.organization.create({ data: { name: `Totals ${tag}` } });
  const user = await db.user.create({
    data: { organizationId: organization.id, email: `admin-${tag}@totals.test`, name: `Admin ${tag}`, role: "ADMIN" },
  });
  const teacher = await db.user.create({
    data: { organizationId: organization.id, email: `teacher-${tag}@totals.test`, name: `Teacher ${tag}`, role: "TEACHER" },
  });
  const form = await db.form.create({
    data: { organizationId: organization.id, createdById: user.id, title: `Form ${tag}`, searchTitle: `form ${tag}` },
  });
  const student = await db.student.create({
    data: { organizationId: organization.id, name: `Student ${tag}`, searchName: `student ${tag}` },
  });
  return { organizationId: organization.id, userId: user.id, teacherId: teacher.id, formId: form.id, studentId: student.id };
}

let tokens = 0;

/**
 * A completed result in `world`, assigned by `assignedById` (default: the administrator), answered
 * by `studentId` (default: the world's student). A test that searches passes a respondent whose
 * folded name begins `searchText`, followed by "form": the search may start from the names (ADR 39).
 */
export function resultData(world: World, options: { completedAt?: Date; searchText?: string; assignedById?: string; studentId?: string } = {}) {
  return {
    organizationId: world.organizationId,
    formId: world.formId,
    studentId: options.studentId ?? world.studentId,
    assignedById: options.assignedById ?? world.userId,
    token: `${unique("totals-token")}-${++tokens}-${"x".repeat(24)}`,
    isCompleted: true,
    completedAt: options.completedAt ?? new Date(),
    totalScore: 1,
    maxScore: 2,
    percentage: 50,
    formTitle: "Form",
    searchText: options.searchText ?? "student form",
  };
}
