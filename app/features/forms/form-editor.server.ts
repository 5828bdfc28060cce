import { parseSubmission, report, resolveSubmission, type Submission } from "@conform-to/react/future";
import type { z } from "zod";
import type { Dictionary } from "~/i18n/en.ts";
import { issueTexts } from "~/lib/problem.server.ts";
import { createFormBody, updateFormBody } from "./form-schemas.ts";
import { QUESTION_TYPES, type QuestionType } from "./question-types.ts";
import type { FormDetail } from "./forms.server.ts";
import { LIST_INTENT, type DraftErrors, type FormDraft } from "./form-draft.ts";

/**
 * The form editor's server side. The page is one Conform form: with JavaScript, adding, removing
 * and moving questions, options and score ranges are Conform's list intents applied in the
 * browser; without it, the same intents arrive here, `resolveSubmission` applies them, and the
 * editor comes back with the change made and every value kept. "Save" validates the draft with the
 * API's own schema.
 */

/** The most items of each list the API accepts; a post naming a later index is not read further. */
const LIMITS = { questions: 200, options: 50, scoreRanges: 20 } as const;
const INDEX = /(questions|options|scoreRanges)\[(\d+)\]/g;
const beyondLimits = (name: string) => [...name.matchAll(INDEX)].some(([, list, index]) => Number(index) >= LIMITS[list as keyof typeof LIMITS]);

/**
 * The editor's post as Conform reads it: its list intent (`undefined`: a tampered one) and the
 * draft with that intent applied.
 */
export function editorSubmission(formData: FormData) {
  const submission = parseSubmission(formData, {
    intentName: LIST_INTENT,
    skipEntry: (name) => name === "csrfToken" || name === "intent" || beyondLimits(name),
  });
  const { intent, targetValue } = resolveSubmission(submission);
  return { submission, intent, draft: draftFromValue(targetValue) };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const list = (value: unknown, limit: number): Record<string, unknown>[] =>
  Array.isArray(value) ? value.slice(0, limit).map((item) => (item && typeof item === "object" ? (item as Record<string, unknown>) : {})) : [];

/** The posted value as the editor's draft: every value as typed, unknown shapes as empty. */
export function draftFromValue(value: Record<string, unknown> | undefined): FormDraft {
  const field = (name: string) => text(value?.[name]);
  return {
    title: field("title"),
    description: field("description"),
    category: field("category"),
    type: field("type"),
    targetAudience: field("targetAudience"),
    showResultToRespondent: value?.showResultToRespondent === "on",
    scoreRanges: list(value?.scoreRanges, LIMITS.scoreRanges).map((range) => ({
      min: text(range.min),
      max: text(range.max),
      label: text(range.label),
      color: text(range.color) || "#000000",
    })),
    questions: list(value?.questions, LIMITS.questions).map((question) => ({
      id: text(question.id),
      text: text(question.text),
      type: (QUESTION_TYPES as readonly string[]).includes(text(question.type)) ? (text(question.type) as QuestionType) : "SINGLE_CHOICE",
      required: question.required === "on",
      options: list(question.options, LIMITS.options).map((option) => ({ id: text(option.id), text: text(option.text), score: text(option.score) })),
    })),
  };
}

export function draftFromForm(form: FormDetail): FormDraft {
  return {
    title: form.title,
    description: form.description ?? "",
    category: form.category ?? "",
    type: form.type ?? "",
    targetAudience: form.targetAudience ?? "",
    showResultToRespondent: form.showResultToRespondent,
    scoreRanges: form.scoreRanges.map((range) => ({ min: String(range.min), max: String(range.max), label: range.label, color: range.color })),
    questions: form.questions.map((question) => ({
      id: question.id,
      text: question.text,
      type: question.type,
      required: question.required,
      options: question.options.map((option) => ({ id: option.id, text: option.text, score: String(option.score) })),
    })),
  };
}

const toNumber = (value: string) => (value.trim() === "" ? undefined : Number(value.replace(",", ".")));

/** The draft as the API's request body (text questions lose any options left from another type). */
function bodyFromDraft(draft: FormDraft, mode: "create" | "update") {
  return {
    title: draft.title,
    description: draft.description,
    category: draft.category,
    type: draft.type,
    targetAudience: draft.targetAudience,
    showResultToRespondent: draft.showResultToRespondent,
    ...(mode === "create" ? { isPublished: false } : {}),
    scoreRanges: draft.scoreRanges.map((range) => ({ min: toNumber(range.min), max: toNumber(range.max), label: range.label, color: range.color })),
    questions: draft.questions.map((question) => ({
      ...(question.id ? { id: question.id } : {}),
      text: question.text,
      type: question.type,
      required: question.required,
      options:
        question.type === "TEXT"
          ? []
          : question.options.map((option) => ({ ...(option.id ? { id: option.id } : {}), text: option.text, score: toNumber(option.score) })),
    })),
  };
}

/** Validates with the API's schema; errors by API path (`questions.1.options.0.score`), in the page's language. */
export function validateDraft<M extends "create" | "update">(
  draft: FormDraft,
  mode: M,
  t: Dictionary,
): { success: true; data: M extends "create" ? z.output<typeof createFormBody> : z.output<typeof updateFormBody> } | { success: false; errors: DraftErrors } {
  const schema = mode === "create" ? createFormBody : updateFormBody;
  const parsed = schema.safeParse(bodyFromDraft(draft, mode));
  if (parsed.success) return { success: true, data: parsed.data as never };
  return { success: false, errors: issueTexts(t, parsed.error.issues) };
}

/** An API path (`questions.1.options.0.score`) as the editor's field name (`questions[1].options[0].score`). */
export const fieldNameOf = (path: string) => path.replace(/\.(\d+)(?=\.|$)/g, "[$1]");

/** The editor's answer: the draft as posted (an intent applied), with the errors of a refused save. */
export function editorResult(submission: Submission, draft: FormDraft, errors: DraftErrors = {}) {
  const fieldErrors = Object.fromEntries(Object.entries(errors).map(([path, message]) => [fieldNameOf(path), [message]]));
  return report<string[]>(submission, {
    targetValue: draft,
    ...(Object.keys(fieldErrors).length > 0 ? { error: { formErrors: null, fieldErrors } } : {}),
  });
}
