import { randomBytes } from "node:crypto";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { isStaff, organizationScope } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { type Locale, resolveLocale } from "~/lib/i18n.ts";
import { ApiError, conflict, forbidden, notFound } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { isDeletion } from "~/lib/changes.ts";
import { changedSince, changesPage, OLDEST_CHANGE_FIRST } from "~/lib/tombstones.server.ts";
import { visibleFormsWhere } from "../forms/forms.server.ts";
import { presentInstrumentMark } from "../instruments/instrument-schemas.ts";
import type { CreateSubmissionInput, ListSubmissionsQuery, UpdateSubmissionInput } from "./submission-schemas.ts";
import { asSeenBy, assertMayChangeSubmission, inGroupWhere, visibleSubmissionsWhere } from "./submission-scope.server.ts";
import { type StatusFields, type SubmissionStatus, submissionStatus, WAITING_STATUSES } from "./submission-status.ts";
import type { WebhookData } from "../webhooks/webhook-payloads.ts";
import { emitWebhookEvent, webhookEventWrites, webhookSubscribers } from "../webhooks/webhooks.server.ts";
import { queueNewLinkMail } from "./link-mail.server.ts";
import { linkExpiry } from "./link-expiry.server.ts";
import { recordAudit } from "../audit/audit.server.ts";
import { newId } from "~/lib/ids.server.ts";

/** 256 random bits, URL-safe: the whole secret of a public test link. */
export const newToken = () => randomBytes(32).toString("base64url");

/**
 * The language of what a link's respondent reads, its page and the e-mail that brings it (ADR 78):
 * the one the form's library instrument was installed in (`Form.instrument`), since its items are
 * written in it; for a form of the organization's own, `locale` (the page's, the caller's or the
 * assigner's).
 */
export const respondentLocale = (locale: string, instrument: Prisma.JsonValue): Locale => presentInstrumentMark(instrument)?.language ?? resolveLocale(locale);

/** The public link of a token, in its respondent's language (`respondentLocale`). */
export const testLinkUrl = (token: string, locale: string, instrument: Prisma.JsonValue) =>
  `${env().APP_URL}/${respondentLocale(locale, instrument)}/test/${token}`;

/** A submission as the lists answer it (`submissionItem`), before `asSeenBy`; subject access reads the same columns. */
export const itemSelect = {
  id: true,
  // The form's showResultToRespondent is what asSeenBy reads; it leaves it out of the answer.
  form: { select: { id: true, title: true, showResultToRespondent: true } },
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
  openedAt: true,
  startedAt: true,
  sentAt: true,
  sendCount: true,
  remindedAt: true,
  mailFailedAt: true,
  mailError: true,
  revokedAt: true,
  updatedAt: true,
  deletedAt: true,
} satisfies Prisma.SubmissionSelect;

/** An item and what its link is built from: the token and the language its form was installed in. */
const itemWithLinkSelect = {
  ...itemSelect,
  token: true,
  form: { select: { ...itemSelect.form.select, instrument: true } },
} satisfies Prisma.SubmissionSelect;

/** A submission as the API answers it: its row and its status now. */
const withStatus = <Row extends StatusFields>(row: Row, now = new Date()) => ({ ...row, status: submissionStatus(row, now) });

/** The links still waiting for their respondent's answers now (PENDING, OPENED or IN_PROGRESS). */
export const waitingWhere = (now: Date): Prisma.SubmissionWhereInput => ({ OR: WAITING_STATUSES.map((status) => statusWhere(status, now)) });

/** The submissions with `status` now, as a condition (the mirror of submissionStatus()). */
export function statusWhere(status: SubmissionStatus, now: Date): Prisma.SubmissionWhereInput {
  const live = { isCompleted: false, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  switch (status) {
    case "COMPLETED":
      return { isCompleted: true };
    case "REVOKED":
      return { isCompleted: false, revokedAt: { not: null } };
    case "EXPIRED":
      return { isCompleted: false, revokedAt: null, expiresAt: { lte: now } };
    case "IN_PROGRESS":
      return { ...live, startedAt: { not: null } };
    case "OPENED":
      return { ...live, startedAt: null, openedAt: { not: null } };
    case "PENDING":
      return { ...live, startedAt: null, openedAt: null };
  }
}

/**
 * Assigns a published form the caller can see to a student or candidate of the same
 * organization, creating the private link.
 */
export async function assignForm(
  actor: Actor,
  input: CreateSubmissionInput,
  delivery: { send?: boolean | undefined; remindAfterDays?: number | undefined } = {},
) {
  const expiresAt = linkExpiry(input.expiresAt, actor.timeZone);
  const form = await assignableForm(actor, input.formId);

  const respondentWhere = { deletedAt: null, organizationId: form.organizationId, ...organizationScope(actor) };
  const respondent = input.studentId
    ? await db.student.findFirst({ where: { id: input.studentId, ...respondentWhere }, select: { id: true } })
    : await db.candidate.findFirst({ where: { id: input.candidateId!, ...respondentWhere }, select: { id: true } });
  if (!respondent) throw notFound(input.studentId ? "student" : "candidate");

  // The id and time are chosen here, so that the event can name them in the same batch. The
  // event never carries the link's token: it says a link exists, not how to open it.
  const created = { id: newId(), createdAt: new Date() };
  const row = {
    ...created,
    organizationId: form.organizationId,
    formId: form.id,
    studentId: input.studentId ?? null,
    candidateId: input.candidateId ?? null,
    assignedById: actor.userId,
    token: newToken(),
    expiresAt,
    mailQueuedAt: delivery.send ? created.createdAt : null,
  };
  const eventData = submissionCreatedData(row);
  const subscribers = await webhookSubscribers(form.organizationId, "submission.created", form.id);
  if (delivery.send || delivery.remindAfterDays) {
    // With its e-mails: one interactive transaction, so a refusal by the quota keeps no link (ADR 45).
    await db.$transaction(async (tx) => {
      await tx.submission.create({ data: row, select: { id: true } });
      await emitWebhookEvent(tx, subscribers, "submission.created", eventData);
      await queueNewLinkMail(tx, { organizationId: form.organizationId, userId: actor.userId }, created.id, delivery, created.createdAt);
    });
  } else {
    await db.$transaction([db.submission.create({ data: row, select: { id: true } }), ...webhookEventWrites(subscribers, "submission.created", eventData)]);
  }
  return getSubmission(actor, created.id);
}

/** What `submission.created` tells of a new link (never its token: it says a link exists, not how to open it). */
export function submissionCreatedData(link: {
  id: string;
  formId: string;
  studentId: string | null;
  candidateId: string | null;
  assignedById: string;
  expiresAt: Date | null;
  createdAt: Date;
}): WebhookData<"submission.created"> {
  return {
    id: link.id,
    formId: link.formId,
    respondent: link.studentId ? { kind: "student", id: link.studentId } : { kind: "candidate", id: link.candidateId! },
    assignedById: link.assignedById,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    createdAt: link.createdAt.toISOString(),
  };
}

/** A published form the caller can see, to assign; 404 when hidden, 409 when not published. */
export async function assignableForm(actor: Actor, formId: string) {
  if (!isStaff(actor)) throw forbidden();
  const form = await db.form.findFirst({
    where: { AND: [{ id: formId }, visibleFormsWhere(actor)] },
    select: { id: true, organizationId: true, isPublished: true },
  });
  if (!form) throw notFound("form");
  if (!form.isPublished) throw conflict("Publish the form before assigning it.", "FORM_NOT_PUBLISHED");
  return form;
}

/** Submissions as the API lists them, by id, with their status now (and, for staff, their link). */
export async function submissionItems(actor: Actor, ids: string[]) {
  const rows = await db.submission.findMany({
    where: { id: { in: ids } },
    select: itemWithLinkSelect,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const now = new Date();
  return rows.map(({ token, form: { instrument, ...form }, ...row }) => ({
    ...asSeenBy(actor, withStatus({ ...row, form }, now)),
    token,
    url: testLinkUrl(token, actor.locale, instrument),
  }));
}

/** The submissions the list's filters select among those the caller can see, with the status they have at `now`. */
function listSubmissionsWhere(actor: Actor, query: ListSubmissionsQuery, now: Date): Prisma.SubmissionWhereInput {
  const filters: Prisma.SubmissionWhereInput[] = [visibleSubmissionsWhere(actor)];
  if (query.formId) filters.push({ formId: query.formId });
  if (query.studentId) filters.push({ studentId: query.studentId });
  if (query.candidateId) filters.push({ candidateId: query.candidateId });
  if (query.isCompleted !== undefined) filters.push({ isCompleted: query.isCompleted });
  if (query.status) filters.push(statusWhere(query.status, now));
  if (query.groupId) filters.push(inGroupWhere(query.groupId));
  return { AND: filters };
}

export async function listSubmissions(actor: Actor, query: ListSubmissionsQuery) {
  const now = new Date();
  const where = listSubmissionsWhere(actor, query, now);
  const [submissions, total] = await Promise.all([
    db.submission.findMany({ where, select: itemSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...skipTake(query) }),
    db.submission.count({ where }),
  ]);
  return { submissions: submissions.map((row) => asSeenBy(actor, withStatus(row, now))), total, page: query.page, limit: query.limit };
}

/**
 * The list with `updatedSince` (ADR 52): the submissions changed since then that the filters
 * select, oldest change first, and the deletions (none today: a link is withdrawn, never deleted).
 */
export async function listSubmissionChanges(actor: Actor, query: ListSubmissionsQuery & { updatedSince: Date }) {
  const now = new Date();
  const where: Prisma.SubmissionWhereInput = { AND: [listSubmissionsWhere(actor, query, now), changedSince(query.updatedSince)] };
  const { items, total } = await changesPage(actor, "submission", query.updatedSince, query, {
    page: (offset, limit) => db.submission.findMany({ where, select: itemSelect, orderBy: OLDEST_CHANGE_FIRST, skip: offset, take: limit }),
    count: () => db.submission.count({ where }),
  });
  const submissions = items.map((item) => (isDeletion(item) ? item : asSeenBy(actor, withStatus(item, now))));
  return { submissions, total, page: query.page, limit: query.limit };
}

/**
 * A submission with its answers; while pending, also its link (for staff, to copy it again; built
 * for `options.locale`, default the caller's). Its result and answers' scores only where the
 * caller may read them (asSeenBy).
 */
export async function getSubmission(actor: Actor, id: string, options: { locale?: Locale } = {}) {
  const submission = await db.submission.findFirst({
    where: { AND: [{ id }, visibleSubmissionsWhere(actor)] },
    select: {
      ...itemWithLinkSelect,
      answers: {
        orderBy: { position: "asc" },
        select: { questionId: true, questionText: true, questionType: true, optionIds: true, optionTexts: true, text: true, score: true },
      },
    },
  });
  if (!submission) throw notFound("submission");
  const {
    token,
    answers,
    form: { instrument, ...form },
    ...row
  } = submission;
  const item = withStatus({ ...row, form });
  const pendingLink = !item.isCompleted && isStaff(actor) ? { token, url: testLinkUrl(token, options.locale ?? actor.locale, instrument) } : {};
  const seen = asSeenBy(actor, {
    ...item,
    answers: answers.map(({ questionType, optionIds, optionTexts, ...answer }) => ({
      ...answer,
      type: questionType,
      optionIds: optionIds as string[],
      optionTexts: optionTexts as string[],
    })),
  });
  return { ...seen, ...pendingLink };
}

/**
 * The submissions a caller may change (revoke, extend): changeableSubmissionsWhere. Those the caller
 * cannot see are 404, as they are to read; those they only read (a group's VIEWER) are 403.
 */
async function findChangeableSubmission(actor: Actor, id: string) {
  if (!isStaff(actor)) throw forbidden();
  const submission = await db.submission.findFirst({
    where: { AND: [{ id }, visibleSubmissionsWhere(actor)] },
    select: { id: true, organizationId: true, isCompleted: true, revokedAt: true },
  });
  if (!submission) throw notFound("submission");
  await assertMayChangeSubmission(actor, id);
  if (submission.isCompleted) throw conflict("This test has already been completed.", "ALREADY_COMPLETED");
  return submission;
}

/** Stops a link for good: it answers 410 LINK_REVOKED from now on. Revoking twice changes nothing. */
export async function revokeSubmission(actor: Actor, id: string) {
  const submission = await findChangeableSubmission(actor, id);
  if (!submission.revokedAt) {
    await db.$transaction(async (tx) => {
      // Only a link still open is revoked: a submission completed meanwhile keeps its result.
      const { count } = await tx.submission.updateMany({ where: { id, isCompleted: false, revokedAt: null }, data: { revokedAt: new Date() } });
      if (count === 0) throw conflict("This test has already been completed.", "ALREADY_COMPLETED");
      await recordAudit(tx, { by: actor, action: "link.revoked", targetId: id, organizationId: submission.organizationId });
    });
  }
  return getSubmission(actor, id);
}

/** A pending (or expired) link's new expiry, later or earlier, or none. A revoked link stays revoked. */
export async function updateSubmission(actor: Actor, id: string, input: UpdateSubmissionInput) {
  const submission = await findChangeableSubmission(actor, id);
  if (submission.revokedAt) throw new ApiError(410, "LINK_REVOKED", "This test link was revoked.");
  const expiresAt = linkExpiry(input.expiresAt, actor.timeZone);
  await db.$transaction(async (tx) => {
    const { count } = await tx.submission.updateMany({
      where: { id, isCompleted: false, revokedAt: null },
      data: { expiresAt },
    });
    if (count === 0) throw conflict("This test has already been completed.", "ALREADY_COMPLETED");
    // A new expiry, later or earlier or none, is the link's extension as the log names it.
    await recordAudit(tx, {
      by: actor,
      action: "link.extended",
      targetId: id,
      organizationId: submission.organizationId,
      details: { expiresAt: expiresAt?.toISOString() ?? null },
    });
  });
  return getSubmission(actor, id);
}

/** How many of a form's links still wait for answers (pending or opened): what unpublishing closes. */
export function openLinkCount(formId: string, now = new Date()) {
  return db.submission.count({ where: { formId, deletedAt: null, ...waitingWhere(now) } });
}
