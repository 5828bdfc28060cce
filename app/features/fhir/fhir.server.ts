import { z } from "zod";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { ApiError, badRequest, type FieldProblem, fieldProblems } from "~/lib/problem.server.ts";
import { createFormBody } from "../forms/form-schemas.ts";
import { createForm, type FormDetail, getForm } from "../forms/forms.server.ts";
import { getReport, recordReportRead } from "../reports/reports.server.ts";
import { readScoredAgainst } from "../submissions/scored-against.ts";
import { fhirQuestionnaire } from "./fhir-schemas.ts";
import { formToQuestionnaire } from "./questionnaire.ts";
import { questionnaireToForm, unsupported } from "./questionnaire-import.ts";
import { resultToQuestionnaireResponse } from "./questionnaire-response.ts";

/**
 * FHIR R4 for the forms and results a caller can read (docs/api-contract.md §17, docs/fhir.md):
 * the reads go through `getForm` and `getReport`, so their scope is those endpoints' (another
 * organization's id is a 404), and an import creates the form through `createForm`.
 */

/** A form the caller can read, as a Questionnaire. */
export async function questionnaireOf(actor: Actor, formId: string) {
  return formToQuestionnaire(await getForm(actor, formId), env().APP_URL);
}

/** `item.3.answerOption.0` as FHIR writes a path: `item[3].answerOption[0]`. */
const fhirPath = (segments: readonly PropertyKey[]) =>
  segments.reduce<string>((path, segment) => (typeof segment === "number" ? `${path}[${segment}]` : path ? `${path}.${String(segment)}` : String(segment)), "");

/** Problems named by the elements of the Questionnaire they come from; the detail names the first. */
function problemsAt(problems: readonly FieldProblem[], sourceOf: (path: string) => string): ApiError {
  const named = problems.map((problem) => ({ ...problem, path: sourceOf(problem.path) }));
  const first = named[0];
  return badRequest(first ? `${first.path}: ${first.message}` : "The Questionnaire cannot be made into a form.", named);
}

/**
 * Creates a form of the caller's organization from a Questionnaire (`value`, the parsed JSON
 * body). 400 UNSUPPORTED_FHIR_ELEMENT names the first element the form cannot hold; 400
 * VALIDATION_FAILED names the elements the form's own checks refuse.
 */
export async function importQuestionnaire(actor: Actor, value: unknown): Promise<FormDetail> {
  const resourceType = value && typeof value === "object" && "resourceType" in value ? value.resourceType : undefined;
  if (resourceType !== "Questionnaire") throw unsupported("resourceType", resourceType ?? null);
  const parsed = fhirQuestionnaire.safeParse(value);
  if (!parsed.success) throw problemsAt(fieldProblems(parsed.error.issues.map((issue) => ({ ...issue, path: [fhirPath(issue.path)] }))), (path) => path);
  const { body, sourceOf } = questionnaireToForm(parsed.data);
  const input = createFormBody.safeParse(body);
  if (!input.success) throw problemsAt(fieldProblems(input.error.issues), sourceOf);
  try {
    return await createForm(actor, input.data, { source: { from: "fhir" } });
  } catch (error) {
    // The scoring checks of createForm name the form's fields.
    if (error instanceof ApiError && error.status === 400 && error.errors?.length) throw problemsAt(error.errors, sourceOf);
    throw error;
  }
}

const stringList = z.array(z.string());

/** A completed result the caller can read, as a QuestionnaireResponse with its scores as Observations. */
export async function questionnaireResponseOf(actor: Actor, submissionId: string) {
  const report = await getReport(actor, submissionId);
  const stored = await db.submission.findUniqueOrThrow({
    where: { id: report.id },
    select: {
      scoredAgainst: true,
      answers: { orderBy: { position: "asc" }, select: { questionId: true, questionText: true, optionIds: true, optionTexts: true, text: true } },
    },
  });
  const resource = resultToQuestionnaireResponse(
    {
      ...report,
      scoredAgainst: readScoredAgainst(stored.scoredAgainst),
      answers: stored.answers.map((answer) => ({
        ...answer,
        optionIds: stringList.parse(answer.optionIds),
        optionTexts: stringList.parse(answer.optionTexts),
      })),
    },
    env().APP_URL,
  );
  await recordReportRead(actor, report, "report.read", { format: "fhir" });
  return resource;
}
