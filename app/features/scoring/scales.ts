import { fieldProblem, type FieldProblem } from "~/lib/problem.server.ts";
import { questionMaxScore, sumScores } from "./achievable.ts";
import { isAnswered, isChoice } from "./answered.ts";
import { isKeyed, keyedScore, type ScoringRule } from "./answer-key.ts";
import { aggregate, isScoredQuestion, mirroredScore, questionKey } from "./items.ts";
import { DEFAULT_SCORING, KEY_PATTERN, MAX_SUBSCALES, type ScoreDisplay, type ScoringMethod, type ScoringSettings } from "./scale-limits.ts";
import { answerProblems, bandFor, type GivenAnswer, percentageOf, type ScoreBand, type ScoringOption, type ScoringQuestion } from "./scoring.ts";

/**
 * Scoring beyond one total (docs/api-contract.md §15, §16): question keys, reverse-scored items,
 * subscales, MEAN, a multiplier, proration of missing items, and the flags a critical option or a
 * critical band raises. Pure functions, like `scoreAnswers` beside it: a form without any of the
 * new fields scores here exactly as it scores there (ADR 67).
 */

export { DEFAULT_SCORING, type ScoreDisplay, type ScoringMethod, type ScoringSettings } from "./scale-limits.ts";

export type ScaleBand = ScoreBand & { critical?: boolean | undefined };
export type ScaleOption = ScoringOption & { critical?: boolean | undefined; correct?: boolean | undefined };
export type ScaleQuestion = Omit<ScoringQuestion, "options"> & {
  key?: string | null | undefined;
  reverseScored?: boolean | undefined;
  /** Graded by its key (answer-key.ts): the points a correct answer earns. */
  points?: number | null | undefined;
  scoringRule?: ScoringRule | undefined;
  options: ScaleOption[];
};
export type Subscale = {
  key: string;
  name: string;
  items: string[];
  method: ScoringMethod;
  multiplier?: number | null | undefined;
  scoreRanges?: ScaleBand[] | undefined;
};

/** What scoring needs of a form: its questions in order, the total's bands and the §15 fields. */
export type ScaleForm = {
  questions: ScaleQuestion[];
  scoreRanges: ScaleBand[];
  scoring?: Partial<ScoringSettings> | null | undefined;
  subscales?: Subscale[] | null | undefined;
};

export type Flag = { kind: "OPTION" | "BAND"; questionKey?: string; subscaleKey?: string; text: string };

/** One total or subscale: `score` is null (and `scorable` false) when more items are missing than the form allows. */
export type ScaleScore = {
  score: number | null;
  maxScore: number;
  label: string | null;
  color: string | null;
  answered: number;
  items: number;
  prorated: boolean;
  scorable: boolean;
};

export type SubscaleScore = ScaleScore & { key: string; name: string };

export type ScaleAnswer = {
  questionId: string;
  key: string;
  position: number;
  optionIds: string[];
  /** The score the answer counts for: mirrored when the question is reverse scored. */
  score: number;
  /** The chosen options' own scores added up, before any mirroring: what the editor shows beside it. */
  rawScore: number;
  maxScore: number;
  answered: boolean;
};

export type ScaleResult = {
  answers: ScaleAnswer[];
  total: ScaleScore & { percentage: number | null; display: ScoreDisplay };
  subscales: SubscaleScore[];
  flags: Flag[];
};

export { KEY_PATTERN, MAX_SUBSCALES } from "./scale-limits.ts";
export { aggregate, isScoredQuestion, mirroredScore, questionKey } from "./items.ts";

/** The score one option counts for on its question. */
export function optionScore(question: { reverseScored?: boolean | undefined; options: readonly { score: number }[] }, option: { score: number }): number {
  return question.reverseScored
    ? mirroredScore(
        option.score,
        question.options.map((o) => o.score),
      )
    : option.score;
}

/**
 * The band a score falls in. A prorated or averaged score can fall between two bands with whole
 * bounds (9.33 between 0–9 and 10–13): cut-offs are thresholds, so it reads as the band its whole
 * part is in. Bands with fractional bounds, and gaps wider than one, are matched as they are.
 */
export function bandForScore<Band extends ScoreBand>(score: number, bands: readonly Band[]): Band | null {
  const exact = bandFor(score, bands as Band[]) as Band | null;
  if (exact || Number.isInteger(score)) return exact;
  if (!bands.every((band) => Number.isInteger(band.min) && Number.isInteger(band.max))) return null;
  return bandFor(Math.floor(score), bands as Band[]) as Band | null;
}

const settingsOf = (form: ScaleForm): ScoringSettings => ({
  method: form.scoring?.method ?? DEFAULT_SCORING.method,
  multiplier: form.scoring?.multiplier ?? DEFAULT_SCORING.multiplier,
  maxMissing: form.scoring?.maxMissing ?? DEFAULT_SCORING.maxMissing,
  display: form.scoring?.display ?? DEFAULT_SCORING.display,
});

function banded(score: Omit<ScaleScore, "label" | "color">, bands: readonly ScaleBand[]): { scale: ScaleScore; band: ScaleBand | null } {
  const band = score.score === null ? null : bandForScore(score.score, bands);
  return { scale: { ...score, label: band?.label ?? null, color: band?.color ?? null }, band };
}

/**
 * Scores valid answers (check `answerProblems` and `scoringProblems` first): the total, each
 * subscale, and the flags. Subscale items that name no scored question are left out.
 */
export function scoreForm(form: ScaleForm, answers: readonly GivenAnswer[]): ScaleResult {
  const settings = settingsOf(form);
  const given = new Map(answers.map((answer) => [answer.questionId, answer]));
  const flags: Flag[] = [];
  const scored = form.questions.map((question, position): ScaleAnswer & { item: boolean } => {
    const key = questionKey(question, position);
    const answer = given.get(question.id);
    const chosen = isChoice(question.type) ? question.options.filter((option) => answer?.optionIds?.includes(option.id)) : [];
    for (const option of chosen) {
      if (option.critical) flags.push({ kind: "OPTION", questionKey: key, text: `${question.text} — ${option.text}` });
    }
    const keyed = isKeyed(question)
      ? keyedScore(
          question,
          chosen.map((option) => option.id),
        )
      : null;
    return {
      questionId: question.id,
      key,
      position,
      optionIds: chosen.map((option) => option.id),
      score: keyed ?? sumScores(chosen.map((option) => optionScore(question, option))),
      rawScore: keyed ?? sumScores(chosen.map((option) => option.score)),
      maxScore: questionMaxScore(question),
      answered: isAnswered(question, answer),
      item: isScoredQuestion(question),
    };
  });
  const items = scored.filter((answer) => answer.item);
  const totalScore = aggregate(
    items.map((answer) => (answer.answered ? answer.score : null)),
    items.map((answer) => answer.maxScore),
    settings,
  );
  const total = banded(totalScore, form.scoreRanges);
  if (total.band?.critical) flags.push({ kind: "BAND", text: total.band.label });

  const byKey = new Map(items.map((answer) => [answer.key, answer]));
  const subscales = (form.subscales ?? []).map((subscale): SubscaleScore => {
    const members = [...new Set(subscale.items)].flatMap((itemKey) => byKey.get(itemKey) ?? []);
    const score = aggregate(
      members.map((answer) => (answer.answered ? answer.score : null)),
      members.map((answer) => answer.maxScore),
      { method: subscale.method, multiplier: subscale.multiplier ?? 1, maxMissing: settings.maxMissing },
    );
    const { scale, band } = banded(score, subscale.scoreRanges ?? []);
    if (band?.critical) flags.push({ kind: "BAND", subscaleKey: subscale.key, text: `${subscale.name}: ${band.label}` });
    return { key: subscale.key, name: subscale.name, ...scale };
  });

  return {
    answers: scored.map(({ item: _item, ...answer }) => answer),
    total: {
      ...total.scale,
      percentage: total.scale.score === null ? null : percentageOf(total.scale.score, total.scale.maxScore),
      display: settings.display,
    },
    subscales,
    flags,
  };
}

/**
 * Every problem with a form's scoring configuration, each pointing at its field as `answerProblems`
 * does: question keys that are malformed or repeated, more than 20 subscales, subscale keys that
 * are malformed or repeated, and subscale items that are not keys of the form's scored questions.
 */
export function scoringProblems(form: {
  questions: readonly { key?: string | null | undefined; type: ScoringQuestion["type"]; options: readonly { score: number }[] }[];
  subscales?: ScaleForm["subscales"];
}): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const keys = new Map<string, number>();
  form.questions.forEach((question, index) => {
    const key = questionKey(question, index);
    if (question.key !== undefined && question.key !== null && !KEY_PATTERN.test(question.key)) {
      problems.push(fieldProblem(`questions.${index}.key`, "keyFormat"));
    } else if (keys.has(key)) {
      problems.push(fieldProblem(`questions.${index}.key`, "keyTwice"));
    }
    if (!keys.has(key)) keys.set(key, index);
  });
  const subscales = form.subscales ?? [];
  if (subscales.length > MAX_SUBSCALES) problems.push(fieldProblem("subscales", "tooMany", String(MAX_SUBSCALES)));
  const subscaleKeys = new Set<string>();
  subscales.forEach((subscale, index) => {
    const at = (field: string) => `subscales.${index}.${field}`;
    if (!KEY_PATTERN.test(subscale.key)) problems.push(fieldProblem(at("key"), "keyFormat"));
    else if (subscaleKeys.has(subscale.key)) problems.push(fieldProblem(at("key"), "keyTwice"));
    subscaleKeys.add(subscale.key);
    if (subscale.items.length === 0) problems.push(fieldProblem(at("items"), "tooFew", "1"));
    const seen = new Set<string>();
    subscale.items.forEach((item, itemIndex) => {
      const question = keys.has(item) ? form.questions[keys.get(item)!] : undefined;
      if (!question || !isScoredQuestion(question)) problems.push(fieldProblem(at(`items.${itemIndex}`), "notAScoredQuestion"));
      else if (seen.has(item)) problems.push(fieldProblem(at(`items.${itemIndex}`), "itemTwice"));
      seen.add(item);
    });
    (subscale.scoreRanges ?? []).forEach((band, bandIndex) => {
      if (band.min > band.max) problems.push(fieldProblem(at(`scoreRanges.${bandIndex}.max`), "maxBelowMin"));
    });
  });
  return problems;
}

/**
 * Whether the respondent must answer `question` whatever else they answer: a required question,
 * unless it is a scored item of a form that lets some be missing (`scoring.maxMissing`), which the
 * link shows as optional and the submit checks all together (`submitProblems`).
 */
export function requiredOnTheLink(
  form: Pick<ScaleForm, "scoring">,
  question: { required: boolean; type: ScoringQuestion["type"]; options: readonly { score: number }[] },
): boolean {
  return question.required && !(form.scoring?.maxMissing && isScoredQuestion(question));
}

/**
 * `answerProblems` for a completed submit of `form`: with `scoring.maxMissing` set, as many scored
 * items as it allows may be left unanswered even when required (docs/api-contract.md §15); more
 * leave every required one among them asked for, as before.
 */
export function submitProblems(form: ScaleForm, answers: GivenAnswer[]): FieldProblem[] {
  const maxMissing = form.scoring?.maxMissing ?? null;
  const questions = form.questions as ScoringQuestion[];
  if (!maxMissing) return answerProblems(questions, answers);
  const given = new Map(answers.map((answer) => [answer.questionId, answer]));
  const missing = questions.filter((question) => isScoredQuestion(question) && !isAnswered(question, given.get(question.id)));
  if (missing.length > maxMissing) return answerProblems(questions, answers);
  const excused = new Set(missing.map((question) => question.id));
  return answerProblems(
    questions.map((question) => (excused.has(question.id) ? { ...question, required: false } : question)),
    answers,
  );
}
