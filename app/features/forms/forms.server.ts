import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin, organizationScope } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import { ApiError, badRequest, fieldProblem, forbidden, notFound, type FieldProblem } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { foldForSearch } from "~/lib/search.ts";
import { isDeletion } from "~/lib/changes.ts";
import { changedSince, changesPage, OLDEST_CHANGE_FIRST, recordTombstone } from "~/lib/tombstones.server.ts";
import { claimVersion, type IfMatch } from "~/lib/entity-tag.server.ts";
import { type CreateFormInput, type ListFormsQuery, type UpdateFormInput, unreachableBandIssues } from "./form-schemas.ts";
import { scaleOf, storedOptions } from "./scale.ts";
import { questionKey, scoringProblems } from "../scoring/scales.ts";
import { isKeyed, type ScoringRule } from "../scoring/answer-key.ts";
import { scoringSettings, subscaleDefinitions } from "../scoring/scale-schemas.ts";
import { emitWebhookEvent, webhookSubscribers } from "../webhooks/webhooks.server.ts";
import { presentInstrumentMark, type StoredInstrument, storedInstrument } from "../instruments/instrument-schemas.ts";
import { visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";
import { formConstants } from "../scoring/change.ts";
import { recordAudit, recordUpdate } from "../audit/audit.server.ts";
import { foreignImageProblems, withCopiedImages } from "./form-image-refs.server.ts";
import { raiseVersionIfRescored, scoringFingerprint } from "./form-versions.server.ts";

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
  instrument: true,
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

/** A listed form: its instrument's stored mark as the API answers it. */
const presentListedForm = <F extends { instrument: Prisma.JsonValue }>(form: F) => ({ ...form, instrument: presentInstrumentMark(form.instrument) });

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
  return { forms: forms.map((form) => ({ ...presentListedForm(form), _count: countsFor(form.id) })), total, page: query.page, limit: query.limit };
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
  const forms = items.map((item) => (isDeletion(item) ? item : { ...presentListedForm(item), _count: countsFor(item.id) }));
  return { forms, total, page: query.page, limit: query.limit };
}

/** A form's bands and questions with their options, in display order: what scoring needs. */
export const formContentSelect = {
  scoreRanges: { orderBy: { position: "asc" }, select: { min: true, max: true, label: true, color: true, critical: true } },
  questions: {
    orderBy: { position: "asc" },
    select: {
      id: true,
      text: true,
      type: true,
      required: true,
      key: true,
      reverseScored: true,
      scaleMin: true,
      scaleMax: true,
      scaleMinLabel: true,
      scaleMaxLabel: true,
      options: {
        orderBy: { position: "asc" },
        select: { id: true, text: true, score: true, critical: true, imageId: true, imageAlt: true, correct: true, feedback: true },
      },
      imageId: true,
      imageAlt: true,
      points: true,
      scoringRule: true,
      feedback: true,
    },
  },
} satisfies Prisma.FormSelect;

/** The form's own columns scoring reads beside its content (docs/api-contract.md §15, §16). */
export const formScoringSelect = { scoring: true, subscales: true, criticalMessage: true } satisfies Prisma.FormSelect;

type StoredQuestion = Prisma.QuestionGetPayload<{ select: (typeof formContentSelect)["questions"]["select"] }>;

/**
 * A stored question as the API shows it: its scale's range and labels as one `scale`, and its key,
 * `q<position>` when it has none of its own (`index`: its place in the form, from 0).
 */
export function presentQuestion({ scaleMin, scaleMax, scaleMinLabel, scaleMaxLabel, ...question }: StoredQuestion, index: number) {
  return { ...question, key: questionKey(question, index), scale: scaleOf({ scaleMin, scaleMax, scaleMinLabel, scaleMaxLabel }) };
}

/** A form's scoring columns as the API and the engine read them: JSON parsed, defaults filled in. */
export function presentScoring(form: Prisma.FormGetPayload<{ select: typeof formScoringSelect }>) {
  return {
    scoring: scoringSettings.parse(form.scoring ?? {}),
    subscales: subscaleDefinitions.parse(form.subscales),
    criticalMessage: form.criticalMessage,
  };
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
    ...presentScoring(form),
    instrument: presentInstrumentMark(form.instrument),
    ...formConstants(form),
    shuffleQuestions: form.shuffleQuestions,
    shuffleOptions: form.shuffleOptions,
    review: form.review,
    version: form.version,
  };
}

export type FormDetail = ReturnType<typeof presentForm>;

export async function getForm(actor: Actor, id: string): Promise<FormDetail> {
  const form = await db.form.findFirst({ where: { AND: [{ id }, visibleFormsWhere(actor)] }, include: detailInclude });
  if (!form) throw notFound("form");
  return presentForm(form);
}

/** The forms a caller reads, and the forms of results they see (`getFormOfResults`). */
export const readableFormsWhere = (actor: Actor): Prisma.FormWhereInput => ({
  OR: [visibleFormsWhere(actor), { deletedAt: null, submissions: { some: visibleSubmissionsWhere(actor) } }],
});

/**
 * A form the caller reads, or the form of results they see: a colleague's form that a shared
 * group's links were given (ADR 86) has a summary for the group's staff, as its results have
 * reports. Anything else is 404.
 */
export async function getFormOfResults(actor: Actor, id: string): Promise<FormDetail> {
  const form = await db.form.findFirst({ where: { id, ...readableFormsWhere(actor) }, include: detailInclude });
  if (!form) throw notFound("form");
  return presentForm(form);
}

/**
 * `options.instrument`: the library instrument the form is installed from (its items and scoring
 * then stay locked); only the library's install and a copy of an installed form pass it.
 * `options.source`: where the form comes from when not from a body the caller wrote, for its
 * `form.created` event (a library install, a FHIR import, a copy).
 */
export async function createForm(
  actor: Actor,
  input: CreateFormInput,
  options: { instrument?: StoredInstrument; source?: { from: "library" | "fhir" | "copy"; of?: string }; imagesOf?: string } = {},
): Promise<FormDetail> {
  assertScoringValid(
    input.questions.map((question) => ({ ...question, options: storedOptions(question) })),
    input.subscales,
  );
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
        ...scoringData(input),
        ...changeData(input),
        shuffleQuestions: input.shuffleQuestions,
        shuffleOptions: input.shuffleOptions,
        review: input.review,
        versions: { create: { version: 1, createdById: actor.userId } },
        ...(options.instrument ? { instrument: options.instrument } : {}),
      },
    });
    await replaceScoreRanges(tx, form.id, input.scoreRanges);
    // A copy names the source's images: they are copied to the new form first (ADR 92).
    const questions = options.imagesOf ? await withCopiedImages(tx, actor, options.imagesOf, form.id, input.questions) : input.questions;
    await replaceQuestions(tx, form.id, questions);
    await recordAudit(tx, { by: actor, action: "form.created", targetId: form.id, details: { questions: input.questions.length, ...options.source } });
    return form.id;
  });
  return getForm(actor, id);
}

/** Teachers change only their own forms; administrators any form of their organization. */
export async function findEditableForm(actor: Actor, id: string) {
  const form = await db.form.findFirst({
    where: { AND: [{ id }, visibleFormsWhere(actor)] },
    select: { id: true, organizationId: true, createdById: true, instrument: true },
  });
  if (!form) throw notFound("form");
  if (!isAdmin(actor) && form.createdById !== actor.userId) {
    throw forbidden("Only the form's author or an administrator may change it.");
  }
  return form;
}

/** `ifMatch`: the request's If-Match, checked in the write's transaction (412 when the form has changed). */
/**
 * `options.newVersion`: what to do when the change would raise the form's version (ADR 90). The
 * API raises it ("raise"); the editor asks first ("ask": a `NewVersionNeeded` error, nothing saved).
 */
export async function updateForm(
  actor: Actor,
  id: string,
  input: UpdateFormInput,
  ifMatch: IfMatch | null = null,
  options: { newVersion?: "raise" | "ask" } = {},
): Promise<FormDetail> {
  const form = await findEditableForm(actor, id);
  assertNotLocked(form, input);
  // The schema checked the bands of a body that holds the bands, the questions and the scoring.
  const bandsChecked = input.scoreRanges && input.questions && input.scoring !== undefined;
  if (!bandsChecked && (input.scoreRanges || input.questions || input.scoring !== undefined)) await assertBandsReachable(id, input);
  if (input.questions || input.subscales) await assertScoringStillValid(id, input);
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
    if (input.shuffleQuestions !== undefined) data.shuffleQuestions = input.shuffleQuestions;
    if (input.shuffleOptions !== undefined) data.shuffleOptions = input.shuffleOptions;
    if (input.review !== undefined) data.review = input.review;
    Object.assign(data, scoringData(input), changeData(input));
    // In this transaction, so no reader sees the new content with the old version (ADR 33).
    const scoringChanged = input.scoring !== undefined || input.subscales !== undefined || input.criticalMessage !== undefined;
    if (input.scoreRanges || input.questions || scoringChanged) data.contentVersion = { increment: 1 };
    const mayChangeScores = input.scoreRanges || input.questions || input.scoring !== undefined || input.subscales !== undefined;
    const scoredBefore = mayChangeScores ? await scoringFingerprint(tx, id) : null;
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
    if (scoredBefore !== null) await raiseVersionIfRescored(tx, actor, id, scoredBefore, options.newVersion ?? "raise");
    await emitWebhookEvent(tx, subscribers, "form.updated", { id, ...updated, updatedById: actor.userId, updatedAt: changedAt.toISOString() });
    await recordUpdate(tx, actor, "form.updated", { id, organizationId: form.organizationId }, input);
  });
  return getForm(actor, id);
}

/**
 * What an installed instrument keeps as it was installed: its items and its scoring (ADR 72), the
 * constants its results are compared with over time, which are the library's (ADR 80), and the
 * order its items are given in, which is the one it was validated in (ADR 91).
 */
const LOCKED_FIELDS = [
  "questions",
  "scoreRanges",
  "scoring",
  "subscales",
  "reliableChange",
  "remissionBelow",
  "lowerIsBetter",
  "shuffleQuestions",
  "shuffleOptions",
] as const;

/**
 * An installed instrument's items and scoring cannot be changed: a body that sends any of them is
 * a 409 naming each, whatever its values; its title, description, publication and critical
 * message (and the form's other details) can be.
 */
function assertNotLocked(form: { instrument: Prisma.JsonValue }, input: UpdateFormInput) {
  if (form.instrument === null) return;
  const sent = LOCKED_FIELDS.filter((field) => input[field] !== undefined);
  if (sent.length === 0) return;
  throw new ApiError(
    409,
    "INSTRUMENT_LOCKED",
    `This form is a library instrument: its items and scoring cannot be changed (${sent.join(", ")}).`,
    sent.map((field) => fieldProblem(field, "instrumentLocked")),
  );
}

/**
 * A PUT that changes some of the bands, the questions and the scoring: the bands must still name a
 * total the questions can give as the scoring makes it (the schema checks a body that holds all three).
 */
async function assertBandsReachable(id: string, input: UpdateFormInput) {
  const stored = await db.form.findUniqueOrThrow({ where: { id }, select: { ...formContentSelect, scoring: true } });
  const questions = input.questions ?? stored.questions.map((question, index) => ({ ...presentQuestion(question, index), scale: undefined }));
  const scoring = input.scoring !== undefined ? input.scoring : scoringSettings.parse(stored.scoring ?? {});
  const issues = unreachableBandIssues(input.scoreRanges ?? stored.scoreRanges, questions, scoring);
  if (issues.length === 0) return;
  // The stored bands are not in this body: name the field that changed.
  const changed = input.questions ? "questions" : "scoring";
  const problems = issues.map((issue) =>
    input.scoreRanges
      ? fieldProblem(issue.path.join("."), issue.message, ...issue.params.values)
      : fieldProblem(changed, issue.message, ...issue.params.values),
  );
  throw badRequest("Some score ranges cannot be reached.", problems);
}

/** The form's scoring columns a body sets; a field left out of a PUT is left as it is. */
function scoringData(input: Pick<UpdateFormInput, "scoring" | "subscales" | "criticalMessage">) {
  const data: Pick<Prisma.FormUncheckedCreateInput, "scoring" | "subscales" | "criticalMessage"> = {};
  if (input.scoring !== undefined) data.scoring = input.scoring === null ? Prisma.DbNull : input.scoring;
  if (input.subscales !== undefined) data.subscales = input.subscales;
  if (input.criticalMessage !== undefined) data.criticalMessage = input.criticalMessage;
  return data;
}

/** The form's change columns a body sets (docs/api-contract.md §18); a field left out of a PUT is left as it is. */
function changeData(input: Pick<UpdateFormInput, "reliableChange" | "remissionBelow" | "lowerIsBetter">) {
  const data: Pick<Prisma.FormUncheckedCreateInput, "reliableChangeSd" | "reliableChangeReliability" | "remissionBelow" | "lowerIsBetter"> = {};
  if (input.reliableChange !== undefined) {
    data.reliableChangeSd = input.reliableChange?.sd ?? null;
    data.reliableChangeReliability = input.reliableChange?.reliability ?? null;
  }
  if (input.remissionBelow !== undefined) data.remissionBelow = input.remissionBelow;
  if (input.lowerIsBetter !== undefined) data.lowerIsBetter = input.lowerIsBetter;
  return data;
}

/** Refuses question keys and subscales that do not fit together (scoringProblems), each problem at its field. */
function assertScoringValid(questions: Parameters<typeof scoringProblems>[0]["questions"], subscales: Parameters<typeof scoringProblems>[0]["subscales"]) {
  const problems = scoringProblems({ questions, subscales });
  if (problems.length > 0) throw badRequest("The form's scoring needs attention.", problems);
}

/**
 * A PUT that changes the questions or the subscales: the keys and subscales the form will have,
 * from the body and what is stored, must fit together. A question kept by its id without a `key`
 * keeps its stored one (replaceQuestions does the same).
 */
async function assertScoringStillValid(id: string, input: UpdateFormInput) {
  const stored = await db.form.findUniqueOrThrow({
    where: { id },
    select: {
      subscales: true,
      questions: { orderBy: { position: "asc" }, select: { id: true, text: true, type: true, required: true, key: true, options: true } },
    },
  });
  const storedKeys = new Map(stored.questions.map((question) => [question.id, question.key]));
  const questions = input.questions
    ? input.questions.map((question) => ({
        ...question,
        id: question.id ?? "",
        key: question.key !== undefined ? question.key : question.id ? (storedKeys.get(question.id) ?? null) : null,
        options: storedOptions(question).map((option) => ({ id: "", ...option })),
      }))
    : stored.questions;
  assertScoringValid(questions, input.subscales ?? subscaleDefinitions.parse(stored.subscales));
}

/**
 * Soft delete: the form leaves lists and reads, its pending links stop working (the public link
 * checks the form's deletedAt), and completed results stay in reports. Its tombstone tells the
 * lists read with updatedSince: everyone who read it when it was a template, else its author and
 * the administrators (ADR 52).
 */
export async function deleteForm(actor: Actor, id: string) {
  const { organizationId } = await findEditableForm(actor, id);
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
    await recordAudit(tx, { by: actor, action: "form.deleted", targetId: id, organizationId });
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
    select: { id: true, key: true, points: true, options: { select: { id: true, correct: true }, orderBy: { position: "asc" } } },
  });
  const storedKeys = new Map(existing.map((q) => [q.id, q.key]));
  const storedPoints = new Map(existing.map((q) => [q.id, q.points]));
  const storedCorrect = new Set(existing.flatMap((q) => q.options.flatMap((o) => (o.correct ? [o.id] : []))));
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
  // A question graded by its key needs a correct option, counting those kept by id that keep their own mark.
  questions.forEach((question, qi) => {
    const points = question.points !== undefined ? question.points : question.id ? (storedPoints.get(question.id) ?? null) : null;
    if (points === null || !isKeyed({ type: question.type, points })) return;
    const hasCorrect = question.options.some((option) => option.correct ?? (option.id ? storedCorrect.has(option.id) : false));
    if (!hasCorrect) problems.push(fieldProblem(`questions.${qi}.options`, "needCorrectOption"));
  });
  problems.push(...(await foreignImageProblems(tx, formId, questions)));
  if (problems.length > 0) throw badRequest("Some ids do not belong to this form.", problems);

  const keptIds = new Set(questions.flatMap((q) => (q.id ? [q.id] : [])));
  await tx.question.deleteMany({ where: { formId, id: { notIn: [...keptIds] } } });
  // Keys are unique in a form: cleared first, so that two questions may swap theirs.
  await tx.question.updateMany({ where: { formId, key: { not: null } }, data: { key: null } });

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
      key: question.key !== undefined ? question.key : question.id ? (storedKeys.get(question.id) ?? null) : null,
      ...(question.reverseScored !== undefined || !question.id ? { reverseScored: question.reverseScored ?? false } : {}),
      ...keyData(question, !question.id),
      ...imageData(question, !question.id),
    };
    // A scale numbered from its range keeps its points' ids, in order, so answers saved as a draft
    // still name them after the teacher saves the form again.
    const kept = question.id && question.options.length === 0 ? (orderedOptionIds.get(question.id) ?? []) : [];
    const options: ({ id?: string | undefined; text: string; score: number; critical?: boolean | undefined } & ImageInput & OptionKeyInput)[] = storedOptions(
      question,
    ).map((option, i) => (kept[i] ? { ...option, id: kept[i] } : option));
    if (!question.id) {
      await tx.question.create({
        data: {
          formId,
          ...fields,
          options: {
            create: options.map((o, i) => ({
              text: o.text,
              score: o.score,
              position: i,
              critical: o.critical ?? false,
              ...optionKeyData(o, true),
              ...imageData(o, true),
            })),
          },
        },
      });
      continue;
    }
    const questionId = question.id;
    await tx.question.update({ where: { id: questionId }, data: fields });
    const keptOptionIds = options.flatMap((o) => (o.id ? [o.id] : []));
    await tx.option.deleteMany({ where: { questionId, id: { notIn: keptOptionIds } } });
    for (const [i, option] of options.entries()) {
      const optionFields = { text: option.text, score: option.score, position: i, ...optionKeyData(option, !option.id), ...imageData(option, !option.id) };
      // An option kept by its id without `critical` keeps its own; a new one is not critical.
      if (option.id) await tx.option.update({ where: { id: option.id }, data: { ...optionFields, critical: option.critical } });
      else await tx.option.create({ data: { questionId, ...optionFields, critical: option.critical ?? false } });
    }
  }
}

type QuestionKeyInput = { points?: number | null | undefined; scoringRule?: ScoringRule | undefined; feedback?: string | null | undefined };
type OptionKeyInput = { correct?: boolean | undefined; feedback?: string | null | undefined };

/** A question's key and feedback columns a body sets: left out, a question kept by its id keeps its own, a new one has none. */
function keyData(question: QuestionKeyInput, isNew: boolean) {
  return {
    ...(question.points !== undefined || isNew ? { points: question.points ?? null } : {}),
    ...(question.scoringRule !== undefined || isNew ? { scoringRule: question.scoringRule ?? "ALL_OR_NOTHING" } : {}),
    ...(question.feedback !== undefined || isNew ? { feedback: question.feedback ?? null } : {}),
  };
}

/** An option's key mark and feedback a body sets, kept as `keyData` keeps a question's. */
function optionKeyData(option: OptionKeyInput, isNew: boolean) {
  return {
    ...(option.correct !== undefined || isNew ? { correct: option.correct ?? false } : {}),
    ...(option.feedback !== undefined || isNew ? { feedback: option.feedback ?? null } : {}),
  };
}

type ImageInput = { imageId?: string | null | undefined; imageAlt?: string | null | undefined };

/** An item's image columns a body sets: left out, an item kept by its id keeps its own, a new one has none. */
function imageData(item: ImageInput, isNew: boolean) {
  if (item.imageId === undefined) return isNew ? { imageId: null, imageAlt: null } : {};
  return { imageId: item.imageId, imageAlt: item.imageId === null ? null : (item.imageAlt ?? null) };
}

/**
 * A copy of a form the caller can see (their own, or a template), owned by the caller, never
 * published and never a template: questions, options and score ranges are copied, submissions
 * are not. The title defaults to "… (copy)"; pages pass their own (translated, or the template's).
 * A copy of an installed instrument is that instrument too, as locked as the original (ADR 72).
 */
export async function duplicateForm(actor: Actor, id: string, options: { title?: (sourceTitle: string) => string } = {}): Promise<FormDetail> {
  const source = await getForm(actor, id);
  const { instrument } = await db.form.findUniqueOrThrow({ where: { id: source.id }, select: { instrument: true } });
  const title = (options.title ?? ((sourceTitle) => `${sourceTitle} (copy)`))(source.title).slice(0, 200);
  return createForm(
    actor,
    {
      title,
      description: source.description,
      category: source.category,
      type: source.type,
      targetAudience: source.targetAudience,
      isPublished: false,
      isTemplate: false,
      showResultToRespondent: source.showResultToRespondent,
      scoreRanges: source.scoreRanges.map(({ min, max, label, color, critical }) => ({ min, max, label, color, critical })),
      // The keys as shown (`q3` included), so that the copy's subscales name the same questions.
      questions: source.questions.map((question) => ({
        text: question.text,
        type: question.type,
        required: question.required,
        key: question.key,
        reverseScored: question.reverseScored,
        ...(question.scale ? { scale: question.scale } : {}),
        imageId: question.imageId,
        imageAlt: question.imageAlt,
        points: question.points,
        scoringRule: question.scoringRule,
        feedback: question.feedback,
        options: question.options.map((option) => ({
          text: option.text,
          score: option.score,
          critical: option.critical,
          correct: option.correct,
          feedback: option.feedback,
          imageId: option.imageId,
          imageAlt: option.imageAlt,
        })),
      })),
      scoring: source.scoring,
      subscales: source.subscales,
      criticalMessage: source.criticalMessage,
      reliableChange: source.reliableChange,
      remissionBelow: source.remissionBelow,
      lowerIsBetter: source.lowerIsBetter,
      shuffleQuestions: source.shuffleQuestions,
      shuffleOptions: source.shuffleOptions,
      review: source.review,
    },
    {
      ...(instrument === null ? {} : { instrument: storedInstrument.parse(instrument) }),
      source: { from: "copy", of: source.id },
      imagesOf: source.id,
    },
  );
}
