import { createFormBody } from "../../app/features/forms/form-schemas.ts";
import { createForm, type FormDetail } from "../../app/features/forms/forms.server.ts";
import { createStudentBody } from "../../app/features/students/student-schemas.ts";
import { createStudent } from "../../app/features/students/students.server.ts";
import { createSubmissionBody, submitAnswersBody } from "../../app/features/submissions/submission-schemas.ts";
import { assignForm } from "../../app/features/submissions/submissions.server.ts";
import { submitTestLink } from "../../app/features/submissions/test-link.server.ts";
import type { Actor, Role } from "../../app/lib/auth/actor.server.ts";
import { db } from "../../app/lib/db.server.ts";
import { parseWith } from "../../app/lib/http.server.ts";
import { foldForSearch } from "../../app/lib/search.ts";
import { actorOf } from "./actors.ts";

/**
 * What the `services` project's tests start from. A worker's database lives as long as the run
 * and its files follow one another on it, so every test makes an organization of its own and
 * reads nothing outside it: nothing another file wrote can change what it counts.
 */

let made = 0;

/** A name no other test of the run has used. */
export const unique = (label: string) => `${label} ${process.pid.toString(36)}${Date.now().toString(36)}${(++made).toString(36)}`;

export type TestOrganization = { id: string; admin: Actor; teacher: Actor; colleague: Actor };

/**
 * A new organization with an administrator and two teachers, written as `npm run setup` and the
 * users' administration leave them (a teacher has a teacher profile).
 */
export async function newOrganization(): Promise<TestOrganization> {
  const timeZone = "UTC";
  const tag = unique("org").replaceAll(" ", "-").toLowerCase();
  const organization = await db.organization.create({ data: { name: `School ${tag}`, timeZone }, select: { id: true } });
  const user = async (role: Role, label: string) => {
    const name = `${label} ${tag}`;
    const email = `${label.toLowerCase()}-${tag}@services.test`;
    const created = await db.user.create({
      data: { organizationId: organization.id, email, name, searchName: foldForSearch(`${name} ${email}`), role },
      select: { id: true, role: true, organizationId: true, name: true, email: true },
    });
    if (role === "TEACHER") await db.teacher.create({ data: { userId: created.id, organizationId: organization.id } });
    return actorOf(created, timeZone);
  };
  return { id: organization.id, admin: await user("ADMIN", "Admin"), teacher: await user("TEACHER", "Teacher"), colleague: await user("TEACHER", "Colleague") };
}

/** A student created by `actor` through the service, from a body checked as the API checks it. */
export async function newStudent(actor: Actor, name = unique("Student")) {
  return createStudent(actor, parseWith(createStudentBody, { name }));
}

/** A form `actor` writes, from a body checked as the API checks it. */
export async function newForm(actor: Actor, body: Record<string, unknown>) {
  return createForm(actor, parseWith(createFormBody, body));
}

/**
 * A respondent's answers by question text: the texts of the options chosen, or what they wrote.
 * Questions left out stay unanswered.
 */
export function answersFor(form: FormDetail, given: Record<string, string[] | string>) {
  return Object.entries(given).map(([text, answer]) => {
    const question = form.questions.find((q) => q.text === text);
    if (!question) throw new Error(`The form has no question "${text}".`);
    if (typeof answer === "string") return { questionId: question.id, text: answer };
    return { questionId: question.id, optionIds: answer.map((option) => question.options.find((o) => o.text === option)!.id) };
  });
}

/**
 * A link to `form` that `actor` assigns to the respondent, who opens it and submits `given`, as
 * the test page does (it holds the link's token, nothing else); the submission's id.
 */
export async function completedResult(actor: Actor, form: FormDetail, respondent: { studentId: string }, given: Record<string, string[] | string>) {
  const link = await assignForm(actor, parseWith(createSubmissionBody, { formId: form.id, ...respondent }));
  await submitTestLink(link.token!, parseWith(submitAnswersBody, { answers: answersFor(form, given) }));
  return link.id;
}
