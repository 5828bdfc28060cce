import { parseSubmission, report, resolveSubmission, type Submission } from "@conform-to/react/future";
import type { z } from "zod";
import type { Dictionary } from "~/i18n/en.ts";
import { issueTexts } from "~/lib/problem.server.ts";
import { createFormBody, updateFormBody } from "./form-schemas.ts";
import type { FormDetail } from "./forms.server.ts";
import { bodyFromDraft, DRAFT_LIMITS, type DraftErrors, draftFromQuestion, draftFromValue, type FormDraft, LIST_INTENT } from "./form-draft.ts";

/**
 * The form editor's server side. The page is one Conform form: with JavaScript, adding, removing
 * and moving questions, options and score ranges are Conform's list intents applied in the
 * browser; without it, the same intents arrive here, `resolveSubmission` applies them, and the
 * editor comes back with the change made and every value kept. "Save" validates the draft with the
 * API's own schema.
 */

const INDEX = /(questions|options|scoreRanges)\[(\d+)\]/g;
const beyondLimits = (name: string) => [...name.matchAll(INDEX)].some(([, list, index]) => Number(index) >= DRAFT_LIMITS[list as keyof typeof DRAFT_LIMITS]);

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

export function draftFromForm(form: FormDetail): FormDraft {
  return {
    title: form.title,
    description: form.description ?? "",
    category: form.category ?? "",
    type: form.type ?? "",
    targetAudience: form.targetAudience ?? "",
    showResultToRespondent: form.showResultToRespondent,
    scoreRanges: form.scoreRanges.map((range) => ({ min: String(range.min), max: String(range.max), label: range.label, color: range.color })),
    questions: form.questions.map(draftFromQuestion),
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
