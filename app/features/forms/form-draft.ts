import type { QuestionType } from "./question-types.ts";

/**
 * The editor's working copy of a form, exactly as the page's fields hold it (numbers as typed),
 * so a re-rendered editor keeps every value. Field names are the Zod paths
 * (`questions.1.options.0.score`), so a validation issue's path names its field.
 */
export type DraftOption = { id: string; text: string; score: string };
export type DraftQuestion = { id: string; text: string; type: QuestionType; required: boolean; options: DraftOption[] };
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
export const emptyQuestion = (): DraftQuestion => ({ id: "", text: "", type: "SINGLE_CHOICE", required: false, options: [emptyOption(), emptyOption()] });
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
