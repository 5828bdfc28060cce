import { randomBytes } from "node:crypto";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { isStaff, organizationScope } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { conflict, forbidden, notFound } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { visibleFormsWhere } from "../forms/forms.server.ts";
import type { CreateSubmissionInput, ListSubmissionsQuery } from "./submission-schemas.ts";
import { visibleSubmissionsWhere } from "./submission-scope.server.ts";

/** 256 random bits, URL-safe: the whole secret of a public test link. */
const newToken = () => randomBytes(32).toString("base64url");

export const testLinkUrl = (token: string, locale: string) => `${env().APP_URL}/${resolveLocale(locale)}/test/${token}`;

const itemSelect = {
  id: true,
  form: { select: { id: true, title: true } },
  student: { select: { id: true, name: true } },
  candidate: { select: { id: true, name: true } },
  assignedBy: { select: { id: true, name: true } },
  isCompleted: true,
  completedAt: true,
  totalScore: true,
  maxScore: true,
  percentage: true,
  scoreLabel: true,
  scoreColor: true,
  expiresAt: true,
  createdAt: true,
} satisfies Prisma.SubmissionSelect;

/**
 * Assigns a published form the caller can see to a student or candidate of the same
 * organization, creating the private link.
 */
export async function assignForm(actor: Actor, input: CreateSubmissionInput) {
  if (!isStaff(actor)) throw forbidden();
  const form = await db.form.findFirst({
    where: { AND: [{ id: input.formId }, visibleFormsWhere(actor)] },
    select: { id: true, organizationId: true, isPublished: true },
  });
  if (!form) throw notFound("form");
  if (!form.isPublished) throw conflict("Publish the form before assigning it.", "FORM_NOT_PUBLISHED");

  const respondentWhere = { deletedAt: null, organizationId: form.organizationId, ...organizationScope(actor) };
  const respondent = input.studentId
    ? await db.student.findFirst({ where: { id: input.studentId, ...respondentWhere }, select: { id: true } })
    : await db.candidate.findFirst({ where: { id: input.candidateId!, ...respondentWhere }, select: { id: true } });
  if (!respondent) throw notFound(input.studentId ? "student" : "candidate");

  const created = await db.submission.create({
    data: {
      organizationId: form.organizationId,
      formId: form.id,
      studentId: input.studentId ?? null,
      candidateId: input.candidateId ?? null,
      assignedById: actor.userId,
      token: newToken(),
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    },
    select: { id: true },
  });
  return getSubmission(actor, created.id);
}

export async function listSubmissions(actor: Actor, query: ListSubmissionsQuery) {
  const filters: Prisma.SubmissionWhereInput[] = [visibleSubmissionsWhere(actor)];
  if (query.formId) filters.push({ formId: query.formId });
  if (query.studentId) filters.push({ studentId: query.studentId });
  if (query.candidateId) filters.push({ candidateId: query.candidateId });
  if (query.isCompleted !== undefined) filters.push({ isCompleted: query.isCompleted });
  const where = { AND: filters };
  const [submissions, total] = await Promise.all([
    db.submission.findMany({ where, select: itemSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...skipTake(query) }),
    db.submission.count({ where }),
  ]);
  return { submissions, total, page: query.page, limit: query.limit };
}

/** A submission with its answers; while pending, also its link (for staff, to copy it again). */
export async function getSubmission(actor: Actor, id: string) {
  const submission = await db.submission.findFirst({
    where: { AND: [{ id }, visibleSubmissionsWhere(actor)] },
    select: {
      ...itemSelect,
      token: true,
      answers: {
        orderBy: { position: "asc" },
        select: { questionId: true, questionText: true, questionType: true, optionIds: true, optionTexts: true, text: true, score: true },
      },
    },
  });
  if (!submission) throw notFound("submission");
  const { token, answers, ...item } = submission;
  const pendingLink = !item.isCompleted && isStaff(actor) ? { token, url: testLinkUrl(token, actor.locale) } : {};
  return {
    ...item,
    answers: answers.map(({ questionType, optionIds, optionTexts, ...answer }) => ({
      ...answer,
      type: questionType,
      optionIds: optionIds as string[],
      optionTexts: optionTexts as string[],
    })),
    ...pendingLink,
  };
}
