import type { Extension, Questionnaire, QuestionnaireItem, QuestionnaireItemAnswerOption } from "fhir/r4";
import type { QuestionType } from "../forms/question-types.ts";
import { optionScore, type ScoringSettings } from "../scoring/scales.ts";
import { EXTENSION, ORDINAL_VALUE } from "./fhir-extensions.ts";

/**
 * A form as a FHIR R4 Questionnaire (docs/api-contract.md §17, docs/fhir.md): each question an
 * item whose `linkId` is its key, each option an `answerOption.valueCoding` whose `ordinalValue`
 * is the score it counts for (mirrored on a reverse-scored item), and what FHIR has no element for
 * (bands, subscales, the scoring settings, critical options) in our extensions, so that
 * `questionnaireToForm` reads back a form that scores every answer the same (ADR 73). Pure: the
 * caller gives the form as the API reads it and the service's address.
 */

type Band = { min: number; max: number; label: string; color: string; critical?: boolean | undefined };

/** What the export reads of a form: `FormDetail` (app/features/forms/forms.server.ts) has it all. */
export type QuestionnaireSource = {
  id: string;
  title: string;
  description: string | null;
  category: string | null;
  type: string | null;
  targetAudience: string | null;
  isPublished: boolean;
  updatedAt: Date;
  questions: readonly {
    text: string;
    type: QuestionType;
    required: boolean;
    /** Its own key, or `q<position>`. */
    key: string;
    reverseScored: boolean;
    scale: { min: number; max: number; minLabel: string | null; maxLabel: string | null } | null;
    options: readonly { text: string; score: number; critical: boolean }[];
  }[];
  scoreRanges: readonly Band[];
  scoring: ScoringSettings;
  subscales: readonly { key: string; name: string; items: readonly string[]; method: string; multiplier: number | null; scoreRanges: readonly Band[] }[];
  criticalMessage: string | null;
};

/** The canonical URL of a form's Questionnaire: where the service answers it. */
export const questionnaireUrl = (baseUrl: string, formId: string) => `${baseUrl}/api/forms/${encodeURIComponent(formId)}/fhir`;

/** An option's code: the question's key and the option's place in it, from 0 (as instrument forms name their options). */
export const optionCode = (questionKey: string, index: number) => `${questionKey}.${index}`;

// ---- extensions ------------------------------------------------------------------------------

const part = {
  string: (url: string, valueString: string): Extension => ({ url, valueString }),
  code: (url: string, valueCode: string): Extension => ({ url, valueCode }),
  decimal: (url: string, valueDecimal: number): Extension => ({ url, valueDecimal }),
  integer: (url: string, valueInteger: number): Extension => ({ url, valueInteger }),
  boolean: (url: string, valueBoolean: boolean): Extension => ({ url, valueBoolean }),
};

const complex = (url: string, parts: Extension[]): Extension => ({ url, extension: parts });

/** A band as the sub-extensions min, max, label, color and critical. */
const bandParts = (band: Band): Extension[] => [
  part.decimal("min", band.min),
  part.decimal("max", band.max),
  part.string("label", band.label),
  part.string("color", band.color),
  part.boolean("critical", band.critical ?? false),
];

function scoringExtension(scoring: ScoringSettings): Extension {
  return complex(EXTENSION.scoring, [
    part.code("method", scoring.method),
    part.decimal("multiplier", scoring.multiplier),
    ...(scoring.maxMissing === null ? [] : [part.integer("maxMissing", scoring.maxMissing)]),
    part.code("display", scoring.display),
  ]);
}

function subscaleExtension(subscale: QuestionnaireSource["subscales"][number]): Extension {
  return complex(EXTENSION.subscale, [
    part.string("key", subscale.key),
    part.string("name", subscale.name),
    ...subscale.items.map((item) => part.string("item", item)),
    part.code("method", subscale.method),
    ...(subscale.multiplier === null ? [] : [part.decimal("multiplier", subscale.multiplier)]),
    ...subscale.scoreRanges.map((band) => complex("band", bandParts(band))),
  ]);
}

/** A text of the form that FHIR has no element for, when it has one. */
const textExtension = (url: string, value: string | null): Extension[] => (value ? [part.string(url, value)] : []);

function scaleExtension(question: QuestionnaireSource["questions"][number]): Extension {
  const { scale } = question;
  return complex(EXTENSION.scale, [
    part.integer("points", question.options.length),
    ...(scale
      ? [
          part.integer("min", scale.min),
          part.integer("max", scale.max),
          ...(scale.minLabel ? [part.string("minLabel", scale.minLabel)] : []),
          ...(scale.maxLabel ? [part.string("maxLabel", scale.maxLabel)] : []),
        ]
      : []),
  ]);
}

// ---- items -----------------------------------------------------------------------------------

function answerOptions(question: QuestionnaireSource["questions"][number]): QuestionnaireItemAnswerOption[] {
  return question.options.map((option, index) => ({
    valueCoding: {
      code: optionCode(question.key, index),
      display: option.text,
      extension: [part.decimal(ORDINAL_VALUE, optionScore(question, option))],
    },
    ...(option.critical ? { extension: [part.boolean(EXTENSION.critical, true)] } : {}),
  }));
}

function questionItem(question: QuestionnaireSource["questions"][number]): QuestionnaireItem {
  if (question.type === "TEXT") return { linkId: question.key, text: question.text, type: "text", required: question.required };
  const extension = [
    ...(question.reverseScored ? [part.boolean(EXTENSION.reverseScored, true)] : []),
    ...(question.type === "SCALE" ? [scaleExtension(question)] : []),
  ];
  return {
    linkId: question.key,
    text: question.text,
    type: "choice",
    required: question.required,
    ...(question.type === "MULTIPLE_CHOICE" ? { repeats: true } : {}),
    ...(extension.length > 0 ? { extension } : {}),
    answerOption: answerOptions(question),
  };
}

/** The form as a Questionnaire; `baseUrl` is the service's address (`APP_URL`), for its canonical URL. */
export function formToQuestionnaire(form: QuestionnaireSource, baseUrl: string): Questionnaire {
  const updated = form.updatedAt.toISOString();
  return {
    resourceType: "Questionnaire",
    id: form.id,
    meta: { lastUpdated: updated },
    extension: [
      scoringExtension(form.scoring),
      ...form.scoreRanges.map((band) => complex(EXTENSION.scoreBand, bandParts(band))),
      ...form.subscales.map(subscaleExtension),
      ...textExtension(EXTENSION.criticalMessage, form.criticalMessage),
      ...textExtension(EXTENSION.category, form.category),
      ...textExtension(EXTENSION.formType, form.type),
      ...textExtension(EXTENSION.targetAudience, form.targetAudience),
    ],
    url: questionnaireUrl(baseUrl, form.id),
    title: form.title,
    status: form.isPublished ? "active" : "draft",
    date: updated,
    ...(form.description ? { description: form.description } : {}),
    item: form.questions.map(questionItem),
  };
}
