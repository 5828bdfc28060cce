/** The kinds of question a form holds (a constant pages need, kept apart from the Zod schemas). */
export const QUESTION_TYPES = ["SINGLE_CHOICE", "MULTIPLE_CHOICE", "SCALE", "TEXT"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
