import { withCopiedImages } from "./form-image-refs.server.ts";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import { ApiError, badRequest, fieldProblem, notFound } from "~/lib/problem.server.ts";
import { questionKey } from "../scoring/items.ts";
import { scoringSettings } from "../scoring/scale-schemas.ts";
import { recordAudit } from "../audit/audit.server.ts";
import { emitWebhookEvent, webhookSubscribers } from "../webhooks/webhooks.server.ts";
import { type CopyQuestionsInput, MAX_QUESTIONS } from "./copy-questions-schemas.ts";
import { unreachableBandIssues } from "./form-schemas.ts";
import { findEditableForm, formContentSelect, type FormDetail, getForm, presentQuestion, visibleFormsWhere } from "./forms.server.ts";
import { raiseVersionIfRescored, scoringFingerprint } from "./form-versions.server.ts";

/**
 * Copies of questions of a form the caller reads, appended to a form they edit
 * (docs/api-contract.md §22, ADR 91). Each copy takes every column of its question and of its
 * options but their ids, form and position, so what a question carries (scores, critical flags,
 * its scale, a reverse score, whatever columns come later) travels with it. A copy keeps its key
 * unless the form already has it (or it is `q<n>` and lands on a key taken): it is then suffixed
 * `_2`, `_3`… Subscales and bands are the form's own and are not copied.
 */
export async function copyQuestions(actor: Actor, formId: string, input: CopyQuestionsInput): Promise<FormDetail> {
  const target = await findEditableForm(actor, formId);
  if (target.instrument !== null) {
    throw new ApiError(409, "INSTRUMENT_LOCKED", "This form is a library instrument: questions cannot be added to it.", [
      fieldProblem("questionIds", "instrumentLocked"),
    ]);
  }
  const source = await db.form.findFirst({ where: { AND: [{ id: input.fromFormId }, visibleFormsWhere(actor)] }, select: { id: true } });
  if (!source) throw notFound("form");
  const rows = await db.question.findMany({
    where: { formId: source.id, id: { in: input.questionIds } },
    include: { options: { orderBy: { position: "asc" } } },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = input.questionIds.flatMap((id, index) => (byId.has(id) ? [] : [fieldProblem(`questionIds.${index}`, "notAFormQuestion")]));
  if (missing.length > 0) throw badRequest("Some questions are not questions of the form copied from.", missing);
  const copies = input.questionIds.map((id) => byId.get(id)!);

  const subscribers = await webhookSubscribers(target.organizationId, "form.updated", formId);
  await db.$transaction(async (tx) => {
    const changedAt = new Date();
    // Written first: PostgreSQL then holds the form's row, so two copies to one form take turns,
    // and a SQLite transaction that starts by writing never meets SQLITE_BUSY on a later write.
    const updated = await tx.form.update({
      where: { id: formId },
      data: { contentVersion: { increment: 1 }, updatedAt: changedAt },
      select: { title: true, isPublished: true, isTemplate: true, scoring: true, ...formContentSelect },
    });
    const existing = updated.questions;
    if (existing.length + copies.length > MAX_QUESTIONS) {
      throw badRequest("A form holds at most 200 questions.", [fieldProblem("questionIds", "tooMany", String(MAX_QUESTIONS - existing.length))]);
    }
    const keys = copiedKeys(
      existing.map((question, index) => questionKey(question, index)),
      copies,
    );
    assertBandsStillReachable(updated, copies);
    const scoredBefore = await scoringFingerprint(tx, formId);
    // An image belongs to one form (a link is never served another form's): the copies name copies of theirs.
    const withImages = await withCopiedImages(tx, actor, source.id, formId, copies);
    for (const [
      index,
      { id: _id, formId: _formId, position: _position, key: _key, createdAt: _c, updatedAt: _u, options, ...question },
    ] of withImages.entries()) {
      await tx.question.create({
        data: {
          ...question,
          formId,
          position: existing.length + index,
          key: keys[index]!,
          options: { create: options.map(({ id: _oid, questionId: _q, createdAt: _oc, updatedAt: _ou, ...option }) => option) },
        },
      });
    }
    // Questions added to a form with results make a new version of it (ADR 90).
    await raiseVersionIfRescored(tx, actor, formId, scoredBefore, "raise");
    const { title, isPublished, isTemplate } = updated;
    await emitWebhookEvent(tx, subscribers, "form.updated", {
      id: formId,
      title,
      isPublished,
      isTemplate,
      updatedById: actor.userId,
      updatedAt: changedAt.toISOString(),
    });
    await recordAudit(tx, {
      by: actor,
      action: "form.updated",
      targetId: formId,
      organizationId: target.organizationId,
      details: { fields: ["questions"], copiedFrom: source.id, questions: copies.length },
    });
  });
  return getForm(actor, formId);
}

/** The forms a caller may copy questions from into form `formId`: those they read but it, by title (at most 500). */
export function copySources(actor: Actor, formId: string) {
  return db.form.findMany({
    where: { AND: [visibleFormsWhere(actor), { id: { not: formId } }] },
    select: { id: true, title: true },
    orderBy: [{ title: "asc" }, { id: "asc" }],
    take: 500,
  });
}

/**
 * Each copy's key in a form whose keys are `taken` (its own, or `q<n>` for those without): its
 * own key, or none when it had none, unless that key (or the `q<n>` it would read as) is taken;
 * then the first free `<key>_2`, `<key>_3`…, cut to fit the 40 characters a key may have.
 */
export function copiedKeys(taken: readonly string[], copies: readonly { key: string | null }[]): (string | null)[] {
  const used = new Set(taken);
  return copies.map((copy, index) => {
    const key = questionKey(copy, taken.length + index);
    let given: string | null = copy.key;
    if (used.has(key)) {
      let n = 2;
      const suffixed = () => `${key.slice(0, 40 - `_${n}`.length)}_${n}`;
      while (used.has(suffixed())) n++;
      given = suffixed();
    }
    used.add(given ?? key);
    return given;
  });
}

type StoredContent = { scoring: unknown; scoreRanges: { min: number; max: number }[]; questions: Parameters<typeof presentQuestion>[0][] };

/** The form's bands must still name a total its questions, copies included, can give (a mean may narrow). */
function assertBandsStillReachable(form: StoredContent, copies: Parameters<typeof presentQuestion>[0][]) {
  const questions = [...form.questions, ...copies].map((question, index) => ({ ...presentQuestion(question, index), scale: undefined }));
  const issues = unreachableBandIssues(form.scoreRanges, questions, scoringSettings.parse(form.scoring ?? {}));
  if (issues.length > 0) {
    throw badRequest(
      "With these questions some of the form's score ranges cannot be reached.",
      issues.map((issue) => fieldProblem("questionIds", issue.message, ...issue.params.values)),
    );
  }
}
