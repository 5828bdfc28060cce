import type { z } from "zod";
import type { Dictionary } from "~/i18n/en.ts";
import { issueTexts } from "~/lib/problem.server.ts";
import { createFormBody, updateFormBody } from "./form-schemas.ts";
import { QUESTION_TYPES, type QuestionType } from "./question-types.ts";
import type { FormDetail } from "./forms.server.ts";
import { emptyOption, emptyQuestion, emptyRange, type DraftErrors, type FormDraft } from "./form-draft.ts";

/**
 * The form editor's server side: the posted fields back into a draft, the no-JavaScript editing
 * intents (add, remove, move) applied to it, and validation with the API's own schemas, whose
 * issues are mapped to the fields they belong to in the page's language.
 */
const text = (data: FormData, name: string) => {
  const value = data.get(name);
  return typeof value === "string" ? value : "";
};

export function draftFromFormData(data: FormData): FormDraft {
  const draft: FormDraft = {
    title: text(data, "title"),
    description: text(data, "description"),
    category: text(data, "category"),
    type: text(data, "type"),
    targetAudience: text(data, "targetAudience"),
    scoreRanges: [],
    questions: [],
  };
  for (let i = 0; i < 20 && data.has(`scoreRanges.${i}.label`); i++) {
    const field = (name: string) => text(data, `scoreRanges.${i}.${name}`);
    draft.scoreRanges.push({ min: field("min"), max: field("max"), label: field("label"), color: field("color") || "#000000" });
  }
  for (let i = 0; i < 200 && data.has(`questions.${i}.text`); i++) {
    const field = (name: string) => text(data, `questions.${i}.${name}`);
    const type = (QUESTION_TYPES as readonly string[]).includes(field("type")) ? (field("type") as QuestionType) : "SINGLE_CHOICE";
    const options = [];
    for (let j = 0; j < 50 && data.has(`questions.${i}.options.${j}.text`); j++) {
      options.push({ id: field(`options.${j}.id`), text: field(`options.${j}.text`), score: field(`options.${j}.score`) });
    }
    draft.questions.push({ id: field("id"), text: field("text"), type, required: data.get(`questions.${i}.required`) === "on", options });
  }
  return draft;
}

export function draftFromForm(form: FormDetail): FormDraft {
  return {
    title: form.title,
    description: form.description ?? "",
    category: form.category ?? "",
    type: form.type ?? "",
    targetAudience: form.targetAudience ?? "",
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

function move<T>(items: T[], from: number, to: number) {
  if (from < 0 || to < 0 || from >= items.length || to >= items.length) return;
  const [item] = items.splice(from, 1);
  items.splice(to, 0, item!);
}

/**
 * Applies an editing intent (`add-question`, `remove-question:2`, `move-up:1`, `move-down:1`,
 * `add-option:0`, `remove-option:0:1`, `option-up:0:1`, `option-down:0:1`, `add-range`,
 * `remove-range:1`, `preview`). Answers the name of the field to focus next ("" for none), or
 * null when `intent` is not one of them.
 */
export function applyIntent(draft: FormDraft, intent: string): string | null {
  const [name, a, b] = intent.split(":");
  const i = Number(a);
  const j = Number(b);
  const question = Number.isInteger(i) ? draft.questions[i] : undefined;
  const questionText = (index: number) => (draft.questions[index] ? `questions.${index}.text` : "");
  const optionText = (index: number) => (question?.options[index] ? `questions.${i}.options.${index}.text` : "");
  switch (name) {
    case "add-question":
      if (draft.questions.length < 200) draft.questions.push(emptyQuestion());
      return questionText(draft.questions.length - 1);
    case "remove-question":
      if (question) draft.questions.splice(i, 1);
      return questionText(Math.min(i, draft.questions.length - 1));
    case "move-up":
      move(draft.questions, i, i - 1);
      return questionText(i - 1);
    case "move-down":
      move(draft.questions, i, i + 1);
      return questionText(i + 1);
    case "add-option":
      if (question && question.options.length < 50) question.options.push(emptyOption());
      return question ? optionText(question.options.length - 1) : "";
    case "remove-option":
      if (question && Number.isInteger(j)) question.options.splice(j, 1);
      return question ? optionText(Math.min(j, question.options.length - 1)) : "";
    case "option-up":
      if (question) move(question.options, j, j - 1);
      return optionText(j - 1);
    case "option-down":
      if (question) move(question.options, j, j + 1);
      return optionText(j + 1);
    case "add-range":
      if (draft.scoreRanges.length < 20) draft.scoreRanges.push(emptyRange(draft.scoreRanges.length));
      return `scoreRanges.${draft.scoreRanges.length - 1}.label`;
    case "remove-range":
      if (Number.isInteger(i)) draft.scoreRanges.splice(i, 1);
      return "";
    case "preview":
      return "";
    default:
      return null;
  }
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

/** Validates with the API's schema; errors by field name, in the page's language. */
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
