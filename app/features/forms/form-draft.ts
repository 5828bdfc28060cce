import { achievableTotals } from "../scoring/achievable.ts";
import { QUESTION_TYPES, type QuestionType } from "./question-types.ts";
import { storedOptions } from "./scale.ts";

/**
 * The editor's working copy of a form, exactly as the page's fields hold it (numbers as typed),
 * so a re-rendered editor keeps every value. Field names are the Zod paths
 * (`questions.1.options.0.score`), so a validation issue's path names its field.
 */
export type DraftOption = { id: string; text: string; score: string };
/** A scale's range and end labels as typed; used when the question's type is SCALE. */
export type DraftScale = { min: string; max: string; minLabel: string; maxLabel: string };
export type DraftQuestion = { id: string; text: string; type: QuestionType; required: boolean; scale: DraftScale; options: DraftOption[] };
export type DraftRange = { min: string; max: string; label: string; color: string };
export type FormDraft = {
  title: string;
  description: string;
  category: string;
  type: string;
  targetAudience: string;
  showResultToRespondent: boolean;
  scoreRanges: DraftRange[];
  questions: DraftQuestion[];
};

/**
 * The field Conform's list-intent buttons (add, remove, move) post: its default intent name. The
 * editor's own buttons (save, update the preview) are named `intent`.
 */
export const LIST_INTENT = "__INTENT__";

/** Field errors by field name (the Zod path joined with dots). */
export type DraftErrors = Record<string, string>;

export const RANGE_COLORS = ["#B42318", "#B54708", "#1A7F37", "#175CD3", "#6941C6"];

export const emptyOption = (): DraftOption => ({ id: "", text: "", score: "0" });
/** A new question's scale, should its type become SCALE: the common 1 to 5. */
export const defaultScale = (): DraftScale => ({ min: "1", max: "5", minLabel: "", maxLabel: "" });
export const emptyQuestion = (): DraftQuestion => ({
  id: "",
  text: "",
  type: "SINGLE_CHOICE",
  required: false,
  scale: defaultScale(),
  options: [emptyOption(), emptyOption()],
});
export const emptyRange = (index: number): DraftRange => ({ min: "", max: "", label: "", color: RANGE_COLORS[index % RANGE_COLORS.length]! });

export const emptyDraft = (): FormDraft => ({
  title: "",
  description: "",
  category: "",
  type: "",
  targetAudience: "",
  showResultToRespondent: false,
  scoreRanges: [],
  questions: [emptyQuestion()],
});

/** The bands as the preview draws them: complete ones only, lowest first. */
export function previewBands(ranges: DraftRange[]) {
  return ranges
    .map((range) => ({ ...range, minValue: Number(range.min), maxValue: Number(range.max) }))
    .filter((range) => range.label.trim() !== "" && range.min !== "" && range.max !== "" && Number.isFinite(range.minValue) && Number.isFinite(range.maxValue))
    .sort((a, b) => a.minValue - b.minValue);
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
/** A checkbox as posted ("on"), or as a draft already read holds it (true). */
const checked = (value: unknown) => value === "on" || value === true;
const list = (value: unknown, limit: number): Record<string, unknown>[] =>
  Array.isArray(value) ? value.slice(0, limit).map((item) => (item && typeof item === "object" ? (item as Record<string, unknown>) : {})) : [];

/** The most items of each list the API accepts; a post naming a later index is not read further. */
export const DRAFT_LIMITS = { questions: 200, options: 50, scoreRanges: 20 } as const;

/**
 * The posted value (as Conform parses the page's fields, or a draft the action answered with) as the
 * editor's draft: every value as typed, unknown shapes as empty.
 */
export function draftFromValue(value: Record<string, unknown> | undefined): FormDraft {
  const field = (name: string) => text(value?.[name]);
  return {
    title: field("title"),
    description: field("description"),
    category: field("category"),
    type: field("type"),
    targetAudience: field("targetAudience"),
    showResultToRespondent: checked(value?.showResultToRespondent),
    scoreRanges: list(value?.scoreRanges, DRAFT_LIMITS.scoreRanges).map((range) => ({
      min: text(range.min),
      max: text(range.max),
      label: text(range.label),
      color: text(range.color) || "#000000",
    })),
    questions: list(value?.questions, DRAFT_LIMITS.questions).map((question) => {
      const scale = question.scale && typeof question.scale === "object" ? (question.scale as Record<string, unknown>) : {};
      return {
        id: text(question.id),
        text: text(question.text),
        type: (QUESTION_TYPES as readonly string[]).includes(text(question.type)) ? (text(question.type) as QuestionType) : "SINGLE_CHOICE",
        required: checked(question.required),
        scale: { min: text(scale.min), max: text(scale.max), minLabel: text(scale.minLabel), maxLabel: text(scale.maxLabel) },
        options: list(question.options, DRAFT_LIMITS.options).map((option) => ({ id: text(option.id), text: text(option.text), score: text(option.score) })),
      };
    }),
  };
}

const toNumber = (value: string) => (value.trim() === "" ? undefined : Number(value.replace(",", ".")));

/**
 * A question's body for the API. A scale with its range set sends it, with the points the teacher
 * named (a point's score left empty is its value) or none, to be numbered from the range; a scale
 * without a range is given by its options, as any choice. Text questions lose any options left
 * from another type.
 */
function questionBody(question: DraftQuestion) {
  const base = { ...(question.id ? { id: question.id } : {}), text: question.text, type: question.type, required: question.required };
  if (question.type === "TEXT") return { ...base, options: [] };
  const option = (o: DraftOption, score: number | undefined) => ({ ...(o.id ? { id: o.id } : {}), text: o.text, score });
  const range = question.scale;
  if (question.type === "SCALE" && (range.min.trim() !== "" || range.max.trim() !== "")) {
    const min = toNumber(range.min);
    const named = question.options.filter((o) => o.text.trim() !== "");
    return {
      ...base,
      scale: { min, max: toNumber(range.max), minLabel: range.minLabel, maxLabel: range.maxLabel },
      options: named.map((o, i) => option(o, o.score.trim() === "" && min !== undefined ? min + i : toNumber(o.score))),
    };
  }
  return { ...base, options: question.options.map((o) => option(o, toNumber(o.score))) };
}

/** The draft as the API's request body. */
export function bodyFromDraft(draft: FormDraft, mode: "create" | "update") {
  return {
    title: draft.title,
    description: draft.description,
    category: draft.category,
    type: draft.type,
    targetAudience: draft.targetAudience,
    showResultToRespondent: draft.showResultToRespondent,
    ...(mode === "create" ? { isPublished: false } : {}),
    scoreRanges: draft.scoreRanges.map((range) => ({ min: toNumber(range.min), max: toNumber(range.max), label: range.label, color: range.color })),
    questions: draft.questions.map(questionBody),
  };
}

const finite = (value: number | undefined): value is number => value !== undefined && Number.isFinite(value);

/**
 * The totals the draft's questions can give, as typed so far (options without a number count for
 * nothing yet; a scale's range counts once it is whole and in order): what the editor shows live.
 */
export function draftTotals(draft: FormDraft) {
  const questions = draft.questions.map(questionBody).map((question) => {
    const scale =
      "scale" in question && finite(question.scale.min) && finite(question.scale.max) && question.scale.max > question.scale.min
        ? { min: Math.trunc(question.scale.min), max: Math.trunc(question.scale.max) }
        : undefined;
    const options = question.options.filter((o) => finite(o.score)) as { text: string; score: number }[];
    return { type: question.type, required: question.required, options: storedOptions({ type: question.type, scale, options }) };
  });
  return achievableTotals(questions);
}

/**
 * An existing form as the editor's draft. A scale whose points are just its numbers shows no
 * points (they follow the range as it changes); one with labels or scores of its own shows them.
 */
export function draftFromQuestion(question: {
  id: string;
  text: string;
  type: QuestionType;
  required: boolean;
  scale: { min: number; max: number; minLabel: string | null; maxLabel: string | null } | null;
  options: { id: string; text: string; score: number }[];
}): DraftQuestion {
  const { scale } = question;
  const numbered = scale !== null && question.options.every((o, i) => o.text === String(scale.min + i) && o.score === scale.min + i);
  return {
    id: question.id,
    text: question.text,
    type: question.type,
    required: question.required,
    scale: scale
      ? { min: String(scale.min), max: String(scale.max), minLabel: scale.minLabel ?? "", maxLabel: scale.maxLabel ?? "" }
      : { min: "", max: "", minLabel: "", maxLabel: "" },
    options: numbered ? [] : question.options.map((option) => ({ id: option.id, text: option.text, score: String(option.score) })),
  };
}
