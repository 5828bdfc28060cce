import type { Observation, QuestionnaireResponse, QuestionnaireResponseItem, QuestionnaireResponseItemAnswer, Reference } from "fhir/r4";
import { questionKey, type Flag } from "../scoring/scales.ts";
import { DATA_ABSENT_REASON, OBSERVATION_CATEGORY, OBSERVATION_INTERPRETATION, UCUM } from "./fhir-extensions.ts";
import { optionCode, questionnaireUrl } from "./questionnaire.ts";

/**
 * A completed result as a FHIR R4 QuestionnaireResponse (docs/api-contract.md §17, docs/fhir.md):
 * the answers by the linkId of their question as it was scored (its key), each chosen option as
 * the coding its form's Questionnaire gives it, and the total and each subscale as contained
 * Observations with the band's label as their interpretation. Everything comes from what the
 * result stored at completion, so the answer never changes when the form is edited (ADR 5).
 * Pure: the service reads the result in the caller's scope.
 */

type Band = { min: number; max: number; label: string; critical?: boolean | undefined };

export type ResponseSource = {
  id: string;
  completedAt: Date;
  form: { id: string; title: string };
  respondent: { kind: "student" | "candidate"; id: string; name: string };
  totalScore: number | null;
  scoreLabel: string | null;
  subscales: readonly { key: string; name: string; score: number | null; label: string | null }[];
  flags: readonly Flag[];
  /** What the result was scored against: its questions with their options, the total's bands and the subscales'. */
  scoredAgainst: {
    questions: readonly { id: string; key?: string | null | undefined; options: readonly { id: string }[] }[];
    scoreRanges: readonly Band[];
    subscales: readonly { key: string; scoreRanges: readonly Band[] }[];
  };
  /** The stored answers, in the form's order. */
  answers: readonly { questionId: string; questionText: string; optionIds: readonly string[]; optionTexts: readonly string[]; text: string | null }[];
};

function answerItems(source: ResponseSource): QuestionnaireResponseItem[] {
  const questions = new Map(source.scoredAgainst.questions.map((question, index) => [question.id, { question, key: questionKey(question, index) }]));
  return source.answers.flatMap((answer, position): QuestionnaireResponseItem[] => {
    const found = questions.get(answer.questionId);
    const key = found?.key ?? questionKey({}, position);
    const chosen: QuestionnaireResponseItemAnswer[] = answer.optionIds.map((optionId, index) => {
      const at = found?.question.options.findIndex((option) => option.id === optionId) ?? -1;
      return { valueCoding: { ...(at === -1 ? {} : { code: optionCode(key, at) }), display: answer.optionTexts[index] ?? "" } };
    });
    const written = answer.text?.trim() ? [{ valueString: answer.text }] : [];
    const given = [...chosen, ...written];
    // An unanswered question has no item (FHIR: items without answers are left out).
    return given.length === 0 ? [] : [{ linkId: key, text: answer.questionText, answer: given }];
  });
}

type Score = { id: string; code: string; name: string; score: number | null; label: string | null; critical: boolean; bands: readonly Band[] };

function scoreObservation(score: Score, source: ResponseSource, subject: Reference | undefined, system: string): Observation {
  const completed = source.completedAt.toISOString();
  return {
    resourceType: "Observation",
    id: score.id,
    status: "final",
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: "survey", display: "Survey" }] }],
    code: { coding: [{ system, code: score.code, display: score.name }], text: score.name },
    ...(subject ? { subject } : {}),
    effectiveDateTime: completed,
    issued: completed,
    ...(score.score === null
      ? // More items missing than the form allows: the score was not made (docs/api-contract.md §15).
        { dataAbsentReason: { coding: [{ system: DATA_ABSENT_REASON, code: "not-performed" }] } }
      : { valueQuantity: { value: score.score, unit: "score", system: UCUM, code: "{score}" } }),
    ...(score.label
      ? {
          interpretation: [
            {
              ...(score.critical ? { coding: [{ system: OBSERVATION_INTERPRETATION, code: "AA", display: "Critical abnormal" }] } : {}),
              text: score.label,
            },
          ],
        }
      : {}),
    ...(score.bands.length > 0
      ? { referenceRange: score.bands.map((band) => ({ low: { value: band.min }, high: { value: band.max }, text: band.label })) }
      : {}),
    // The response that contains it.
    derivedFrom: [{ reference: "#" }],
  };
}

/** The result as a QuestionnaireResponse; `baseUrl` is the service's address (`APP_URL`). */
export function resultToQuestionnaireResponse(source: ResponseSource, baseUrl: string): QuestionnaireResponse {
  const questionnaire = questionnaireUrl(baseUrl, source.form.id);
  const { kind, id, name } = source.respondent;
  // A result the retention policy took off its respondent (ADR 89) is about no one: no subject.
  const subject: Reference | undefined = id ? { identifier: { system: `${baseUrl}/api/${kind}s`, value: id }, display: name } : undefined;
  const criticalBand = (subscaleKey?: string) => source.flags.some((flag) => flag.kind === "BAND" && flag.subscaleKey === subscaleKey);
  const bandsOf = new Map(source.scoredAgainst.subscales.map((subscale) => [subscale.key, subscale.scoreRanges]));
  const scores: Score[] = [
    {
      id: "total",
      code: "total",
      name: source.form.title,
      score: source.totalScore,
      label: source.scoreLabel,
      critical: criticalBand(),
      bands: source.scoredAgainst.scoreRanges,
    },
    // Contained ids allow no "_", which a subscale's key may hold: they are numbered instead.
    ...source.subscales.map((subscale, index) => ({
      id: `subscale-${index + 1}`,
      code: `subscale:${subscale.key}`,
      name: subscale.name,
      score: subscale.score,
      label: subscale.label,
      critical: criticalBand(subscale.key),
      bands: bandsOf.get(subscale.key) ?? [],
    })),
  ];
  const items = answerItems(source);
  return {
    resourceType: "QuestionnaireResponse",
    id: source.id,
    contained: scores.map((score) => scoreObservation(score, source, subject, questionnaire)),
    questionnaire,
    status: "completed",
    ...(subject ? { subject } : {}),
    authored: source.completedAt.toISOString(),
    ...(items.length > 0 ? { item: items } : {}),
  };
}
