import fc from "fast-check";
import type { Observation, Questionnaire, QuestionnaireResponse } from "fhir/r4";
import { beforeAll, describe, expect, it } from "vitest";
import { INSTRUMENTS } from "~/features/instruments/library.ts";
import { api, baseUrl, unique } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { FLAGGED_MOOD, flaggedMoodItems, moodFormBody, type Pattern } from "../support/fhir.ts";
import { type FhirSchema, loadFhirSchema } from "../support/fhir-schema.ts";
import { createOrganization, errorPaths, expectProblem, type OwnOrganization } from "../support/fixtures.ts";

/**
 * FHIR R4 over real HTTP (docs/api-contract.md §17, docs/fhir.md): a form with keys, a reverse
 * item, subscales, critical options and bands exported as a Questionnaire that validates against
 * FHIR's own schema; imported again as a new form that scores every answer pattern the same,
 * each pattern completed through real public links of both forms; the import's refusals; the
 * QuestionnaireResponse of a completed result; and the scope of all three, on either database.
 * The file makes its own organizations, so no other file's forms or results meet these.
 */
let fhir: FhirSchema;
let clinic: OwnOrganization;
let elsewhere: OwnOrganization;

beforeAll(async () => {
  fhir = loadFhirSchema();
  [clinic, elsewhere] = await Promise.all([createOrganization("FHIR Clinic"), createOrganization("FHIR Elsewhere")]);
});

const FHIR_JSON = "application/fhir+json";
const as = (method: string, path: string, options: { json?: unknown; cookie?: string; type?: string } = {}) =>
  api(method, path, {
    cookie: options.cookie ?? clinic.teacher,
    ...(options.json === undefined ? {} : { json: options.json, headers: { "content-type": options.type ?? FHIR_JSON } }),
  });

type Form = { id: string; questions: { id: string; key: string; type: string; options: { id: string }[] }[] };

async function createForm(body: unknown): Promise<Form> {
  const created = await as("POST", "/api/forms", { json: body, type: "application/json" });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

async function questionnaireOf(form: Form): Promise<Questionnaire> {
  const read = await as("GET", `/api/forms/${form.id}/fhir`);
  expect(read.status, read.text).toBe(200);
  expect(read.headers.get("content-type")).toBe("application/fhir+json; charset=utf-8");
  return read.body;
}

/** Completes a new link of `form` with `pattern` (text questions answered "fine") and reads the report. */
async function complete(form: Form, pattern: Pattern) {
  const student = await as("POST", "/api/students", { json: { name: unique("Respondent") }, type: "application/json" });
  expect(student.status, student.text).toBe(201);
  const link = await as("POST", "/api/submissions", { json: { formId: form.id, studentId: student.body.id }, type: "application/json" });
  expect(link.status, link.text).toBe(201);
  const answers = form.questions.flatMap((question, index): { questionId: string; optionIds?: string[]; text?: string }[] => {
    if (question.type === "TEXT") return [{ questionId: question.id, text: "fine" }];
    const chosen = pattern[index];
    return chosen ? [{ questionId: question.id, optionIds: chosen.map((position) => question.options[position]!.id) }] : [];
  });
  const submitted = await api("POST", `/api/test-link/${link.body.token}/submit`, { json: { answers } });
  expect(submitted.status, submitted.text).toBe(200);
  const report = await as("GET", `/api/reports/${link.body.id}`);
  expect(report.status).toBe(200);
  const { totalScore, maxScore, percentage, scoreLabel, scoreColor, subscales, flags } = report.body;
  return { id: link.body.id as string, scores: { totalScore, maxScore, percentage, scoreLabel, scoreColor, subscales, flags } };
}

/**
 * Answer patterns the link accepts for the mood form: d1–d3 (required) always answered, a1–a3
 * each answered or not (one missing is prorated, two leave the total unscorable), any options of
 * the multiple choice, the scale answered or not.
 */
const moodPatterns: fc.Arbitrary<Pattern> = fc.tuple(
  ...[0, 1, 2].map(() => fc.nat(3).map((position) => [position])),
  ...[0, 1, 2].map(() => fc.option(fc.nat(3).map((position) => [position]))),
  fc.subarray([0, 1, 2]),
  fc.option(fc.nat(4).map((position) => [position])),
  fc.constant(null),
);

describe("a form exported and imported again", () => {
  let original: Form;
  let questionnaire: Questionnaire;
  let copy: Form;

  beforeAll(async () => {
    original = await createForm(moodFormBody(unique("FHIR mood")));
    questionnaire = await questionnaireOf(original);
  });

  it("given a form with keys, a reverse item, subscales, critical options and bands, should export a Questionnaire FHIR's schema accepts", () => {
    expect(fhir.questionnaire(questionnaire)).toEqual([]);
    expect(questionnaire).toMatchObject({
      resourceType: "Questionnaire",
      id: original.id,
      url: `${baseUrl()}/api/forms/${original.id}/fhir`,
      status: "active",
    });
    expect(questionnaire.item!.map((item) => item.linkId)).toEqual(["d1", "d2", "d3", "a1", "a2", "a3", "m1", "q8", "q9"]);
  });

  it("given the Questionnaire posted as application/fhir+json, should create a form of the caller's organization", async () => {
    const imported = await as("POST", "/api/forms/fhir", { json: questionnaire });
    expect(imported.status, imported.text).toBe(201);
    copy = imported.body;
    expect(imported.headers.get("location")).toBe(`/api/forms/${copy.id}`);
    expect(copy.id).not.toBe(original.id);
    const stored = await testDatabase().form.findUniqueOrThrow({ where: { id: copy.id }, select: { organizationId: true } });
    expect(stored.organizationId).toBe(clinic.id);
    const read = await as("GET", `/api/forms/${original.id}`);
    expect(imported.body).toMatchObject({
      ...read.body,
      id: copy.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      createdBy: expect.any(Object),
      questions: read.body.questions.map((question: { options: object[] }) => ({
        ...question,
        id: expect.any(String),
        options: question.options.map((option) => ({ ...option, id: expect.any(String) })),
      })),
    });
    // Exported again, it is the same Questionnaire but for its identity.
    const again = await questionnaireOf(copy);
    const identity = { id: copy.id, url: `${baseUrl()}/api/forms/${copy.id}/fhir`, meta: again.meta, date: again.date };
    expect(again).toEqual({ ...questionnaire, ...identity });
  });

  it("given answer patterns completed through public links of both forms, should score each the same", async () => {
    const fixed: Pattern[] = [
      FLAGGED_MOOD,
      // a1 left out: prorated.
      [[1], [0], [0], null, [2], [0], [2], [4], null],
      // a1 and a2 left out: the total and anxiety cannot be scored.
      [[0], [1], [1], null, null, [1], [2], null, null],
    ];
    const random = fc.sample(moodPatterns, { numRuns: 6, seed: 73 });
    for (const pattern of [...fixed, ...random]) {
      const [first, second] = await Promise.all([complete(original, pattern), complete(copy, pattern)]);
      expect(second.scores, JSON.stringify(pattern)).toEqual(first.scores);
    }
    const flagged = await complete(copy, fixed[0]!);
    expect(flagged.scores).toMatchObject({
      totalScore: 16,
      scoreLabel: "Mid",
      flags: [
        { kind: "OPTION", questionKey: "d3", text: "I felt life was not worth living — Often" },
        { kind: "BAND", subscaleKey: "depression", text: "Depression: Severe" },
      ],
    });
  });
});

describe("the library's instruments", () => {
  it.each(INSTRUMENTS.map((instrument) => [instrument.name, instrument.key] as const))(
    "given the %s installed, should export a Questionnaire FHIR's schema accepts, which imports as the same items and scores",
    async (_name, key) => {
      const installed = await as("POST", `/api/instruments/${key}/install`, { json: {}, type: "application/json" });
      expect(installed.status, installed.text).toBe(201);
      const questionnaire = await questionnaireOf(installed.body);
      expect(fhir.questionnaire(questionnaire)).toEqual([]);
      const imported = await as("POST", "/api/forms/fhir", { json: questionnaire });
      expect(imported.status, imported.text).toBe(201);
      const content = (form: { questions: { key: string; reverseScored: boolean; options: { text: string; score: number; critical: boolean }[] }[] }) =>
        form.questions.map(({ key, reverseScored, options }) => ({
          key,
          reverseScored,
          options: options.map(({ text, score, critical }) => ({ text, score, critical })),
        }));
      expect(content(imported.body)).toEqual(content(installed.body));
      for (const field of ["scoring", "subscales", "scoreRanges", "criticalMessage"]) expect(imported.body[field], field).toEqual(installed.body[field]);
    },
  );
});

describe("an import refused", () => {
  let questionnaire: Questionnaire;

  beforeAll(async () => {
    questionnaire = await questionnaireOf(await createForm(moodFormBody(unique("FHIR refused"))));
  });

  const withItem = (index: number, change: object) => {
    const copy = structuredClone(questionnaire);
    copy.item![index] = { ...copy.item![index]!, ...change };
    return copy;
  };

  async function formsCount() {
    return testDatabase().form.count({ where: { organizationId: clinic.id } });
  }

  it("given an item type no question has, should answer 400 naming the first such item, and create nothing", async () => {
    const before = await formsCount();
    const refused = await as("POST", "/api/forms/fhir", { json: withItem(3, { type: "attachment", answerOption: undefined }) });
    expectProblem(refused, 400, "UNSUPPORTED_FHIR_ELEMENT");
    expect(refused.body.detail).toBe('item[3].type: "attachment" is not supported.');
    expect(errorPaths(refused)).toEqual(["item[3].type"]);
    expect(await formsCount()).toBe(before);
  });

  it("given a resource that is no Questionnaire, should name its resourceType", async () => {
    const refused = await as("POST", "/api/forms/fhir", { json: { resourceType: "Patient", name: [{ family: "Lima" }] } });
    expectProblem(refused, 400, "UNSUPPORTED_FHIR_ELEMENT");
    expect(refused.body.detail).toBe('resourceType: "Patient" is not supported.');
  });

  it("given what the form's own checks refuse, should name the Questionnaire's element it came from", async () => {
    // A subscale naming an item the form does not have: the scoring, three bands, then the depression subscale, whose item 3 is d3.
    const renamed = withItem(2, { linkId: "d9" });
    const subscale = renamed.extension![4]!;
    expect(subscale.extension![4]).toEqual({ url: "item", valueString: "d3" });
    const unknownItem = await as("POST", "/api/forms/fhir", { json: renamed });
    expectProblem(unknownItem, 400, "VALIDATION_FAILED");
    expect(errorPaths(unknownItem)).toEqual(["extension[4].extension[4]"]);
    expect(unknownItem.body.detail).toBe("extension[4].extension[4]: Not a scored question of this form.");

    const longOption = withItem(0, {});
    longOption.item![0]!.answerOption![1]!.valueCoding!.display = "x".repeat(501);
    const tooLong = await as("POST", "/api/forms/fhir", { json: { ...longOption, title: undefined } });
    expectProblem(tooLong, 400, "VALIDATION_FAILED");
    expect(errorPaths(tooLong)).toEqual(["title", "item[0].answerOption[1].valueCoding.display"]);

    const misshapen = await as("POST", "/api/forms/fhir", { json: { ...questionnaire, item: [{ linkId: 7, type: "choice" }] } });
    expectProblem(misshapen, 400, "VALIDATION_FAILED");
    expect(errorPaths(misshapen)).toEqual(["item[0].linkId"]);
  });

  it("given plain JSON, should take it too; given another media type, should answer 415", async () => {
    const plain = await as("POST", "/api/forms/fhir", { json: questionnaire, type: "application/json" });
    expect(plain.status, plain.text).toBe(201);
    expectProblem(await as("POST", "/api/forms/fhir", { json: questionnaire, type: "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("a result as a QuestionnaireResponse", () => {
  let form: Form;
  let completed: string;

  beforeAll(async () => {
    form = await createForm(moodFormBody(unique("FHIR result")));
    completed = (await complete(form, FLAGGED_MOOD)).id;
  });

  it("given a completed result, should answer a QuestionnaireResponse FHIR's schema accepts, with the total and subscales as Observations", async () => {
    const read = await as("GET", `/api/reports/${completed}/fhir`);
    expect(read.status, read.text).toBe(200);
    expect(read.headers.get("content-type")).toBe("application/fhir+json; charset=utf-8");
    const response = read.body as QuestionnaireResponse;
    expect(fhir.questionnaireResponse(response)).toEqual([]);
    const report = (await as("GET", `/api/reports/${completed}`)).body;
    expect(response).toMatchObject({
      resourceType: "QuestionnaireResponse",
      id: completed,
      questionnaire: `${baseUrl()}/api/forms/${form.id}/fhir`,
      status: "completed",
      authored: report.completedAt,
      subject: { identifier: { system: `${baseUrl()}/api/students`, value: report.respondent.id }, display: report.respondent.name },
    });
    expect(response.item!.map((item) => [item.linkId, item.answer!.map((answer) => answer.valueCoding?.code ?? answer.valueString)])).toEqual(
      flaggedMoodItems("fine"),
    );
    const observations = response.contained as Observation[];
    expect(
      observations.map((observation) => [
        observation.code.coding![0]!.code,
        observation.status,
        observation.valueQuantity?.value,
        observation.interpretation?.[0]?.text,
        observation.interpretation?.[0]?.coding?.[0]?.code,
      ]),
    ).toEqual([
      ["total", "final", report.totalScore, report.scoreLabel, undefined],
      ["subscale:depression", "final", 16, "Severe", "AA"],
      ["subscale:anxiety_a", "final", report.subscales[1].score, undefined, undefined],
    ]);
  });

  it("given a pending link, should answer 409 NOT_COMPLETED", async () => {
    const student = await as("POST", "/api/students", { json: { name: unique("Pending") }, type: "application/json" });
    const link = await as("POST", "/api/submissions", { json: { formId: form.id, studentId: student.body.id }, type: "application/json" });
    expectProblem(await as("GET", `/api/reports/${link.body.id}/fhir`), 409, "NOT_COMPLETED");
  });

  it("given another organization's form or result, should answer 404 as the form and the report do", async () => {
    for (const path of [`/api/forms/${form.id}`, `/api/forms/${form.id}/fhir`, `/api/reports/${completed}`, `/api/reports/${completed}/fhir`]) {
      expectProblem(await as("GET", path, { cookie: elsewhere.admin }), 404, "NOT_FOUND");
    }
    // The same organization's administrator reads both.
    expect((await as("GET", `/api/forms/${form.id}/fhir`, { cookie: clinic.admin })).status).toBe(200);
    expect((await as("GET", `/api/reports/${completed}/fhir`, { cookie: clinic.admin })).status).toBe(200);
  });
});
