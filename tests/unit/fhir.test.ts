import fc from "fast-check";
import type { Observation, Questionnaire } from "fhir/r4";
import { beforeAll, describe, expect, it } from "vitest";
import { EXTENSION, ORDINAL_VALUE } from "~/features/fhir/fhir-extensions.ts";
import { fhirQuestionnaire } from "~/features/fhir/fhir-schemas.ts";
import { formToQuestionnaire } from "~/features/fhir/questionnaire.ts";
import { questionnaireToForm, UNSUPPORTED_FHIR_ELEMENT } from "~/features/fhir/questionnaire-import.ts";
import { resultToQuestionnaireResponse } from "~/features/fhir/questionnaire-response.ts";
import { INSTRUMENTS } from "~/features/instruments/library.ts";
import { type ScaleForm, scoreForm } from "~/features/scoring/scales.ts";
import type { GivenAnswer } from "~/features/scoring/scoring.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { type FhirSchema, loadFhirSchema } from "../support/fhir-schema.ts";
import {
  FLAGGED_MOOD,
  flaggedMoodItems,
  type FormFields,
  instrumentFormBody,
  moodFormBody,
  questionnaireSourceOf,
  readFormBody,
  scaleFormOf,
} from "../support/fhir.ts";
import { mixedFormBody } from "../support/form-bodies.ts";

/**
 * The FHIR R4 mapping of docs/api-contract.md §17 (docs/fhir.md, ADR 73) as pure functions: what
 * a form exports, that it validates against FHIR's own JSON schema, that reading it back gives a
 * form that scores every answer the same (fast-check over random answers, for every library
 * instrument too), what an import refuses and how it names it, and the QuestionnaireResponse of a
 * result.
 */

const BASE = "https://assessment.example";
let fhir: FhirSchema;

beforeAll(() => {
  fhir = loadFhirSchema();
});

type Named = { name: string; body: FormFields };
const moodBody = moodFormBody("Mood scales");
const mood: Named = { name: "the mood form", body: readFormBody(moodBody) };
const forms: Named[] = [
  mood,
  { name: "the mixed form", body: readFormBody(mixedFormBody("Mixed")) },
  ...INSTRUMENTS.map((instrument) => ({ name: instrument.name, body: readFormBody(instrumentFormBody(instrument)) })),
];

const exported = (body: FormFields) => formToQuestionnaire(questionnaireSourceOf(body), BASE);
const imported = (questionnaire: unknown) => questionnaireToForm(fhirQuestionnaire.parse(questionnaire));

/** Random answers to a form: each question unanswered, or one option (any number of a multiple choice), or text. */
function answersTo(form: ScaleForm) {
  return fc.tuple(
    ...form.questions.map((question) => {
      const ids = question.options.map((option) => option.id);
      if (question.type === "TEXT") return fc.option(fc.string({ minLength: 1, maxLength: 5 })).map((text) => ({ questionId: question.id, text }));
      if (question.type === "MULTIPLE_CHOICE") return fc.subarray(ids).map((optionIds) => ({ questionId: question.id, optionIds }));
      return fc.option(fc.constantFrom(...ids)).map((id) => ({ questionId: question.id, optionIds: id === null ? [] : [id] }));
    }),
  ) as fc.Arbitrary<GivenAnswer[]>;
}

describe("a form as a Questionnaire", () => {
  const questionnaire = exported(mood.body);
  const items = questionnaire.item!;

  it("given the mood form, should validate against the FHIR R4 schema", () => {
    expect(fhir.questionnaire(questionnaire)).toEqual([]);
    expect(questionnaire).toMatchObject({
      resourceType: "Questionnaire",
      id: "cmf3k9x2a0001qz8h4b7c2d1e",
      url: `${BASE}/api/forms/cmf3k9x2a0001qz8h4b7c2d1e/fhir`,
      title: "Mood scales",
      status: "active",
      description: "How the last two weeks went.",
    });
  });

  it("given questions with and without keys, should make each an item whose linkId is its key", () => {
    expect(items.map((i) => i.linkId)).toEqual(["d1", "d2", "d3", "a1", "a2", "a3", "m1", "q8", "q9"]);
    expect(items.map((i) => [i.type, i.repeats ?? false, i.required])).toEqual([
      ["choice", false, true],
      ["choice", false, true],
      ["choice", false, true],
      ["choice", false, false],
      ["choice", false, false],
      ["choice", false, false],
      ["choice", true, false],
      ["choice", false, false],
      ["text", false, false],
    ]);
  });

  it("given options, should code them <key>.<position> with the score they count for as ordinalValue", () => {
    const ordinals = (index: number) => items[index]!.answerOption!.map((option) => option.valueCoding!.extension![0]!);
    expect(items[0]!.answerOption![1]!.valueCoding).toMatchObject({ code: "d1.1", display: "Sometimes" });
    expect(ordinals(0)).toEqual([0, 1, 2, 3].map((valueDecimal) => ({ url: ORDINAL_VALUE, valueDecimal })));
    // Reverse-scored: "Never" counts 3, "Almost always" 0; Sleep 0.5 counts 2, Friends 1.5 counts 1, Nothing 2 counts 0.5.
    expect(ordinals(5).map((ordinal) => ordinal.valueDecimal)).toEqual([3, 2, 1, 0]);
    expect(ordinals(6).map((ordinal) => ordinal.valueDecimal)).toEqual([2, 1, 0.5]);
    expect(items[5]!.extension).toEqual([{ url: EXTENSION.reverseScored, valueBoolean: true }]);
    // The critical options of d3.
    expect(items[2]!.answerOption!.map((option) => option.extension ?? [])).toEqual([
      [],
      [],
      [{ url: EXTENSION.critical, valueBoolean: true }],
      [{ url: EXTENSION.critical, valueBoolean: true }],
    ]);
  });

  it("given a scale by its range, should list its points as options and its range in the scale extension", () => {
    expect(items[7]!.answerOption!.map((option) => [option.valueCoding!.display, option.valueCoding!.extension![0]!.valueDecimal])).toEqual([
      ["1", 1],
      ["2", 2],
      ["3", 3],
      ["4", 4],
      ["5", 5],
    ]);
    expect(items[7]!.extension).toEqual([
      {
        url: EXTENSION.scale,
        extension: [
          { url: "points", valueInteger: 5 },
          { url: "min", valueInteger: 1 },
          { url: "max", valueInteger: 5 },
          { url: "minLabel", valueString: "Poor" },
          { url: "maxLabel", valueString: "Good" },
        ],
      },
    ]);
  });

  it("given scoring settings, bands, subscales and texts, should carry them in the service's extensions", () => {
    const byUrl = (url: string) => questionnaire.extension!.filter((extension) => extension.url === url);
    expect(byUrl(EXTENSION.scoring)).toEqual([
      {
        url: EXTENSION.scoring,
        extension: [
          { url: "method", valueCode: "SUM" },
          { url: "multiplier", valueDecimal: 1 },
          { url: "maxMissing", valueInteger: 1 },
          { url: "display", valueCode: "RAW" },
        ],
      },
    ]);
    expect(byUrl(EXTENSION.scoreBand)[2]!.extension).toEqual([
      { url: "min", valueDecimal: 20 },
      { url: "max", valueDecimal: 30 },
      { url: "label", valueString: "High" },
      { url: "color", valueString: "#B42318" },
      { url: "critical", valueBoolean: true },
    ]);
    const [depression] = byUrl(EXTENSION.subscale);
    expect(depression!.extension!.slice(0, 7)).toEqual([
      { url: "key", valueString: "depression" },
      { url: "name", valueString: "Depression" },
      { url: "item", valueString: "d1" },
      { url: "item", valueString: "d2" },
      { url: "item", valueString: "d3" },
      { url: "method", valueCode: "SUM" },
      { url: "multiplier", valueDecimal: 2 },
    ]);
    expect(depression!.extension!.filter((part) => part.url === "band")).toHaveLength(3);
    expect(byUrl(EXTENSION.criticalMessage)).toEqual([{ url: EXTENSION.criticalMessage, valueString: moodBody.criticalMessage }]);
    expect(byUrl(EXTENSION.category)).toEqual([{ url: EXTENSION.category, valueString: "Screening" }]);
  });

  it.each(INSTRUMENTS.map((instrument) => [instrument.name, instrument] as const))(
    "given the library's %s, should validate, keyed as the instrument keys its items",
    (_name, instrument) => {
      const questionnaire = exported(readFormBody(instrumentFormBody(instrument)));
      expect(fhir.questionnaire(questionnaire)).toEqual([]);
      expect(questionnaire.item!.map((i) => i.linkId)).toEqual(instrument.items.map((i) => i.key));
      expect(
        questionnaire.item!.every((i) => i.type === "choice" && i.answerOption!.length === instrument.items.find((x) => x.key === i.linkId)!.options.length),
      ).toBe(true);
    },
  );
});

describe("a Questionnaire read back", () => {
  it.each(forms.map((form) => [form.name, form] as const))(
    "given %s exported, should read back a form that exports the same Questionnaire",
    (_name, { body }) => {
      const questionnaire = exported(body);
      const back = readFormBody(imported(questionnaire).body);
      expect(exported(back)).toEqual(questionnaire);
    },
  );

  it.each(forms.map((form) => [form.name, form] as const))("given %s exported and read back, should score any answers the same", (_name, { body }) => {
    const original = scaleFormOf(body);
    const back = scaleFormOf(readFormBody(imported(exported(body)).body));
    fc.assert(
      fc.property(answersTo(original), (answers) => {
        expect(scoreForm(back, answers)).toEqual(scoreForm(original, answers));
      }),
      { numRuns: 200 },
    );
  });

  it("given a Questionnaire made elsewhere, should read its scores wherever SDC puts them and key odd linkIds by position", () => {
    const { body } = imported({
      resourceType: "Questionnaire",
      status: "draft",
      name: "PHQ2",
      item: [
        {
          linkId: "/44250-9",
          text: "Feeling down",
          type: "choice",
          required: true,
          answerOption: [
            { valueCoding: { system: "http://loinc.org", code: "LA6568-5", display: "Not at all" }, extension: [{ url: ORDINAL_VALUE, valueDecimal: 0 }] },
            { valueCoding: { code: "LA6569-3" }, extension: [{ url: "http://hl7.org/fhir/StructureDefinition/itemWeight", valueDecimal: 1 }] },
            { valueString: "Often", extension: [{ url: "http://hl7.org/fhir/StructureDefinition/questionnaire-optionExclusive", valueBoolean: false }] },
          ],
          extension: [{ url: "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl", valueCodeableConcept: { text: "radio" } }],
        },
        { linkId: "note", text: "Notes", type: "string" },
      ],
    });
    expect(body).toEqual({
      title: "PHQ2",
      description: undefined,
      isPublished: false,
      scoreRanges: [],
      subscales: [],
      questions: [
        {
          text: "Feeling down",
          required: true,
          key: null,
          type: "SINGLE_CHOICE",
          reverseScored: false,
          options: [
            { text: "Not at all", score: 0, critical: false },
            { text: "LA6569-3", score: 1, critical: false },
            { text: "Often", score: 0, critical: false },
          ],
        },
        { text: "Notes", required: false, key: "note", type: "TEXT" },
      ],
    });
  });
});

describe("an import refused", () => {
  const base = exported(mood.body);
  /** A copy of the mood form's Questionnaire with item `index` changed. */
  const withItem = (index: number, change: Record<string, unknown>): Questionnaire => {
    const copy = structuredClone(base);
    copy.item![index] = { ...copy.item![index]!, ...change };
    return copy;
  };

  function refusal(questionnaire: unknown) {
    try {
      imported(questionnaire);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { status: error.status, code: error.code, detail: error.detail, paths: error.errors?.map((problem) => problem.path) };
    }
    throw new Error("the import was not refused");
  }

  const unsupported = (path: string, detail: string) => ({ status: 400, code: UNSUPPORTED_FHIR_ELEMENT, detail: `${path}: ${detail}`, paths: [path] });

  it("given an item type a question cannot be, should name the first such item and its type", () => {
    const questionnaire = withItem(3, { type: "attachment", answerOption: undefined });
    questionnaire.item![5] = { ...questionnaire.item![5]!, type: "date" };
    expect(refusal(questionnaire)).toEqual(unsupported("item[3].type", '"attachment" is not supported.'));
    expect(refusal(withItem(0, { type: "group", item: [{ linkId: "x", type: "string" }] }))).toEqual(unsupported("item[0].type", '"group" is not supported.'));
    expect(refusal(withItem(8, { type: "display" }))).toEqual(unsupported("item[8].type", '"display" is not supported.'));
  });

  it("given elements that change what is asked, should name each", () => {
    expect(refusal(withItem(1, { enableWhen: [{ question: "d1", operator: "exists", answerBoolean: true }] }))).toEqual(
      unsupported("item[1].enableWhen", "This element is not supported."),
    );
    expect(refusal(withItem(1, { answerValueSet: "http://loinc.org/vs/LL358-3" }))).toEqual(
      unsupported("item[1].answerValueSet", "This element is not supported."),
    );
    expect(refusal(withItem(8, { readOnly: true }))).toEqual(unsupported("item[8].readOnly", "true is not supported."));
    expect(refusal(withItem(8, { repeats: true }))).toEqual(unsupported("item[8].repeats", "true is not supported."));
    expect(refusal(withItem(2, { modifierExtension: [{ url: "http://example.org/negated", valueBoolean: true }] }))).toEqual(
      unsupported("item[2].modifierExtension[0]", '"http://example.org/negated" is not supported.'),
    );
    const dated = withItem(0, {});
    dated.item![0]!.answerOption![2] = { valueDate: "2026-01-01" };
    expect(refusal(dated)).toEqual(unsupported("item[0].answerOption[2].valueDate", "This element is not supported."));
    expect(refusal({ ...base, implicitRules: "http://example.org/rules" })).toEqual(
      unsupported("implicitRules", '"http://example.org/rules" is not supported.'),
    );
  });

  it("given an extension of ours the service does not define, or a part of one, should name it", () => {
    const unknown = `${EXTENSION.scoring.replace("scoring", "weighting")}`;
    expect(refusal({ ...base, extension: [...base.extension!, { url: unknown, valueString: "x" }] })).toEqual(
      unsupported(`extension[${base.extension!.length}].url`, `"${unknown}" is not supported.`),
    );
    const [scoring, ...rest] = base.extension!;
    expect(refusal({ ...base, extension: [{ ...scoring, extension: [...scoring!.extension!, { url: "rounding", valueInteger: 2 }] }, ...rest] })).toEqual(
      unsupported("extension[0].extension[4].url", '"rounding" is not supported.'),
    );
    expect(refusal({ ...base, extension: [{ ...scoring, extension: [{ url: "multiplier", valueString: "two" }] }, ...rest] })).toEqual({
      status: 400,
      code: "VALIDATION_FAILED",
      detail: "extension[0].extension[0].valueDecimal: Enter a number.",
      paths: ["extension[0].extension[0].valueDecimal"],
    });
  });

  it("given a field the form's own checks refuse, should know the element it came from", () => {
    const { sourceOf } = imported(base);
    expect(sourceOf("title")).toBe("title");
    expect(sourceOf("questions.0.options.1.text")).toBe("item[0].answerOption[1].valueCoding.display");
    expect(sourceOf("questions.0.options.1.score")).toBe("item[0].answerOption[1].valueCoding.extension[0]");
    expect(sourceOf("questions.6.key")).toBe("item[6].linkId");
    expect(sourceOf("questions.7.scale.max")).toBe("item[7].extension[0].extension[2]");
    // The scoring, 3 bands, then the subscales: depression's third item.
    expect(sourceOf("subscales.0.items.2")).toBe("extension[4].extension[4]");
    expect(sourceOf("subscales.1.scoreRanges")).toBe("extension[5]");
    expect(sourceOf("scoreRanges.2.max")).toBe("extension[3].extension[1]");
  });
});

describe("a result as a QuestionnaireResponse", () => {
  const form = scaleFormOf(mood.body);
  const pick = (index: number, ...positions: number[]): GivenAnswer => ({ questionId: `q${index}`, optionIds: positions.map((p) => `q${index}.${p}`) });

  function responseTo(answers: GivenAnswer[], texts: Record<number, string> = {}) {
    const result = scoreForm(form, answers);
    const given = new Map(answers.map((answer) => [answer.questionId, answer]));
    return resultToQuestionnaireResponse(
      {
        id: "cmf3k9x2a0001qz8h4b7c2d1g",
        completedAt: new Date("2026-03-14T09:30:00.000Z"),
        form: { id: "cmf3k9x2a0001qz8h4b7c2d1e", title: "Mood scales" },
        respondent: { kind: "student", id: "cmf3k9x2a0001qz8h4b7c2d1f", name: "Ana Lima" },
        totalScore: result.total.score,
        scoreLabel: result.total.label,
        subscales: result.subscales,
        flags: result.flags,
        scoredAgainst: { questions: form.questions, scoreRanges: form.scoreRanges, subscales: mood.body.subscales },
        answers: form.questions.map((question, index) => {
          const optionIds = given.get(question.id)?.optionIds ?? [];
          return {
            questionId: question.id,
            questionText: question.text,
            optionIds,
            optionTexts: optionIds.map((id) => question.options.find((option) => option.id === id)!.text),
            text: texts[index] ?? null,
          };
        }),
      },
      BASE,
    );
  }

  it("given a flagged result, should validate, answer by linkId and carry the total and each subscale as Observations", () => {
    // The total 3 + 3 + 2 + 1 + 0 + 0 + 3 + 4 = 16, Mid; depression 16, Severe (critical); anxiety 0.33, no bands.
    const response = responseTo(
      FLAGGED_MOOD.flatMap((positions, index) => (positions ? [pick(index, ...positions)] : [])),
      { 8: "Slept badly" },
    );
    expect(fhir.questionnaireResponse(response)).toEqual([]);
    expect(response).toMatchObject({
      resourceType: "QuestionnaireResponse",
      questionnaire: `${BASE}/api/forms/cmf3k9x2a0001qz8h4b7c2d1e/fhir`,
      status: "completed",
      authored: "2026-03-14T09:30:00.000Z",
      subject: { identifier: { system: `${BASE}/api/students`, value: "cmf3k9x2a0001qz8h4b7c2d1f" }, display: "Ana Lima" },
    });
    expect(response.item!.map((i) => [i.linkId, i.answer!.map((a) => a.valueCoding?.code ?? a.valueString)])).toEqual(flaggedMoodItems("Slept badly"));
    const observations = response.contained as Observation[];
    expect(observations.map((o) => [o.id, o.code.coding![0]!.code, o.valueQuantity?.value, o.interpretation])).toEqual([
      ["total", "total", 16, [{ text: "Mid" }]],
      ["subscale-1", "subscale:depression", 16, [{ coding: [expect.objectContaining({ code: "AA" })], text: "Severe" }]],
      ["subscale-2", "subscale:anxiety_a", 0.33, undefined],
    ]);
    expect(observations[0]).toMatchObject({ status: "final", effectiveDateTime: "2026-03-14T09:30:00.000Z", derivedFrom: [{ reference: "#" }] });
  });

  it("given a result too incomplete to score, should give its scores as absent and leave unanswered questions out", () => {
    // Only d1 answered: every score misses more than the one item maxMissing allows.
    const response = responseTo([pick(0, 1)]);
    expect(fhir.questionnaireResponse(response)).toEqual([]);
    expect(response.item!.map((i) => i.linkId)).toEqual(["d1"]);
    for (const observation of response.contained as Observation[]) {
      expect(observation.valueQuantity).toBeUndefined();
      expect(observation.dataAbsentReason!.coding![0]!.code).toBe("not-performed");
    }
  });
});
