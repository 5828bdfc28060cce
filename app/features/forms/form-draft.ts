import { defineIntent } from "@conform-to/react/future";
import { isKeyed, SCORING_RULES, type ScoringRule } from "../scoring/answer-key.ts";
import { reliableChangeThreshold } from "../scoring/change.ts";
import { achievableScores, isScoredQuestion, questionKey } from "../scoring/items.ts";
import { DEFAULT_SCORING, MAX_SUBSCALES, type ScoreDisplay, type ScoringMethod } from "../scoring/scale-limits.ts";
import { QUESTION_TYPES, type QuestionType } from "./question-types.ts";
import { REVIEW_POLICIES, type ReviewPolicy } from "./review-policies.ts";
import { storedOptions } from "./scale.ts";

/**
 * The editor's working copy of a form, exactly as the page's fields hold it (numbers as typed),
 * so a re-rendered editor keeps every value. Field names are the Zod paths
 * (`questions.1.options.0.score`), so a validation issue's path names its field.
 */
export type DraftOption = { id: string; text: string; score: string; critical: boolean; correct: boolean; feedback: string };
/** A scale's range and end labels as typed; used when the question's type is SCALE. */
export type DraftScale = { min: string; max: string; minLabel: string; maxLabel: string };
/**
 * `ref` names the question inside the editor whatever its key and position: its id, or `new-<n>`
 * for a question not saved yet. A subscale's items are refs, turned into keys on save, so that
 * renaming or moving a question keeps it in its subscales (ADR 74).
 */
export type DraftQuestion = {
  id: string;
  ref: string;
  key: string;
  text: string;
  type: QuestionType;
  required: boolean;
  reverseScored: boolean;
  scale: DraftScale;
  options: DraftOption[];
  /** Empty: scored by its options' scores; a number: graded by its key (the options marked correct). */
  points: string;
  scoringRule: ScoringRule;
  feedback: string;
};
export type DraftRange = { min: string; max: string; label: string; color: string; critical: boolean };
/** How the total is made; an empty multiplier is 1, an empty maxMissing is no missing-item rule. */
export type DraftScoring = { method: ScoringMethod; multiplier: string; maxMissing: string; display: ScoreDisplay };
/** The Jacobson–Truax constants as typed: both, or both left empty for none (docs/api-contract.md §18). */
export type DraftReliableChange = { sd: string; reliability: string };
export type DraftSubscale = {
  key: string;
  name: string;
  method: ScoringMethod;
  multiplier: string;
  items: string[];
  scoreRanges: DraftRange[];
  reliableChange: DraftReliableChange;
  remissionBelow: string;
};
export type FormDraft = {
  title: string;
  description: string;
  category: string;
  type: string;
  targetAudience: string;
  showResultToRespondent: boolean;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  review: ReviewPolicy;
  scoreRanges: DraftRange[];
  questions: DraftQuestion[];
  scoring: DraftScoring;
  subscales: DraftSubscale[];
  criticalMessage: string;
  reliableChange: DraftReliableChange;
  remissionBelow: string;
  lowerIsBetter: boolean;
};

/**
 * The field Conform's list-intent buttons (add, remove, move) post: its default intent name. The
 * editor's own buttons (save, update the preview) are named `intent`.
 */
export const LIST_INTENT = "__INTENT__";

/** Field errors by field name (the Zod path joined with dots). */
export type DraftErrors = Record<string, string>;

/**
 * What a save the editor held back asks of the teacher: the questions (by index) whose options all
 * score the same (ADR 74), or whether to make a new version of a form with results (ADR 90).
 */
export type EditorWarnings = { oneScore: number[]; version?: VersionWarning };

/**
 * A save held back because it would make a new version of a form with results (ADR 90): how many
 * results the current version scored and the version saving makes. `oneScoreAccepted`: the save
 * had already been told to keep questions that give one score ("Save anyway").
 */
export type VersionWarning = { results: number; nextVersion: number; oneScoreAccepted: boolean };

/** The editor's hidden fields that confirm a save held back: the version it makes, and "Save anyway" already said. */
export const CONFIRM_FIELDS = { version: "confirmVersion", oneScore: "acceptOneScore" } as const;

export const RANGE_COLORS = ["#B42318", "#B54708", "#1A7F37", "#175CD3", "#6941C6"];

/** A new option's score is empty: 0 on a choice question, the point's value on a scale (`questionBody`). */
export const emptyOption = (): DraftOption => ({ id: "", text: "", score: "", critical: false, correct: false, feedback: "" });
/** A new question's scale, should its type become SCALE: the common 1 to 5. */
export const defaultScale = (): DraftScale => ({ min: "1", max: "5", minLabel: "", maxLabel: "" });
export const emptyQuestion = (ref = newQuestionRef([])): DraftQuestion => ({
  id: "",
  ref,
  key: "",
  text: "",
  type: "SINGLE_CHOICE",
  required: false,
  reverseScored: false,
  scale: defaultScale(),
  options: [emptyOption(), emptyOption()],
  points: "",
  scoringRule: "ALL_OR_NOTHING",
  feedback: "",
});
/** The ref of a question added next: `new-<n>`, the first that none of `questions` has. */
export function newQuestionRef(questions: readonly { ref: string }[]): string {
  const taken = new Set(questions.map((question) => question.ref));
  let n = 1;
  while (taken.has(`new-${n}`)) n++;
  return `new-${n}`;
}
export const emptyRange = (index: number): DraftRange => ({ min: "", max: "", label: "", color: RANGE_COLORS[index % RANGE_COLORS.length]!, critical: false });
export const defaultScoring = (): DraftScoring => ({ method: DEFAULT_SCORING.method, multiplier: "1", maxMissing: "", display: DEFAULT_SCORING.display });
export const emptyReliableChange = (): DraftReliableChange => ({ sd: "", reliability: "" });
export const emptySubscale = (): DraftSubscale => ({
  key: "",
  name: "",
  method: "SUM",
  multiplier: "",
  items: [],
  scoreRanges: [],
  reliableChange: emptyReliableChange(),
  remissionBelow: "",
});

export const emptyDraft = (): FormDraft => ({
  title: "",
  description: "",
  category: "",
  type: "",
  targetAudience: "",
  showResultToRespondent: false,
  shuffleQuestions: false,
  shuffleOptions: false,
  review: "NEVER",
  scoreRanges: [],
  questions: [emptyQuestion()],
  scoring: defaultScoring(),
  subscales: [],
  criticalMessage: "",
  reliableChange: emptyReliableChange(),
  remissionBelow: "",
  // The API's default: a form made in the editor and one made without it mean the same.
  lowerIsBetter: true,
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
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const list = (value: unknown, limit: number): Record<string, unknown>[] => (Array.isArray(value) ? value.slice(0, limit).map(record) : []);
/** Checkboxes of one name: none checked is absent, one is a string, more are a list. */
const values = (value: unknown, limit: number): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is string => typeof item === "string").slice(0, limit);
const oneOf = <T extends string>(value: unknown, choices: readonly T[], fallback: T): T => (choices.includes(value as T) ? (value as T) : fallback);

/** The most items of each list the API accepts; a post naming a later index is not read further. */
export const DRAFT_LIMITS = { questions: 200, options: 50, scoreRanges: 20, subscales: MAX_SUBSCALES, items: 200 } as const;

const rangeFromValue = (range: Record<string, unknown>): DraftRange => ({
  min: text(range.min),
  max: text(range.max),
  label: text(range.label),
  color: text(range.color) || "#000000",
  critical: checked(range.critical),
});

const reliableChangeFromValue = (value: unknown): DraftReliableChange => {
  const constants = record(value);
  return { sd: text(constants.sd), reliability: text(constants.reliability) };
};

/**
 * The posted value (as Conform parses the page's fields, or a draft the action answered with) as the
 * editor's draft: every value as typed, unknown shapes as empty.
 */
export function draftFromValue(value: Record<string, unknown> | undefined): FormDraft {
  const field = (name: string) => text(value?.[name]);
  const scoring = record(value?.scoring);
  const questions = list(value?.questions, DRAFT_LIMITS.questions);
  return {
    title: field("title"),
    description: field("description"),
    category: field("category"),
    type: field("type"),
    targetAudience: field("targetAudience"),
    showResultToRespondent: checked(value?.showResultToRespondent),
    shuffleQuestions: checked(value?.shuffleQuestions),
    shuffleOptions: checked(value?.shuffleOptions),
    review: oneOf(value?.review, REVIEW_POLICIES, "NEVER"),
    scoreRanges: list(value?.scoreRanges, DRAFT_LIMITS.scoreRanges).map(rangeFromValue),
    questions: questions.map((question, index) => {
      const scale = record(question.scale);
      return {
        id: text(question.id),
        // A post without refs (an older page) still names each question once.
        ref: text(question.ref) || text(question.id) || `row-${index + 1}`,
        key: text(question.key),
        text: text(question.text),
        type: oneOf(text(question.type), QUESTION_TYPES, "SINGLE_CHOICE"),
        required: checked(question.required),
        reverseScored: checked(question.reverseScored),
        scale: { min: text(scale.min), max: text(scale.max), minLabel: text(scale.minLabel), maxLabel: text(scale.maxLabel) },
        options: list(question.options, DRAFT_LIMITS.options).map((option) => ({
          id: text(option.id),
          text: text(option.text),
          score: text(option.score),
          critical: checked(option.critical),
          correct: checked(option.correct),
          feedback: text(option.feedback),
        })),
        points: text(question.points),
        scoringRule: oneOf(question.scoringRule, SCORING_RULES, "ALL_OR_NOTHING"),
        feedback: text(question.feedback),
      };
    }),
    scoring: {
      method: oneOf(scoring.method, ["SUM", "MEAN"] as const, DEFAULT_SCORING.method),
      multiplier: text(scoring.multiplier),
      maxMissing: text(scoring.maxMissing),
      display: oneOf(scoring.display, ["RAW", "PERCENT"] as const, DEFAULT_SCORING.display),
    },
    subscales: list(value?.subscales, DRAFT_LIMITS.subscales).map((subscale) => ({
      key: text(subscale.key),
      name: text(subscale.name),
      method: oneOf(subscale.method, ["SUM", "MEAN"] as const, "SUM"),
      multiplier: text(subscale.multiplier),
      items: values(subscale.items, DRAFT_LIMITS.items),
      scoreRanges: list(subscale.scoreRanges, DRAFT_LIMITS.scoreRanges).map(rangeFromValue),
      reliableChange: reliableChangeFromValue(subscale.reliableChange),
      remissionBelow: text(subscale.remissionBelow),
    })),
    criticalMessage: field("criticalMessage"),
    reliableChange: reliableChangeFromValue(value?.reliableChange),
    remissionBelow: field("remissionBelow"),
    // An unticked checkbox posts nothing: higher is better.
    lowerIsBetter: checked(value?.lowerIsBetter),
  };
}

const toNumber = (value: string) => (value.trim() === "" ? undefined : Number(value.replace(",", ".")));
/** A text left empty (or only spaces) is none. */
const optionalText = (value: string) => (value.trim() === "" ? null : value);

/**
 * A question's body for the API. An option's score left empty is 0, or on a scale with its range
 * set the point's value, as the editor's help says. A scale with its range set sends it, with the
 * points the teacher named or none, to be numbered from the range; a scale without a range is given
 * by its options, as any choice. Text questions lose any options left from another type, and are
 * never reverse scored.
 */
function questionBody(question: DraftQuestion) {
  const key = question.key.trim();
  const choice = question.type === "SINGLE_CHOICE" || question.type === "MULTIPLE_CHOICE";
  const base = {
    ...(question.id ? { id: question.id } : {}),
    text: question.text,
    type: question.type,
    required: question.required,
    key: key === "" ? null : key,
    reverseScored: question.type !== "TEXT" && question.reverseScored,
    // Points typed on a question whose type changed since are sent, for the schema to name them.
    points: toNumber(question.points) ?? null,
    scoringRule: question.type === "MULTIPLE_CHOICE" ? question.scoringRule : ("ALL_OR_NOTHING" as const),
    feedback: optionalText(question.feedback),
  };
  if (question.type === "TEXT") return { ...base, options: [] };
  const option = (o: DraftOption, empty: number | undefined) => ({
    ...(o.id ? { id: o.id } : {}),
    text: o.text,
    score: o.score.trim() === "" ? empty : toNumber(o.score),
    critical: o.critical,
    // A scale's points are no answer key.
    correct: choice && o.correct,
    feedback: optionalText(o.feedback),
  });
  const range = question.scale;
  if (question.type === "SCALE" && (range.min.trim() !== "" || range.max.trim() !== "")) {
    const min = toNumber(range.min);
    const named = question.options.filter((o) => o.text.trim() !== "");
    return {
      ...base,
      scale: { min, max: toNumber(range.max), minLabel: range.minLabel, maxLabel: range.maxLabel },
      options: named.map((o, i) => option(o, min === undefined ? undefined : min + i)),
    };
  }
  return { ...base, options: question.options.map((o) => option(o, 0)) };
}

const rangeBody = (range: DraftRange) => ({
  min: toNumber(range.min),
  max: toNumber(range.max),
  label: range.label,
  color: range.color,
  critical: range.critical,
});

/**
 * The constants as the API takes them: null when both are empty; one without the other is sent as
 * it is, for the schema to name the one missing.
 */
const reliableChangeBody = (constants: DraftReliableChange) =>
  constants.sd.trim() === "" && constants.reliability.trim() === "" ? null : { sd: toNumber(constants.sd), reliability: toNumber(constants.reliability) };

/** The total's scoring as the API takes it: null when every setting is the default, as a form that never set them. */
function scoringBody(scoring: DraftScoring) {
  const body = {
    method: scoring.method,
    multiplier: toNumber(scoring.multiplier) ?? DEFAULT_SCORING.multiplier,
    maxMissing: toNumber(scoring.maxMissing) ?? null,
    display: scoring.display,
  };
  const unchanged = (Object.keys(DEFAULT_SCORING) as (keyof typeof DEFAULT_SCORING)[]).every((name) => body[name] === DEFAULT_SCORING[name]);
  return unchanged ? null : body;
}

/** Each question's key as the API will know it: its own, or `q<position>` (docs/api-contract.md §15). */
export const draftKeys = (questions: readonly DraftQuestion[]) => questions.map((question, index) => questionKey({ key: question.key.trim() }, index));

/** The draft as the API's request body. A subscale's items, refs in the editor, become the keys of their questions. */
export function bodyFromDraft(draft: FormDraft, mode: "create" | "update") {
  const keys = draftKeys(draft.questions);
  const keyOf = new Map(draft.questions.map((question, index) => [question.ref, keys[index]!]));
  return {
    title: draft.title,
    description: draft.description,
    category: draft.category,
    type: draft.type,
    targetAudience: draft.targetAudience,
    showResultToRespondent: draft.showResultToRespondent,
    shuffleQuestions: draft.shuffleQuestions,
    shuffleOptions: draft.shuffleOptions,
    review: draft.review,
    ...(mode === "create" ? { isPublished: false } : {}),
    scoreRanges: draft.scoreRanges.map(rangeBody),
    questions: draft.questions.map(questionBody),
    scoring: scoringBody(draft.scoring),
    subscales: draft.subscales.map((subscale) => ({
      key: subscale.key.trim(),
      name: subscale.name,
      method: subscale.method,
      multiplier: toNumber(subscale.multiplier) ?? null,
      // A question removed since it was ticked is no item any more.
      items: subscale.items.flatMap((ref) => keyOf.get(ref) ?? []),
      scoreRanges: subscale.scoreRanges.map(rangeBody),
      reliableChange: reliableChangeBody(subscale.reliableChange),
      remissionBelow: toNumber(subscale.remissionBelow) ?? null,
    })),
    criticalMessage: draft.criticalMessage,
    reliableChange: reliableChangeBody(draft.reliableChange),
    remissionBelow: toNumber(draft.remissionBelow) ?? null,
    lowerIsBetter: draft.lowerIsBetter,
  };
}

const finite = (value: number | undefined): value is number => value !== undefined && Number.isFinite(value);

export type ScoredDraftQuestion = {
  type: QuestionType;
  required: boolean;
  reverseScored: boolean;
  /** Graded by its key when a number above 0 on a choice question (answer-key.ts). */
  points: number | null;
  scoringRule: ScoringRule;
  options: { text: string; score: number; critical: boolean; correct: boolean }[];
};

/**
 * A question as it will be stored, as typed so far: a scale's points numbered from its range once
 * it is whole and in order, options without a number left out. What the editor's live checks read.
 */
export function scoredDraftQuestion(question: DraftQuestion): ScoredDraftQuestion {
  const body = questionBody(question);
  const scale =
    "scale" in body && finite(body.scale.min) && finite(body.scale.max) && body.scale.max > body.scale.min
      ? { min: Math.trunc(body.scale.min), max: Math.trunc(body.scale.max) }
      : undefined;
  const options = body.options.filter((o) => finite(o.score)) as { text: string; score: number; critical: boolean; correct: boolean }[];
  const stored = storedOptions({ type: body.type, scale, options }).map((o) => ({ critical: false, correct: false, ...o }));
  const points = body.points !== null && Number.isFinite(body.points) && body.points > 0 ? body.points : null;
  return { type: body.type, required: body.required, reverseScored: body.reverseScored, points, scoringRule: body.scoringRule, options: stored };
}

/** The total's settings as the engine reads them, from the draft as typed (what cannot be read yet is the default). */
export function draftScoringSettings(scoring: Pick<DraftScoring, "method" | "multiplier" | "maxMissing">) {
  const multiplier = toNumber(scoring.multiplier);
  const maxMissing = toNumber(scoring.maxMissing);
  return {
    method: scoring.method,
    multiplier: finite(multiplier) && multiplier > 0 ? multiplier : DEFAULT_SCORING.multiplier,
    maxMissing: finite(maxMissing) && Number.isInteger(maxMissing) && maxMissing >= 0 ? maxMissing : DEFAULT_SCORING.maxMissing,
  };
}

/**
 * The totals the draft's questions can give, as typed so far, made as its scoring makes them: what
 * the editor shows live beside the total's bands.
 */
export function draftTotals(draft: FormDraft) {
  return achievableScores(draft.questions.map(scoredDraftQuestion), draftScoringSettings(draft.scoring));
}

/** The scores a subscale of the draft can give, as typed so far: its items' range with its own method and multiplier. */
export function draftSubscaleTotals(draft: FormDraft, subscale: DraftSubscale) {
  const items = new Set(subscale.items);
  const members = draft.questions.filter((question) => items.has(question.ref)).map(scoredDraftQuestion);
  const settings = draftScoringSettings({ method: subscale.method, multiplier: subscale.multiplier, maxMissing: draft.scoring.maxMissing });
  return achievableScores(members, settings);
}

/**
 * The smallest reliable change the constants typed so far make, in points, or null until both are
 * numbers in range: what the editor says under them.
 */
export function draftReliableThreshold(constants: DraftReliableChange): number | null {
  const sd = toNumber(constants.sd);
  const reliability = toNumber(constants.reliability);
  if (!finite(sd) || !finite(reliability) || sd <= 0 || reliability < 0 || reliability >= 1) return null;
  return reliableChangeThreshold({ sd, reliability });
}

/**
 * The single-choice and scale questions whose options all give one score (other than 0): they add
 * the same to every total, which is seldom meant (a Likert set whose scores were not typed). The
 * editor warns about them and asks before saving (ADR 74). A multiple choice whose options score
 * alike counts what was ticked, and a question whose options all score 0 is no item.
 */
export function oneScoreQuestions(questions: readonly ScoredDraftQuestion[]): number[] {
  return questions.flatMap((question, index) =>
    question.type !== "MULTIPLE_CHOICE" &&
    // A question graded by its key scores its points, whatever its options score.
    !isKeyed(question) &&
    question.options.length > 1 &&
    isScoredQuestion(question) &&
    question.options.every((option) => option.score === question.options[0]!.score)
      ? [index]
      : [],
  );
}

/**
 * "Apply these options to all questions": the options of question `from` (texts, scores, critical
 * marks) copied to every other question of its type, each keeping the ids of its own options by
 * position so that they stay the same options; a scale's range and end labels go with its points.
 * A change to the posted value, so Conform applies it in the browser and the action applies the
 * same without JavaScript.
 */
export function copyOptions(value: Record<string, unknown>, from: number): Record<string, unknown> {
  if (!Array.isArray(value.questions)) return value;
  const questions = value.questions as unknown[];
  const source = record(questions[from]);
  const type = text(source.type) || "SINGLE_CHOICE";
  if (type === "TEXT" || questions[from] === undefined) return value;
  const options = list(source.options, DRAFT_LIMITS.options);
  return {
    ...value,
    questions: questions.map((item, index) => {
      const question = record(item);
      if (index === from || (text(question.type) || "SINGLE_CHOICE") !== type) return item;
      const own = list(question.options, DRAFT_LIMITS.options);
      return {
        ...question,
        options: options.map((option, position) => ({ ...option, id: text(own[position]?.id) })),
        ...(type === "SCALE" ? { scale: source.scale } : {}),
      };
    }),
  };
}

/** The questions "Apply these options" from question `from` would change: the others of its type. */
export const copyTargets = (questions: readonly { type: QuestionType }[], from: number): number[] =>
  questions[from]?.type === "TEXT" ? [] : questions.flatMap((question, index) => (index !== from && question.type === questions[from]?.type ? [index] : []));

/** The editor's own list intent, beside Conform's insert, remove and reorder (ADR 74). */
export const EDITOR_INTENTS = {
  copyOptions: defineIntent<(payload: { from: number }) => void>({
    parse(payload: unknown) {
      const from = record(payload).from;
      if (typeof from !== "number" || !Number.isInteger(from) || from < 0) throw new Error("Invalid copyOptions arguments");
      return { from };
    },
    resolve: ({ value, payload }) => copyOptions(value, payload.from) as typeof value,
  }),
};

/**
 * An existing form as the editor's draft. A scale whose points are just its numbers shows no
 * points (they follow the range as it changes); one with labels, scores or critical marks of its
 * own shows them.
 */
export function draftFromQuestion(question: {
  id: string;
  key: string;
  text: string;
  type: QuestionType;
  required: boolean;
  reverseScored: boolean;
  scale: { min: number; max: number; minLabel: string | null; maxLabel: string | null } | null;
  points: number | null;
  scoringRule: ScoringRule;
  feedback: string | null;
  options: { id: string; text: string; score: number; critical: boolean; correct: boolean; feedback: string | null }[];
}): DraftQuestion {
  const { scale } = question;
  const numbered = scale !== null && question.options.every((o, i) => o.text === String(scale.min + i) && o.score === scale.min + i && !o.critical);
  return {
    id: question.id,
    ref: question.id,
    key: question.key,
    text: question.text,
    type: question.type,
    required: question.required,
    reverseScored: question.reverseScored,
    scale: scale
      ? { min: String(scale.min), max: String(scale.max), minLabel: scale.minLabel ?? "", maxLabel: scale.maxLabel ?? "" }
      : { min: "", max: "", minLabel: "", maxLabel: "" },
    options: numbered
      ? []
      : question.options.map((option) => ({
          id: option.id,
          text: option.text,
          score: String(option.score),
          critical: option.critical,
          correct: option.correct,
          feedback: option.feedback ?? "",
        })),
    points: question.points === null ? "" : String(question.points),
    scoringRule: question.scoringRule,
    feedback: question.feedback ?? "",
  };
}
