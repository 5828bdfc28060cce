import { parseSubmission, report, resolveSubmission, type Submission } from "@conform-to/react/future";
import type { z } from "zod";
import type { Dictionary } from "~/i18n/en.ts";
import { fieldProblem, fieldTexts, issueTexts } from "~/lib/problem.server.ts";
import { scoringProblems } from "../scoring/scales.ts";
import { createFormBody, updateFormBody } from "./form-schemas.ts";
import type { FormDetail } from "./forms.server.ts";
import { isKeyed } from "../scoring/answer-key.ts";
import {
  bodyFromDraft,
  CONFIRM_FIELDS,
  DRAFT_LIMITS,
  type DraftErrors,
  draftFromQuestion,
  type EditorWarnings,
  draftFromValue,
  EDITOR_INTENTS,
  type FormDraft,
  LIST_INTENT,
  scoredDraftQuestion,
} from "./form-draft.ts";

/**
 * The form editor's server side. The page is one Conform form: with JavaScript, adding, removing
 * and moving questions, options, score ranges and subscales, and copying a question's options to
 * the others of its type, are list intents applied in the browser; without it, the same intents
 * arrive here, `resolveSubmission` applies them, and the editor comes back with the change made
 * and every value kept. "Save" validates the draft with the API's own schema and scoring rules.
 */

const INDEX = /(questions|options|scoreRanges|subscales|items)\[(\d+)\]/g;
const beyondLimits = (name: string) => [...name.matchAll(INDEX)].some(([, list, index]) => Number(index) >= DRAFT_LIMITS[list as keyof typeof DRAFT_LIMITS]);

/** The posted fields that are no part of the draft: the token, the button, and the confirmations of a save held back. */
const SKIPPED = new Set(["csrfToken", "intent", CONFIRM_FIELDS.version, CONFIRM_FIELDS.oneScore]);

/**
 * The editor's post as Conform reads it: its list intent (`undefined`: a tampered one) and the
 * draft with that intent applied.
 */
export function editorSubmission(formData: FormData) {
  const submission = parseSubmission(formData, {
    intentName: LIST_INTENT,
    skipEntry: (name) => SKIPPED.has(name) || beyondLimits(name),
  });
  const { intent, targetValue } = resolveSubmission(submission, { handlers: EDITOR_INTENTS });
  return { submission, intent, draft: draftFromValue(targetValue) };
}

export function draftFromForm(form: FormDetail): FormDraft {
  const range = (band: FormDetail["scoreRanges"][number]) => ({
    min: String(band.min),
    max: String(band.max),
    label: band.label,
    color: band.color,
    critical: band.critical,
  });
  const constants = (value: { sd: number; reliability: number } | null) =>
    value ? { sd: String(value.sd), reliability: String(value.reliability) } : { sd: "", reliability: "" };
  const threshold = (value: number | null) => (value === null ? "" : String(value));
  // A subscale's items are keys in the API and refs (the questions' ids) in the editor.
  const refOf = new Map(form.questions.map((question) => [question.key, question.id]));
  return {
    title: form.title,
    description: form.description ?? "",
    category: form.category ?? "",
    type: form.type ?? "",
    targetAudience: form.targetAudience ?? "",
    showResultToRespondent: form.showResultToRespondent,
    shuffleQuestions: form.shuffleQuestions,
    shuffleOptions: form.shuffleOptions,
    review: form.review,
    scoreRanges: form.scoreRanges.map(range),
    questions: form.questions.map(draftFromQuestion),
    scoring: {
      method: form.scoring.method,
      multiplier: String(form.scoring.multiplier),
      maxMissing: form.scoring.maxMissing === null ? "" : String(form.scoring.maxMissing),
      display: form.scoring.display,
    },
    subscales: form.subscales.map((subscale) => ({
      key: subscale.key,
      name: subscale.name,
      method: subscale.method,
      multiplier: subscale.multiplier === null ? "" : String(subscale.multiplier),
      items: subscale.items.flatMap((key) => refOf.get(key) ?? []),
      scoreRanges: subscale.scoreRanges.map(range),
      reliableChange: constants(subscale.reliableChange),
      remissionBelow: threshold(subscale.remissionBelow),
    })),
    criticalMessage: form.criticalMessage ?? "",
    reliableChange: constants(form.reliableChange),
    remissionBelow: threshold(form.remissionBelow),
    lowerIsBetter: form.lowerIsBetter,
  };
}

/**
 * Validates with the API's schema and the scoring rules the service applies (keys, subscales);
 * errors by API path (`questions.1.options.0.score`), in the page's language.
 */
export function validateDraft<M extends "create" | "update">(
  draft: FormDraft,
  mode: M,
  t: Dictionary,
): { success: true; data: M extends "create" ? z.output<typeof createFormBody> : z.output<typeof updateFormBody> } | { success: false; errors: DraftErrors } {
  const schema = mode === "create" ? createFormBody : updateFormBody;
  const body = bodyFromDraft(draft, mode);
  const parsed = schema.safeParse(body);
  // The service's scoring rules, on the questions as they will be stored, shown with the schema's
  // errors (a subscale's bands are the schema's to check).
  const questions = draft.questions.map((question, i) => ({ ...scoredDraftQuestion(question), key: body.questions[i]!.key }));
  const subscales = body.subscales.map((subscale) => ({ ...subscale, scoreRanges: [] }));
  const scoring = fieldTexts(t, [...scoringProblems({ questions, subscales }), ...answerKeyProblems(draft)]);
  const errors = { ...scoring, ...(parsed.success ? {} : issueTexts(t, parsed.error.issues)) };
  if (parsed.success && Object.keys(errors).length === 0) return { success: true, data: parsed.data as never };
  return { success: false, errors };
}

/**
 * The service's rule on answer keys, said before it is asked (the editor sends every option's
 * mark): a question graded by its key needs an option marked correct.
 */
function answerKeyProblems(draft: FormDraft) {
  return draft.questions.flatMap((question, i) => {
    const { points, options } = scoredDraftQuestion(question);
    return isKeyed({ type: question.type, points }) && !options.some((option) => option.correct)
      ? [fieldProblem(`questions.${i}.options`, "needCorrectOption")]
      : [];
  });
}

/**
 * An API path (`questions.1.options.0.score`) as the editor's field name (`questions[1].options[0].score`).
 * A subscale's item is a checkbox of the list: its error is the list's (`subscales[0].items`).
 */
export const fieldNameOf = (path: string) => path.replace(/\.(\d+)(?=\.|$)/g, "[$1]").replace(/(subscales\[\d+\]\.items)\[\d+\]$/, "$1");

/**
 * The editor's answer: the draft as posted (an intent applied), with the errors of a refused save,
 * or the warnings of a save that waits for "Save anyway".
 */
export function editorResult(submission: Submission, draft: FormDraft, errors: DraftErrors = {}, warnings?: EditorWarnings) {
  const fieldErrors: Record<string, string[]> = {};
  for (const [path, message] of Object.entries(errors)) {
    const name = fieldNameOf(path);
    fieldErrors[name] ??= [message];
  }
  const result = report<string[]>(submission, {
    targetValue: draft,
    ...(Object.keys(fieldErrors).length > 0 ? { error: { formErrors: null, fieldErrors } } : {}),
  });
  return warnings ? { ...result, warnings } : result;
}
