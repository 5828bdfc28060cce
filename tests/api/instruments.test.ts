import { describe, expect, it } from "vitest";
import { textIn } from "~/features/instruments/instrument-definition.ts";
import { INSTRUMENTS, instrumentByKey } from "~/features/instruments/library.ts";
import { api, baseUrl, type DemoUser, postPageForm, sessionOf, unique } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, errorPaths, expectProblem } from "../support/fixtures.ts";
import { waitForMail } from "../support/mail.ts";
import { TABLES } from "../support/instrument-cases.ts";
import type { components } from "../support/openapi-types.ts";

/**
 * The instrument library over real HTTP (docs/api-contract.md §17, ADR 72): the list, installing
 * every instrument and scoring its published answer patterns (tests/support/instrument-cases.ts)
 * through a real public link of the installed form, installing in Spanish and Portuguese, the
 * refusals, and the lock of an installed form's items and scoring through the API, the editor's
 * page and a copy.
 */
const teacher: DemoUser = "teacher@demo.test";
const elsewhere: DemoUser = "admin@other.test";

type Option = { id: string; text: string; score: number; critical: boolean };
type Question = { id: string; key: string; text: string; required: boolean; reverseScored: boolean; options: Option[] };
type Form = {
  id: string;
  title: string;
  description: string | null;
  isPublished: boolean;
  questions: Question[];
  scoreRanges: { min: number; max: number; label: string; color: string; critical: boolean }[];
  subscales: { key: string; name: string; items: string[]; multiplier: number | null; scoreRanges: unknown[] }[];
  scoring: { method: string; multiplier: number; maxMissing: number | null; display: string };
  criticalMessage: string | null;
  instrument: { key: string; version: string; language: string } | null;
  updatedAt: string;
};

async function install(key: string, body: Record<string, unknown> = {}, as: DemoUser = teacher): Promise<Form> {
  const installed = await api("POST", `/api/instruments/${key}/install`, { as, json: body });
  expect(installed.status, installed.text).toBe(201);
  expect(installed.headers.get("location")).toBe(`/api/forms/${installed.body.id}`);
  return installed.body as Form;
}

describe("the list", () => {
  it("given any signed-in user, should list every instrument whole, its texts in the language asked for", async () => {
    const listed = await api("GET", "/api/instruments", { as: "student@demo.test" });
    expect(listed.status, listed.text).toBe(200);
    const instruments = listed.body.instruments as components["schemas"]["Instrument"][];
    expect(instruments.map((instrument) => instrument.key)).toEqual(INSTRUMENTS.map((definition) => definition.key));
    expect(instruments.map((instrument) => instrument.key)).toEqual(
      expect.arrayContaining(["phq-9", "gad-7", "phq-15", "who-5", "k10", "epds", "audit", "audit-c", "pcl-5", "dass-21", "rses"]),
    );
    for (const instrument of instruments) {
      const definition = instrumentByKey(instrument.key)!;
      expect(instrument).toMatchObject({
        name: definition.name,
        version: definition.version,
        description: definition.description,
        languages: definition.languages,
        language: "en",
        licence: definition.licence,
        citation: definition.citation,
        instructions: definition.instructions.en,
      });
      expect(instrument.items).toHaveLength(definition.items.length);
      expect(instrument.scoring.subscales.map((subscale: { key: string }) => subscale.key)).toEqual(definition.subscales.map((subscale) => subscale.key));
    }
    const phq9 = instruments[0]!;
    expect(phq9.items[8]).toMatchObject({ key: "q9", type: "SINGLE_CHOICE", required: true, reverseScored: false });
    expect(phq9.items[8]!.options.map((option: { score: number; critical: boolean }) => [option.score, option.critical])).toEqual([
      [0, false],
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect(phq9.scoring).toMatchObject({ method: "SUM", multiplier: 1, maxMissing: 2, display: "RAW", source: "https://www.phqscreeners.com/" });
    expect(phq9.scoring.scoreRanges[4]).toEqual({ min: 20, max: 27, label: "Severe", color: "#CF222E", critical: false });
    expect(phq9.criticalMessage).toMatch(/^Thank you for your answers/);

    const spanish = await api("GET", "/api/instruments?language=es", { as: teacher });
    expect(spanish.status).toBe(200);
    const [phq9es, gad7es] = spanish.body.instruments;
    expect(phq9es.language).toBe("es");
    expect(phq9es.items[0].text).toBe("Poco interés o placer en hacer cosas");
    expect(phq9es.items[0].options[0].text).toBe("Ningún día");
    // Not given in Spanish: its English, and it says so.
    expect(gad7es).toMatchObject({ key: "gad-7", language: "en", languages: ["en"] });
    expect(gad7es.items[0].text).toBe("Feeling nervous, anxious, or on edge");
  });

  it("given no session or a language the service does not speak, should refuse", async () => {
    expectProblem(await api("GET", "/api/instruments"), 401);
    const refused = await api("GET", "/api/instruments?language=fr", { as: teacher });
    expectProblem(refused, 400, "VALIDATION_FAILED");
    expect(errorPaths(refused)).toEqual(["language"]);
  });
});

describe("installing each instrument", () => {
  for (const definition of INSTRUMENTS) {
    it(`given ${definition.name}, should make a form with its items, subscales and critical options that scores its published patterns`, async () => {
      const form = await install(definition.key);
      expect(form).toMatchObject({
        title: definition.name,
        description: definition.instructions.en,
        isPublished: false,
        instrument: { key: definition.key, version: definition.version, language: "en" },
        scoring: definition.scoring,
        criticalMessage: definition.criticalMessage?.en ?? null,
      });
      expect(form.questions.map((question) => question.key)).toEqual(definition.items.map((item) => item.key));
      expect(form.questions.map((question) => question.reverseScored)).toEqual(definition.items.map((item) => item.reverseScored ?? false));
      expect(form.questions.map((question) => question.required)).toEqual(definition.items.map((item) => !item.optional));
      const critical = (options: readonly { score: number; critical?: boolean }[]) => options.map((option) => [option.score, option.critical ?? false]);
      expect(form.questions.map((question) => critical(question.options))).toEqual(definition.items.map((item) => critical(item.options)));
      expect(form.scoreRanges.map(({ min, max, color, critical: isCritical }) => ({ min, max, color, critical: isCritical }))).toEqual(
        definition.scoreRanges.map(({ min, max, color, critical: isCritical }) => ({ min, max, color, critical: isCritical })),
      );
      expect(form.subscales.map(({ key, items, multiplier }) => ({ key, items, multiplier }))).toEqual(
        definition.subscales.map(({ key, items, multiplier }) => ({ key, items: [...items], multiplier })),
      );

      // Publishing is not locked; then each pattern through a real public link.
      const published = await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: { isPublished: true } });
      expect(published.status, published.text).toBe(200);
      const student = await api("POST", "/api/students", { as: teacher, json: { name: unique(`${definition.name} respondent`) } });
      expect(student.status, student.text).toBe(201);
      // A pattern with more items blank than the instrument allows is refused on the link: its null total is the engine's (tests/unit/instruments.test.ts).
      for (const row of TABLES[definition.key]!.filter((candidate) => candidate.total !== null)) {
        const link = await api("POST", "/api/submissions", { as: teacher, json: { formId: form.id, studentId: student.body.id } });
        expect(link.status, link.text).toBe(201);
        const answers = row.scores.flatMap((score, index) => {
          if (score === null) return [];
          const question = form.questions[index]!;
          return [{ questionId: question.id, optionIds: [question.options.find((option) => option.score === score)!.id] }];
        });
        const submitted = await api("POST", `/api/test-link/${link.body.token}/submit`, { json: { answers } });
        expect(submitted.status, `${row.name}: ${submitted.text}`).toBe(200);
        const report = await api("GET", `/api/reports/${link.body.id}`, { as: teacher });
        expect(report.status).toBe(200);
        expect({ row: row.name, total: report.body.totalScore, label: report.body.scoreLabel }).toEqual({ row: row.name, total: row.total, label: row.label });
        if (row.label) expect(report.body.scoreColor).toBe(definition.scoreRanges.find((band) => band.label.en === row.label)!.color);
        for (const [key, [score, label]] of Object.entries(row.subscales ?? {})) {
          const subscale = (report.body.subscales as { key: string; score: number | null; label: string | null }[]).find((candidate) => candidate.key === key);
          expect({ row: row.name, key, score: subscale?.score, label: subscale?.label }).toEqual({ row: row.name, key, score, label });
        }
        expect(
          (report.body.flags as { kind: string; questionKey?: string; subscaleKey?: string }[]).map((flag) =>
            `${flag.kind} ${flag.questionKey ?? flag.subscaleKey ?? ""}`.trim(),
          ),
        ).toEqual(row.flags ?? []);
      }
    });
  }
});

describe("languages", () => {
  it("given Spanish or Portuguese for the PHQ-9, should install its published translation, bands in English", async () => {
    const phq9 = instrumentByKey("phq-9")!;
    for (const language of ["es", "pt-BR"] as const) {
      const form = await install("phq-9", { language, title: unique(`PHQ-9 ${language}`) });
      expect(form.instrument).toEqual({ key: "phq-9", version: phq9.version, language });
      expect(form.questions.map((question) => question.text)).toEqual(phq9.items.map((item) => textIn(item.text, language)));
      expect(form.questions[0]!.options.map((option) => option.text)).toEqual(phq9.items[0]!.options.map((option) => textIn(option.text, language)));
      expect(form.description).toBe(textIn(phq9.instructions, language));
      expect(form.criticalMessage).toBe(textIn(phq9.criticalMessage!, language));
      // Interpretations are clinical content: the bands keep the instrument's English (ADR 67).
      expect(form.scoreRanges.map((band) => band.label)).toEqual(phq9.scoreRanges.map((band) => band.label.en));
    }
    expect((await install("phq-9", { language: "es" })).questions[0]!.text).toBe("Poco interés o placer en hacer cosas");
  });

  it("given a form installed in Portuguese, should give its link and e-mail the respondent in Portuguese, whatever the assigner's language (ADR 78)", async () => {
    // A clinician whose own language is English.
    const { cookie } = await createSignedInUser("TEACHER");
    const installed = await api("POST", "/api/instruments/phq-9/install", { cookie, json: { language: "pt-BR", title: unique("PHQ-9 pt-BR") } });
    const form = installed.body as Form;
    expect((await api("PUT", `/api/forms/${form.id}`, { cookie, json: { isPublished: true } })).status).toBe(200);
    const email = `${unique("paciente").toLowerCase()}@patients.test`;
    const patient = await api("POST", "/api/candidates", { cookie, json: { name: "Joana Prado", email } });
    const assigned = await api("POST", "/api/submissions/bulk", { cookie, json: { formId: form.id, candidateIds: [patient.body.id], send: true } });
    expect(assigned.status, assigned.text).toBe(201);
    const [link] = assigned.body.created as { id: string; token: string; url: string }[];
    const url = `${baseUrl()}/pt-BR/test/${link!.token}`;
    expect(link!.url).toBe(url);
    expect((await api("GET", `/api/submissions/${link!.id}`, { cookie })).body.url).toBe(url);
    const mail = await waitForMail(email);
    expect(mail.subject).toBe(`Um teste para você: ${form.title}`);
    expect(mail.text).toContain("Olá, Joana Prado,");
    expect(mail.text).toContain(url);
  });

  it("given a language the instrument is not given in, should answer 400 naming it", async () => {
    const refused = await api("POST", "/api/instruments/gad-7/install", { as: teacher, json: { language: "es" } });
    expectProblem(refused, 400, "VALIDATION_FAILED");
    expect(refused.body.errors).toEqual([{ path: "language", message: "This instrument is not given in es: choose one of en." }]);
    const unknown = await api("POST", "/api/instruments/gad-7/install", { as: teacher, json: { language: "fr" } });
    expectProblem(unknown, 400, "VALIDATION_FAILED");
    expect(errorPaths(unknown)).toEqual(["language"]);
  });
});

describe("refusals", () => {
  it("given an unknown key, a student, no session or a body out of shape, should refuse", async () => {
    expectProblem(await api("POST", "/api/instruments/phq-99/install", { as: teacher, json: {} }), 404, "NOT_FOUND");
    expectProblem(await api("POST", "/api/instruments/phq-9/install", { as: "student@demo.test", json: {} }), 403, "FORBIDDEN");
    expectProblem(await api("POST", "/api/instruments/phq-9/install", { json: {} }), 401);
    const blank = await api("POST", "/api/instruments/phq-9/install", { as: teacher, json: { title: "  " } });
    expectProblem(blank, 400, "VALIDATION_FAILED");
    expect(errorPaths(blank)).toEqual(["title"]);
    const extra = await api("POST", "/api/instruments/phq-9/install", { as: teacher, json: { questions: [] } });
    expectProblem(extra, 400, "VALIDATION_FAILED");
    expect(errorPaths(extra)).toEqual(["questions"]);
  });

  it("given two installs, should make two forms; given an administrator, a form of their organization", async () => {
    const title = unique("Twice");
    const [first, second] = [await install("who-5", { title }), await install("who-5", { title })];
    expect(first.id).not.toBe(second.id);
    const listed = await api("GET", `/api/forms?search=${encodeURIComponent(title)}`, { as: teacher });
    expect(listed.body.forms.map((form: { id: string }) => form.id).sort()).toEqual([first.id, second.id].sort());
    expect(listed.body.forms[0].instrument).toEqual({ key: "who-5", version: "1", language: "en" });

    const theirs = await install("k10", {}, elsewhere);
    const stored = await testDatabase().form.findUniqueOrThrow({ where: { id: theirs.id }, select: { organizationId: true, instrument: true } });
    const other = await testDatabase().form.findUniqueOrThrow({ where: { id: first.id }, select: { organizationId: true } });
    expect(stored.organizationId).not.toBe(other.organizationId);
    // The care-over-time constants are kept beside the mark for docs/api-contract.md §18.
    expect(stored.instrument).toEqual({ key: "k10", version: "1", language: "en", reliableChange: null, remissionBelow: null, lowerIsBetter: true });
  });
});

describe("the lock", () => {
  it("given an installed form, should refuse every change to its items or scoring with 409 and change nothing", async () => {
    const form = await install("phq-9");
    const same = form.questions.map(({ id, key, text, options }) => ({ id, key, text, type: "SINGLE_CHOICE", options }));
    const locked: [string, Record<string, unknown>][] = [
      ["questions", { questions: same }],
      ["questions", { questions: same.slice(0, 8) }],
      ["questions", { questions: [{ ...same[0]!, text: "Changed" }, ...same.slice(1)] }],
      [
        "questions",
        { questions: same.map((question) => ({ ...question, options: question.options.map((option) => ({ ...option, score: option.score * 2 })) })) },
      ],
      ["questions", { questions: same.map((question) => ({ ...question, reverseScored: true })) }],
      ["questions", { questions: same.map((question) => ({ ...question, options: question.options.map((option) => ({ ...option, critical: false })) })) }],
      ["scoreRanges", { scoreRanges: [] }],
      ["scoreRanges", { scoreRanges: form.scoreRanges.map((band) => ({ ...band, color: "#000000" })) }],
      ["scoring", { scoring: { method: "SUM", maxMissing: 0, display: "RAW" } }],
      ["scoring", { scoring: null }],
      ["subscales", { subscales: [{ key: "all", name: "All", items: ["q1", "q2"] }] }],
    ];
    for (const [field, body] of locked) {
      const refused = await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: { ...body, title: "Not this title" } });
      expectProblem(refused, 409, "INSTRUMENT_LOCKED");
      expect(errorPaths(refused)).toEqual([field]);
    }
    const both = await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: { scoring: null, subscales: [] } });
    expectProblem(both, 409, "INSTRUMENT_LOCKED");
    expect(errorPaths(both)).toEqual(["scoring", "subscales"]);
    const after = await api("GET", `/api/forms/${form.id}`, { as: teacher });
    expect(after.body).toEqual({ ...form, updatedAt: after.body.updatedAt });
    expect(after.body.updatedAt).toBe(form.updatedAt);
  });

  it("given an installed form, should change its title, description, publication and critical message", async () => {
    const form = await install("epds");
    const changes = {
      title: unique("Our EPDS"),
      description: "Answer about the last seven days.",
      isPublished: true,
      criticalMessage: "Call 555-0100 at any hour.",
    };
    const saved = await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: changes });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      ...changes,
      instrument: form.instrument,
      questions: form.questions,
      scoreRanges: form.scoreRanges,
      scoring: form.scoring,
    });
    const cleared = await api("PUT", `/api/forms/${form.id}`, { as: teacher, json: { description: null, criticalMessage: null, isPublished: false } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ description: null, criticalMessage: null, isPublished: false });
  });

  it("given another organization's installed form, should answer 404 for reads and changes alike", async () => {
    const form = await install("audit-c");
    expectProblem(await api("GET", `/api/forms/${form.id}`, { as: elsewhere }), 404, "NOT_FOUND");
    expectProblem(await api("PUT", `/api/forms/${form.id}`, { as: elsewhere, json: { title: "Mine now" } }), 404, "NOT_FOUND");
    expectProblem(await api("PUT", `/api/forms/${form.id}`, { as: elsewhere, json: { scoreRanges: [] } }), 404, "NOT_FOUND");
  });

  it("given the editor's page, should save the open details, refuse the editor's lists with 409, and copy it locked", async () => {
    const form = await install("gad-7");
    const page = `/en/forms/${form.id}`;
    const html = await (await fetch(`${baseUrl()}${page}`, { headers: { cookie: sessionOf(teacher) } })).text();
    expect(html).toContain("From the instrument library");
    expect(html).toContain("This form is GAD-7 (version 2, English)");
    expect(html).toContain(`Licence: ${instrumentByKey("gad-7")!.licence}`);
    expect(html).not.toContain('name="questions[0].text"');

    const title = unique("Our GAD-7");
    const saved = await postPageForm(page, { intent: "details", title, description: "", criticalMessage: "Call us." }, sessionOf(teacher));
    expect(saved.status).toBe(302);
    const read = await api("GET", `/api/forms/${form.id}`, { as: teacher });
    expect(read.body).toMatchObject({ title, description: null, criticalMessage: "Call us.", questions: form.questions });

    // The full editor's post, as a page made before the install never is: refused, nothing changed.
    const editor = await postPageForm(
      page,
      {
        intent: "save",
        title: "Edited",
        "questions[0].text": "Changed",
        "questions[0].type": "SINGLE_CHOICE",
        "questions[0].options[0].text": "No",
        "questions[0].options[0].score": "0",
        "questions[0].options[1].text": "Yes",
        "questions[0].options[1].score": "1",
      },
      sessionOf(teacher),
    );
    expect(editor.status).toBe(409);
    expect((await api("GET", `/api/forms/${form.id}`, { as: teacher })).body).toMatchObject({ title, questions: form.questions });

    const copied = await postPageForm(page, { intent: "duplicate" }, sessionOf(teacher));
    expect(copied.status).toBe(302);
    const copyId = copied.headers.get("location")!.split("/").pop()!;
    const copy = await api("GET", `/api/forms/${copyId}`, { as: teacher });
    expect(copy.body).toMatchObject({
      instrument: form.instrument,
      isPublished: false,
      questions: form.questions.map((question) => ({ ...question, id: expect.any(String), options: expect.any(Array) })),
    });
    expectProblem(await api("PUT", `/api/forms/${copyId}`, { as: teacher, json: { scoreRanges: [] } }), 409, "INSTRUMENT_LOCKED");
  });
});
