import type { Dictionary } from "~/i18n/dictionaries.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { fieldMessage, fieldText } from "~/lib/messages.ts";
import type { FieldProblem } from "~/lib/problem.server.ts";
import { answeredCount } from "../scoring/answered.ts";
import type { QuestionType } from "../forms/question-types.ts";
import type { Scale } from "../forms/scale.ts";

/**
 * The respondent's page form: one field per question, `q_<questionId>` (the option ids chosen,
 * or the text written). Its rules come from the test itself, so they are derived per test rather
 * than from a fixed schema; the answers are then checked by the same service as the API.
 */
/** An image shown with a question or an option (docs/api-contract.md §22): its URL for this viewer, and its alt text. */
export type TestImage = { url: string; alt: string } | null;

/** What the test form shows: the public link's test (`openTestLink`), or a form a teacher previews. */
export type TestView = {
  form: {
    title: string;
    description: string | null;
    questions: {
      id: string;
      text: string;
      type: QuestionType;
      required: boolean;
      scale: Scale | null;
      options: { id: string; text: string; image?: TestImage }[];
      image?: TestImage;
    }[];
  };
  respondent: { name: string };
  progress: { answered: number; total: number };
  draft?: { answers: { questionId: string; optionIds?: string[] | undefined; text?: string | null | undefined }[] } | undefined;
};
type Question = TestView["form"]["questions"][number];

export const answerField = (questionId: string) => `q_${questionId}`;

/** What the browser checks before posting: each required question answered, said as the server says it. */
export function answersValidation(test: TestView, t: Dictionary): ClientValidation {
  const required = fieldText(t, fieldMessage("answerRequired"));
  const validation: ClientValidation = { constraint: {}, messages: {} };
  for (const question of test.form.questions) {
    validation.constraint[answerField(question.id)] = { required: question.required };
    if (question.required) validation.messages[answerField(question.id)] = { required };
  }
  return validation;
}

/** The posted fields as the API's answers. */
export function answersFrom(questions: readonly Question[], formData: FormData) {
  return questions.map((question) => {
    const given = formData.getAll(answerField(question.id)).filter((value): value is string => typeof value === "string");
    return question.type === "TEXT" ? { questionId: question.id, text: given[0] ?? "" } : { questionId: question.id, optionIds: given.filter(Boolean) };
  });
}

/** The service's problems by answer field, in the page's language (the first one of each question). */
export function errorsByQuestion(t: Dictionary, problems: readonly FieldProblem[], answers: readonly { questionId: string }[]) {
  const errors: Record<string, string> = {};
  for (const problem of problems) {
    const [root, key] = problem.path.split(".");
    const questionId = root === "questions" ? key : answers[Number(key)]?.questionId;
    if (questionId) errors[answerField(questionId)] ??= fieldText(t, problem.key);
  }
  return errors;
}

/** The saved draft's answers as the form's default values, so a link opened again shows them. */
export function draftDefaults(test: TestView): Record<string, string | string[]> {
  const defaults: Record<string, string | string[]> = {};
  const byId = new Map(test.form.questions.map((question) => [question.id, question]));
  for (const answer of test.draft?.answers ?? []) {
    const question = byId.get(answer.questionId);
    if (!question) continue;
    defaults[answerField(question.id)] = question.type === "TEXT" ? (answer.text ?? "") : (answer.optionIds ?? []);
  }
  return defaults;
}

/** How many questions the form's current fields answer (the progress bar, updated as the respondent goes). */
export function answeredInForm(questions: readonly Question[], form: HTMLFormElement): number {
  return answeredCount(questions, answersFrom(questions, new FormData(form))).answered;
}
