import { fieldProblem, type FieldProblem } from "~/lib/problem.server.ts";
import type { QuestionType } from "../forms/question-types.ts";
import { questionMaxScore, roundTo2, sumScores as sum } from "./achievable.ts";
import { isAnswered, isChoice } from "./answered.ts";

export { answeredCount, isAnswered } from "./answered.ts";

/**
 * The one scoring implementation (docs/api-contract.md §3), used when a test is submitted. Reports and PDFs
 * read the scores it stored, so a result never changes after completion. Pure functions: no
 * database, no clock.
 */

export type ScoringOption = { id: string; text: string; score: number };
export type ScoringQuestion = { id: string; text: string; type: QuestionType; required: boolean; options: ScoringOption[] };
export type ScoreBand = { min: number; max: number; label: string; color: string };
export type GivenAnswer = { questionId: string; optionIds?: string[] | undefined; text?: string | null | undefined };

export type ScoredAnswer = {
  questionId: string;
  position: number;
  questionText: string;
  questionType: QuestionType;
  optionIds: string[];
  optionTexts: string[];
  text: string | null;
  score: number;
  maxScore: number;
};

export type ScoredResult = {
  answers: ScoredAnswer[];
  totalScore: number;
  maxScore: number;
  percentage: number;
  scoreLabel: string | null;
  scoreColor: string | null;
};

const single = (type: QuestionType) => type === "SINGLE_CHOICE" || type === "SCALE";

export function bandFor(total: number, bands: ScoreBand[]): ScoreBand | null {
  return bands.find((band) => band.min <= total && total <= band.max) ?? null;
}

export function percentageOf(total: number, max: number): number {
  return max === 0 ? 0 : roundTo2((total / max) * 100);
}

/**
 * Every problem with a set of answers, each pointing at the answer (or the question) it belongs
 * to: unknown or repeated questions, options of another question, several options for a
 * single-choice question, text for a choice question, and required questions left unanswered.
 */
export function answerProblems(questions: ScoringQuestion[], answers: GivenAnswer[], options: { complete?: boolean } = {}): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const byId = new Map(questions.map((q) => [q.id, q]));
  const seen = new Set<string>();
  answers.forEach((answer, index) => {
    const at = (field?: string) => `answers.${index}${field ? `.${field}` : ""}`;
    const question = byId.get(answer.questionId);
    if (!question) {
      problems.push(fieldProblem(at("questionId"), "notAQuestion"));
      return;
    }
    if (seen.has(question.id)) {
      problems.push(fieldProblem(at("questionId"), "answeredTwice"));
      return;
    }
    seen.add(question.id);
    const optionIds = answer.optionIds ?? [];
    if (!isChoice(question.type)) {
      if (optionIds.length > 0) problems.push(fieldProblem(at("optionIds"), "textNotOptions"));
      return;
    }
    if (answer.text !== undefined && answer.text !== null && answer.text !== "") {
      problems.push(fieldProblem(at("text"), "optionsNotText"));
    }
    const own = new Set(question.options.map((o) => o.id));
    optionIds.forEach((id, i) => {
      if (!own.has(id)) problems.push(fieldProblem(at(`optionIds.${i}`), "notAnOption"));
    });
    if (new Set(optionIds).size !== optionIds.length) problems.push(fieldProblem(at("optionIds"), "optionTwice"));
    if (single(question.type) && optionIds.length > 1) problems.push(fieldProblem(at("optionIds"), "chooseOne"));
  });
  // A draft (`complete: false`) may leave required questions for later.
  for (const question of questions) {
    if (!question.required || options.complete === false) continue;
    const index = answers.findIndex((a) => a.questionId === question.id);
    const answer = answers[index];
    if (!isAnswered(question, answer)) {
      problems.push(fieldProblem(index === -1 ? `questions.${question.id}` : `answers.${index}`, "answerRequired"));
    }
  }
  return problems;
}

/** Scores valid answers (check `answerProblems` first). Unanswered questions score 0. */
export function scoreAnswers(questions: ScoringQuestion[], bands: ScoreBand[], answers: GivenAnswer[]): ScoredResult {
  const given = new Map(answers.map((a) => [a.questionId, a]));
  const scored = questions.map((question, position): ScoredAnswer => {
    const answer = given.get(question.id);
    const chosen = isChoice(question.type) ? question.options.filter((o) => answer?.optionIds?.includes(o.id)) : [];
    const text = !isChoice(question.type) && typeof answer?.text === "string" && answer.text.trim() !== "" ? answer.text : null;
    return {
      questionId: question.id,
      position,
      questionText: question.text,
      questionType: question.type,
      optionIds: chosen.map((o) => o.id),
      optionTexts: chosen.map((o) => o.text),
      text,
      score: sum(chosen.map((o) => o.score)),
      maxScore: questionMaxScore(question),
    };
  });
  const totalScore = sum(scored.map((a) => a.score));
  const maxScore = sum(scored.map((a) => a.maxScore));
  const band = bandFor(totalScore, bands);
  return {
    answers: scored,
    totalScore,
    maxScore,
    percentage: percentageOf(totalScore, maxScore),
    scoreLabel: band?.label ?? null,
    scoreColor: band?.color ?? null,
  };
}
