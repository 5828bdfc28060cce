import type { QuestionType } from "../forms/question-types.ts";

/**
 * Whether questions have answers: for the respondent's progress ("7 of 20 answered", on the server
 * and in the browser) and for the required check when a test is submitted. No server code, so the
 * test page can count as the respondent goes.
 */
type Answer = { questionId: string; optionIds?: string[] | undefined; text?: string | null | undefined };

export const isChoice = (type: QuestionType) => type !== "TEXT";

/** Whether a question has an answer: an option chosen, or text that is not blank. */
export function isAnswered(question: { type: QuestionType }, answer: Answer | undefined): boolean {
  return isChoice(question.type) ? (answer?.optionIds?.length ?? 0) > 0 : typeof answer?.text === "string" && answer.text.trim() !== "";
}

/** "7 of 20 answered": the respondent's progress through a test. */
export function answeredCount(questions: readonly { id: string; type: QuestionType }[], answers: readonly Answer[]): { answered: number; total: number } {
  const given = new Map(answers.map((answer) => [answer.questionId, answer]));
  return { answered: questions.filter((question) => isAnswered(question, given.get(question.id))).length, total: questions.length };
}
