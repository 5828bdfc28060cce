import { z } from "zod";
import { idNaming } from "~/lib/schemas.ts";
import { EXTENSION, ORDINAL_VALUE } from "./fhir-extensions.ts";

/**
 * The FHIR R4 resources of docs/api-contract.md §17 as the OpenAPI document describes them and as
 * `POST /api/forms/fhir` reads its body: the elements the mapping reads or writes, each object
 * open to every other element FHIR defines (docs/fhir.md). The shape checked here is only what the
 * mapping needs to read a value; which elements and values the service supports is the mapping's
 * to say (questionnaire-import.ts), and the full R4 shape is FHIR's own JSON schema, which the
 * tests validate every answer against. The TypeScript types of the resources come from
 * `@types/fhir` (`fhir/r4`).
 */

type ExtensionShape = {
  url: string;
  valueString?: string | undefined;
  valueCode?: string | undefined;
  valueBoolean?: boolean | undefined;
  valueDecimal?: number | undefined;
  valueInteger?: number | undefined;
  extension?: ExtensionShape[] | undefined;
  [element: string]: unknown;
};

export const fhirExtension: z.ZodType<ExtensionShape> = z
  .looseObject({
    url: z.string(),
    valueString: z.string().optional(),
    valueCode: z.string().optional(),
    valueBoolean: z.boolean().optional(),
    valueDecimal: z.number().optional(),
    valueInteger: z.number().int().optional(),
    get extension() {
      return z.array(fhirExtension).optional();
    },
  })
  .meta({ id: "FhirExtension", description: "A FHIR extension: a value, or sub-extensions named by their `url`." });

const extensions = z.array(fhirExtension).optional();

const coding = z.looseObject({
  system: z.string().optional(),
  code: z.string().optional(),
  display: z.string().optional(),
  extension: extensions,
});

const answerOption = z.looseObject({
  valueCoding: coding.optional(),
  valueString: z.string().optional(),
  valueInteger: z.number().int().optional(),
  initialSelected: z.boolean().optional(),
  extension: extensions,
  modifierExtension: extensions,
});

const questionnaireItem = z
  .looseObject({
    linkId: z.string().meta({ description: "The question's key (docs/api-contract.md §15)." }),
    text: z.string().optional(),
    type: z.string().meta({ description: "choice (a single, multiple or scale question), text or string (a text question)." }),
    required: z.boolean().optional(),
    repeats: z.boolean().optional().meta({ description: "true on a choice: a multiple-choice question." }),
    readOnly: z.boolean().optional(),
    answerOption: z.array(answerOption).optional(),
    extension: extensions,
    modifierExtension: extensions,
  })
  .meta({ id: "FhirQuestionnaireItem" });

const STATUS = ["draft", "active", "retired", "unknown"] as const;

const EXAMPLE_QUESTIONNAIRE = {
  resourceType: "Questionnaire",
  id: "cmf3k9x2a0001qz8h4b7c2d1e",
  url: "https://assessment.example/api/forms/cmf3k9x2a0001qz8h4b7c2d1e/fhir",
  title: "Mood check",
  status: "active",
  extension: [
    {
      url: EXTENSION.scoreBand,
      extension: [
        { url: "min", valueDecimal: 0 },
        { url: "max", valueDecimal: 2 },
        { url: "label", valueString: "Low" },
        { url: "color", valueString: "#1A7F37" },
        { url: "critical", valueBoolean: false },
      ],
    },
  ],
  item: [
    {
      linkId: "mood",
      text: "How often did you feel down?",
      type: "choice",
      required: true,
      answerOption: [
        { valueCoding: { code: "mood.0", display: "Never", extension: [{ url: ORDINAL_VALUE, valueDecimal: 0 }] } },
        { valueCoding: { code: "mood.1", display: "Often", extension: [{ url: ORDINAL_VALUE, valueDecimal: 2 }] } },
      ],
    },
  ],
};

export const fhirQuestionnaire = z
  .looseObject({
    resourceType: z.literal("Questionnaire"),
    id: idNaming("The form's id; an import leaves it out.").optional(),
    url: z.string().optional(),
    name: z.string().optional(),
    title: z.string().optional().meta({ description: "The form's title (else `name`)." }),
    status: z.enum(STATUS).meta({ description: "active: a published form." }),
    description: z.string().optional(),
    implicitRules: z.string().optional(),
    extension: extensions,
    modifierExtension: extensions,
    item: z.array(questionnaireItem).optional(),
  })
  .meta({
    id: "FhirQuestionnaire",
    description: "A FHIR R4 Questionnaire (media type application/fhir+json): the form, its questions as items and its scoring as extensions (docs/fhir.md).",
    examples: [EXAMPLE_QUESTIONNAIRE],
  });

export type FhirQuestionnaireInput = z.output<typeof fhirQuestionnaire>;

/**
 * The body of `POST /api/forms/fhir` as read off the request: any JSON. The service checks it
 * against `fhirQuestionnaire` itself, to name each problem by its FHIR path (`item[3].type`).
 */
export const questionnaireJson = z.unknown();

const reference = z.looseObject({
  display: z.string().optional(),
  identifier: z.looseObject({ system: z.string().optional(), value: z.string().optional() }).optional(),
  reference: z.string().optional(),
});

const codeableConcept = z.looseObject({ coding: z.array(coding).optional(), text: z.string().optional() });

const fhirObservation = z
  .looseObject({
    resourceType: z.literal("Observation"),
    id: z.string(),
    status: z.literal("final"),
    code: codeableConcept,
    subject: reference.optional(),
    effectiveDateTime: z.string().optional(),
    valueQuantity: z.looseObject({ value: z.number(), unit: z.string().optional() }).optional(),
    dataAbsentReason: codeableConcept.optional(),
    interpretation: z.array(codeableConcept).optional(),
  })
  .meta({
    description:
      "A score of the result, contained as `total` or `subscale-<n>`: the total (code `total`) or a subscale (code `subscale:<key>`), with its band's label as the interpretation.",
  });

const EXAMPLE_SUBJECT = { identifier: { system: "https://assessment.example/api/students", value: "cmf3k9x2a0001qz8h4b7c2d1f" }, display: "Ana Lima" };

export const fhirQuestionnaireResponse = z
  .looseObject({
    resourceType: z.literal("QuestionnaireResponse"),
    id: idNaming("The result's (the submission's) id."),
    questionnaire: z.string().meta({ description: "The canonical URL of the form's Questionnaire." }),
    status: z.literal("completed"),
    subject: reference
      .optional()
      .meta({ description: "The student or candidate who answered; absent for a result the retention policy anonymised, which is about no one." }),
    authored: z.string().meta({ description: "When the test was completed." }),
    item: z
      .array(
        z.looseObject({
          linkId: z.string(),
          text: z.string().optional(),
          answer: z.array(z.looseObject({ valueCoding: coding.optional(), valueString: z.string().optional() })),
        }),
      )
      .optional(),
    contained: z.array(fhirObservation),
  })
  .meta({
    id: "FhirQuestionnaireResponse",
    description:
      "A FHIR R4 QuestionnaireResponse (media type application/fhir+json): the answers by linkId, with the total and each subscale as contained Observations (docs/fhir.md).",
    examples: [
      {
        resourceType: "QuestionnaireResponse",
        id: "cmf3k9x2a0001qz8h4b7c2d1g",
        questionnaire: EXAMPLE_QUESTIONNAIRE.url,
        status: "completed",
        subject: EXAMPLE_SUBJECT,
        authored: "2026-03-14T09:30:00.000Z",
        item: [{ linkId: "mood", text: "How often did you feel down?", answer: [{ valueCoding: { code: "mood.1", display: "Often" } }] }],
        contained: [
          {
            resourceType: "Observation",
            id: "total",
            status: "final",
            code: { coding: [{ system: EXAMPLE_QUESTIONNAIRE.url, code: "total", display: "Mood check" }], text: "Mood check" },
            subject: EXAMPLE_SUBJECT,
            effectiveDateTime: "2026-03-14T09:30:00.000Z",
            valueQuantity: { value: 2, unit: "score" },
            interpretation: [{ text: "Low" }],
            derivedFrom: [{ reference: "#" }],
          },
        ],
      },
    ],
  });
