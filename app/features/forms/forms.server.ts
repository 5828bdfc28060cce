import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin, organizationScope } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import { badRequest, fieldProblem, forbidden, notFound, type FieldProblem } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { foldForSearch } from "~/lib/search.ts";
import { isDeletion } from "~/lib/changes.ts";
import { changedSince, changesPage, OLDEST_CHANGE_FIRST, recordTombstone } from "~/lib/tombstones.server.ts";
import { claimVersion, type IfMatch } from "~/lib/entity-tag.server.ts";
import { type CreateFormInput, type ListFormsQuery, type UpdateFormInput, unreachableBandIssues } from "./form-schemas.ts";
import { scaleOf, storedOptions } from "./scale.ts";
import { emitWebhookEvent, webhookSubscribers } from "../webhooks/webhooks.server.ts";

type Transaction = Prisma.TransactionClient;

/**
 * The forms a caller can see: administrators every form of their organization (a SUPER_ADMIN of
 * every organization), teachers their own plus the organization's templates.
 */
export function visibleFormsWhere(actor: Actor): Prisma.FormWhereInput {
  const base: Prisma.FormWhereInput = { deletedAt: null, ...organizationScope(actor) };
  if (isAdmin(actor)) return base;
  return { ...base, OR: [{ createdById: actor.userId }, { isTemplate: true }] };
}

const listSelect = {
  id: true,
  title: true,
  description: true,
  category: true,
  type: true,
  targetAudience: true,
  isPublished: true,
  isTemplate: true,
  showResultToRespondent: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
} satisfies Prisma.FormSelect;

/**
 * Question and submission counts of the listed forms only, in one statement. Prisma's relation
 * `_count` would join a GROUP BY over every submission of every organization (≈250 ms at a million
 * results); the submissions are summed from their counts per assigner (kept by triggers,
 * docs/decisions/0036-submission-counts.md), the questions counted per listed form. Two `groupBy`
 * calls did the same in two statements, each compiled by Prisma on every request.
 */
async function countsOf(formIds: string[]) {
  const rows =
    formIds.length === 0
      ? []
      : await db.$queryRaw<{ id: string; questions: number | bigint; submissions: number | bigint }[]>`
          SELECT f."id",
                 (SELECT COUNT(*) FROM "Question" AS q WHERE q."formId" = f."id") AS "questions",
                 (SELECT COALESCE(SUM(c."submissions"), 0) FROM "SubmissionCount" AS c WHERE c."formId" = f."id") AS "submissions"
            FROM "Form" AS f
           WHERE f."id" IN (${Prisma.join(formIds)})`;
  const counts = new Map(rows.map((row) => [row.id, { questions: Number(row.questions), submissions: Number(row.submissions) }]));
  return (formId: string) => counts.get(formId) ?? { questions: 0, submissions: 0 };
}

/** The forms the list's filters select among those the caller can see. */
function listFormsWhere(actor: Actor, query: ListFormsQuery): Prisma.FormWhereInput {
  const filters: Prisma.FormWhereInput[] = [visibleFormsWhere(actor)];
  if (query.search) filters.push({ searchTitle: { contains: foldForSearch(query.search) } });
  if (query.published !== undefined) filters.push({ isPublished: query.published });
  if (query.isTemplate !== undefined) filters.push({ isTemplate: query.isTemplate });
  return { AND: filters };
}

export async function listForms(actor: Actor, query: ListFormsQuery) {
  const where = listFormsWhere(actor, query);
  const [forms, total] = await Promise.all([
    db.form.findMany({
      where,
      select: listSelect,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...skipTake(query),
    }),
    db.form.count({ where }),
  ]);
  const countsFor = await countsOf(forms.map((form) => form.id));
  return { forms: forms.map((form) => ({ ...form, _count: countsFor(form.id) })), total, page: query.page, limit: query.limit };
}

/**
 * The list with `updatedSince` (ADR 52): the forms changed since then that the filters select,
 * oldest change first, and the deletions since then (a teacher's of their own forms and of
 * templates, and the forms that stopped being templates).
 */
export async function listFormChanges(actor: Actor, query: ListFormsQuery & { updatedSince: Date }) {
  const where: Prisma.FormWhereInput = { AND: [listFormsWhere(actor, query), changedSince(query.updatedSince)] };
  const { items, total } = await changesPage(actor, "form", query.updatedSince, query, {
    page: (offset, limit) => db.form.findMany({ where, select: listSelect, orderBy: OLDEST_CHANGE_FIRST, skip: offset, take: limit }),
    count: () => db.form.count({ where }),
  });
  const countsFor = await countsOf(items.flatMap((item) => (isDeletion(item) ? [] : [item.id])));
  const forms = items.map((item) => (isDeletion(item) ? item : { ...item, _count: countsFor(item.id) }));
  return { forms, total, page: query.page, limit: query.limit };
}

/** A form's bands and questions with their options, in display order: what scoring needs. */
export const formContentSelect = {
  scoreRanges: { orderBy: { position: "asc" }, select: { min: true, max: true, label: true, color: true } },
  questions: {
    orderBy: { position: "asc" },
    select: {
      id: true,
      text: true,
      type: true,
      required: true,
      scaleMin: true,
      scaleMax: true,
      scaleMinLabel: true,
      scaleMaxLabel: true,
      options: { orderBy: { position: "asc" }, select: { id: true, text: true, score: true } },
    },
  },
} satisfies Prisma.FormSelect;

type StoredQuestion = Prisma.QuestionGetPayload<{ select: (typeof formContentSelect)["questions"]["select"] }>;

/** A stored question as the API shows it: its scale's range and labels as one `scale`. */
export function presentQuestion({ scaleMin, scaleMax, scaleMinLabel, scaleMaxLabel, ...question }: StoredQuestion) {
  return { ...question, scale: scaleOf({ scaleMin, scaleMax, scaleMinLabel, scaleMaxLabel }) };
}

const detailInclude = {
  createdBy: { select: { id: true, name: true } },
  ...formContentSelect,
} satisfies Prisma.FormInclude;

function presentForm(form: Prisma.FormGetPayload<{ include: typeof detailInclude }>) {
  return {
    id: form.id,
    title: form.title,
    description: form.description,
    category: form.category,
    type: form.type,
    targetAudience: form.targetAudience,
    isPublished: form.isPublished,
    isTemplate: form.isTemplate,
    showResultToRespondent: form.showResultToRespondent,
    createdAt: form.createdAt,
    updatedAt: form.updatedAt,
    deletedAt: form.deletedAt,
    createdBy: form.createdBy,
    scoreRanges: form.scoreRanges,
    questions: form.questions.map(presentQuestion),
  };
}

export type FormDetail = ReturnType<typeof presentForm>;

export async function getForm(actor: Actor, id: string): Promise<FormDetail> {
  const form = await db.form.findFirst({ where: { AND: [{ id }, visibleFormsWhere(actor)] }, include: detailInclude });
  if (!form) throw notFound("form");
  return presentForm(form);
}

export async function createForm(actor: Actor, input: CreateFormInput): Promise<FormDetail> {
  const id = await db.$transaction(async (tx) => {
    const form = await tx.form.create({
      data: {
        organizationId: actor.organizationId,
        createdById: actor.userId,
        title: input.title,
        searchTitle: foldForSearch(input.title),
        description: input.description ?? null,
        category: input.category ?? null,
        type: input.type ?? null,
        targetAudience: input.targetAudience ?? null,
        isPublished: input.isPublished,
        isTemplate: input.isTemplate,
        showResultToRespondent: input.showResultToRespondent,
      },
    });
    await replaceScoreRanges(tx, form.id, input.scoreRanges);
    await replaceQuestions(tx, form.id, input.questions);
    return form.id;
  });
  return getForm(actor, id);
}

/** Teachers change only their own forms; administrators any form of their organization. */
async function findEditableForm(actor: Actor, id: string) {
  const form = await db.form.findFirst({
    where: { AND: [{ id }, visibleFormsWhere(actor)] },
    select: { id: true, organizationId: true, createdById: true },
  });
  if (!form) throw notFound("form");
  if (!isAdmin(actor) && form.createdById !== actor.userId) {
    throw forbidden("Only the form's author or an administrator may change it.");
  }
  return form;
}

/** `ifMatch`: the request's If-Match, checked in the write's transaction (412 when the form has changed). */
export async function updateForm(actor: Actor, id: string, input: UpdateFormInput, ifMatch: IfMatch | null = null): Promise<FormDetail> {
  const form = await findEditableForm(actor, id);
  if (Boolean(input.scoreRanges) !== Boolean(input.questions)) await assertBandsReachable(id, input);
  const subscribers = await webhookSubscribers(form.organizationId, "form.updated", id);
  await db.$transaction(async (tx) => {
    await claimVersion(tx, "form", id, ifMatch);
    const data: Prisma.FormUpdateInput = {};
    if (input.title !== undefined) {
      data.title = input.title;
      data.searchTitle = foldForSearch(input.title);
    }
    for (const field of ["description", "category", "type", "targetAudience"] as const) {
      if (input[field] !== undefined) data[field] = input[field];
    }
    if (input.isPublished !== undefined) data.isPublished = input.isPublished;
    if (input.isTemplate !== undefined) data.isTemplate = input.isTemplate;
    if (input.showResultToRespondent !== undefined) data.showResultToRespondent = input.showResultToRespondent;
    // In this transaction, so no reader sees the new content with the old version (ADR 33).
    if (input.scoreRanges || input.questions) data.contentVersion = { increment: 1 };
    const changedAt = new Date();
    data.updatedAt = changedAt;
    const before =
      input.isTemplate === false
        ? await tx.form.findUniqueOrThrow({ where: { id }, select: { organizationId: true, createdById: true, isTemplate: true } })
        : null;
    const updated = await tx.form.update({ where: { id }, data, select: { title: true, isPublished: true, isTemplate: true } });
    // A template no more: it leaves the lists of the teachers who are not its author (ADR 52).
    if (before?.isTemplate) {
      await recordTombstone(tx, {
        organizationId: before.organizationId,
        kind: "form",
        itemId: id,
        ownerId: before.createdById,
        audience: "OTHERS",
        deletedAt: changedAt,
      });
    }
    if (input.scoreRanges) await replaceScoreRanges(tx, id, input.scoreRanges);
    if (input.questions) await replaceQuestions(tx, id, input.questions);
    await emitWebhookEvent(tx, subscribers, "form.updated", { id, ...updated, updatedById: actor.userId, updatedAt: changedAt.toISOString() });
  });
  return getForm(actor, id);
}

/**
 * A PUT that changes the bands or the questions, not both: the bands must still name a total the
 * questions can give (the schema checks a body that holds both).
 */
async function assertBandsReachable(id: string, input: UpdateFormInput) {
  const stored = await db.form.findUniqueOrThrow({ where: { id }, select: formContentSelect });
  const questions = input.questions ?? stored.questions.map((question) => ({ ...presentQuestion(question), scale: undefined }));
  const issues = unreachableBandIssues(input.scoreRanges ?? stored.scoreRanges, questions);
  if (issues.length === 0) return;
  // The stored bands are not in this body: name the field that changed.
  const problems = issues.map((issue) =>
    input.scoreRanges
      ? fieldProblem(issue.path.join("."), issue.message, ...issue.params.values)
      : fieldProblem("questions", issue.message, ...issue.params.values),
  );
  throw badRequest("Some score ranges cannot be reached.", problems);
}

/**
 * Soft delete: the form leaves lists and reads, its pending links stop working (the public link
 * checks the form's deletedAt), and completed results stay in reports. Its tombstone tells the
 * lists read with updatedSince: everyone who read it when it was a template, else its author and
 * the administrators (ADR 52).
 */
export async function deleteForm(actor: Actor, id: string) {
  await findEditableForm(actor, id);
  const deletedAt = new Date();
  await db.$transaction(async (tx) => {
    const [form] = await tx.form.updateManyAndReturn({
      where: { id, deletedAt: null },
      data: { deletedAt, updatedAt: deletedAt },
      select: { organizationId: true, createdById: true, isTemplate: true },
    });
    // Deleted meanwhile by another request, which told the lists.
    if (!form) return;
    await recordTombstone(tx, {
      organizationId: form.organizationId,
      kind: "form",
      itemId: id,
      ownerId: form.createdById,
      audience: form.isTemplate ? "ALL" : "OWNER",
      deletedAt,
    });
  });
  return { id, deletedAt };
}

async function replaceScoreRanges(tx: Transaction, formId: string, ranges: CreateFormInput["scoreRanges"]) {
  await tx.scoreRange.deleteMany({ where: { formId } });
  if (ranges.length === 0) return;
  await tx.scoreRange.createMany({
    data: ranges.map((range, position) => ({ formId, position, ...range })),
  });
}

/**
 * Replaces the question list: entries with an id are kept and updated, entries without one are
 * created, and questions left out are removed. Ids that do not belong to this form (or options
 * that do not belong to their question) are a 400, checked before anything is written.
 */
async function replaceQuestions(tx: Transaction, formId: string, questions: CreateFormInput["questions"]) {
  const existing = await tx.question.findMany({
    where: { formId },
    select: { id: true, options: { select: { id: true }, orderBy: { position: "asc" } } },
  });
  const optionIdsByQuestion = new Map(existing.map((q) => [q.id, new Set(q.options.map((o) => o.id))]));
  const orderedOptionIds = new Map(existing.map((q) => [q.id, q.options.map((o) => o.id)]));

  const problems: FieldProblem[] = [];
  questions.forEach((question, qi) => {
    if (question.id === undefined) {
      question.options.forEach((option, oi) => {
        if (option.id) problems.push(fieldProblem(`questions.${qi}.options.${oi}.id`, "newQuestionOptionId"));
      });
      return;
    }
    const optionIds = optionIdsByQuestion.get(question.id);
    if (!optionIds) {
      problems.push(fieldProblem(`questions.${qi}.id`, "notAFormQuestion"));
      return;
    }
    question.options.forEach((option, oi) => {
      if (option.id && !optionIds.has(option.id)) {
        problems.push(fieldProblem(`questions.${qi}.options.${oi}.id`, "notAnOption"));
      }
    });
  });
  if (problems.length > 0) throw badRequest("Some ids do not belong to this form.", problems);

  const keptIds = new Set(questions.flatMap((q) => (q.id ? [q.id] : [])));
  await tx.question.deleteMany({ where: { formId, id: { notIn: [...keptIds] } } });

  for (const [position, question] of questions.entries()) {
    const scale = question.type === "SCALE" ? question.scale : undefined;
    const fields = {
      text: question.text,
      type: question.type,
      required: question.required,
      position,
      scaleMin: scale?.min ?? null,
      scaleMax: scale?.max ?? null,
      scaleMinLabel: scale?.minLabel ?? null,
      scaleMaxLabel: scale?.maxLabel ?? null,
    };
    // A scale numbered from its range keeps its points' ids, in order, so answers saved as a draft
    // still name them after the teacher saves the form again.
    const kept = question.id && question.options.length === 0 ? (orderedOptionIds.get(question.id) ?? []) : [];
    const options: { id?: string | undefined; text: string; score: number }[] = storedOptions(question).map((option, i) =>
      kept[i] ? { ...option, id: kept[i] } : option,
    );
    if (!question.id) {
      await tx.question.create({
        data: {
          formId,
          ...fields,
          options: { create: options.map((o, i) => ({ text: o.text, score: o.score, position: i })) },
        },
      });
      continue;
    }
    const questionId = question.id;
    await tx.question.update({ where: { id: questionId }, data: fields });
    const keptOptionIds = options.flatMap((o) => (o.id ? [o.id] : []));
    await tx.option.deleteMany({ where: { questionId, id: { notIn: keptOptionIds } } });
    for (const [i, option] of options.entries()) {
      const optionFields = { text: option.text, score: option.score, position: i };
      if (option.id) await tx.option.update({ where: { id: option.id }, data: optionFields });
      else await tx.option.create({ data: { questionId, ...optionFields } });
    }
  }
}

/**
 * A copy of a form the caller can see (their own, or a template), owned by the caller, never
 * published and never a template: questions, options and score ranges are copied, submissions
 * are not. The title defaults to "… (copy)"; pages pass their own (translated, or the template's).
 */
export async function duplicateForm(actor: Actor, id: string, options: { title?: (sourceTitle: string) => string } = {}): Promise<FormDetail> {
  const source = await getForm(actor, id);
  const title = (options.title ?? ((sourceTitle) => `${sourceTitle} (copy)`))(source.title).slice(0, 200);
  return createForm(actor, {
    title,
    description: source.description,
    category: source.category,
    type: source.type,
    targetAudience: source.targetAudience,
    isPublished: false,
    isTemplate: false,
    showResultToRespondent: source.showResultToRespondent,
    scoreRanges: source.scoreRanges.map(({ min, max, label, color }) => ({ min, max, label, color })),
    questions: source.questions.map((question) => ({
      text: question.text,
      type: question.type,
      required: question.required,
      ...(question.scale ? { scale: question.scale } : {}),
      options: question.options.map((option) => ({ text: option.text, score: option.score })),
    })),
  });
}
