import { describe, expect, it } from "vitest";
import { api, baseUrl, type DemoUser, postPageForm, sessionOf, unique } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { capitalsFormBody } from "../support/form-bodies.ts";

/**
 * The editor's answer key and versions (docs/api-contract.md §22, ADR 90) over plain HTTP, as a
 * browser without JavaScript posts the page: points, the scoring of several correct options,
 * correct marks, feedback and the form's review saved and read back, the key's errors by their
 * fields in the page's language, and the warning before a change makes a new version of a form
 * with results.
 */
const TEACHER: DemoUser = "teacher@demo.test";
type Fields = [string, string][];

const page = async (path: string) => {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie: sessionOf(TEACHER) } });
  expect(response.status, path).toBe(200);
  return response.text();
};
const post = (path: string, fields: Fields) => postPageForm(path, fields, sessionOf(TEACHER));
const read = async (id: string) => (await api("GET", `/api/forms/${id}`, { as: TEACHER })).body;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name]!);
const attribute = (attributes: string, name: string) => {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(attributes)?.[1];
  return value === undefined ? undefined : decode(value);
};

/**
 * What the editor's form posts as the page shows it, in its order: its inputs (a checkbox only
 * when ticked), text areas and selects, without the fields of the images' own forms and without
 * the token (the post adds the session's).
 */
function editorFields(html: string): Fields {
  const form = [...html.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((match) => match[0]).find((text) => text.includes('name="questions[0].text"'));
  expect(form, "the editor's form").toBeDefined();
  const fields: Fields = [];
  const controls = /<input\b([^>]*?)\/?>|<textarea\b([^>]*)>([\s\S]*?)<\/textarea>|<select\b([^>]*)>([\s\S]*?)<\/select>/g;
  for (const [, input, area, areaText, select, selectOptions] of form!.matchAll(controls)) {
    const attributes = input ?? area ?? select!;
    const name = attribute(attributes, "name");
    if (!name || name === "csrfToken" || attribute(attributes, "form") !== undefined) continue;
    if (input !== undefined) {
      const type = attribute(input, "type") ?? "text";
      if (type === "file" || type === "submit") continue;
      if ((type === "checkbox" || type === "radio") && !/\schecked=""/.test(input)) continue;
      fields.push([name, attribute(input, "value") ?? (type === "checkbox" ? "on" : "")]);
    } else if (area !== undefined) {
      fields.push([name, decode(areaText!).replace(/^\n/, "")]);
    } else {
      const chosen = /<option[^>]*\svalue="([^"]*)"[^>]*\sselected=""/.exec(selectOptions!) ?? /<option[^>]*\svalue="([^"]*)"/.exec(selectOptions!);
      fields.push([name, decode(chosen?.[1] ?? "")]);
    }
  }
  return fields;
}

/** The fields with `name` set to `value` (added when absent), or left out when `value` is null (an unticked checkbox). */
function withField(fields: Fields, name: string, value: string | null): Fields {
  const rest = fields.filter(([field]) => field !== name);
  return value === null ? rest : [...rest, [name, value]];
}

const fieldValue = (fields: Fields, name: string) => fields.find(([field]) => field === name)?.[1];
const escaped = (name: string) => name.replace(/[.[\]]/g, "\\$&");
/** The message under a field, or null. */
const errorOf = (html: string, name: string) => new RegExp(`id="${escaped(name)}-error"[^>]*>([^<]*)<`).exec(html)?.[1] ?? null;

/** A completed result of the form, answering Paris. */
async function complete(form: { id: string; questions: { id: string; options: { id: string }[] }[] }) {
  const student = await createStudent(TEACHER);
  const link = await assign(TEACHER, { formId: form.id, studentId: student.id });
  const answers = [{ questionId: form.questions[0]!.id, optionIds: [form.questions[0]!.options[0]!.id] }];
  const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers } });
  expect(submit.status, submit.text).toBe(200);
}

describe("the editor's answer key", () => {
  it("given a key with points, partial credit, feedback and a review posted on a new form, should save it and show it back", async () => {
    const created = await post("/en/forms/new", [
      ["title", unique("Primes")],
      ["review", "AFTER_SUBMIT"],
      ["questions[0].ref", "new-1"],
      ["questions[0].text", "Which numbers are prime?"],
      ["questions[0].type", "MULTIPLE_CHOICE"],
      ["questions[0].points", "4"],
      ["questions[0].scoringRule", "PARTIAL"],
      ["questions[0].feedback", "A prime has exactly two divisors."],
      ["questions[0].options[0].text", "2"],
      ["questions[0].options[0].correct", "on"],
      ["questions[0].options[0].feedback", "Yes: the only even prime."],
      ["questions[0].options[1].text", "4"],
      ["questions[0].options[1].feedback", "4 = 2 × 2."],
      ["questions[0].options[2].text", "5"],
      ["questions[0].options[2].correct", "on"],
      ["intent", "save"],
    ]);
    expect(created.status, await created.clone().text()).toBe(302);
    const id = created.headers.get("location")!.split("/").pop()!;
    const saved = await read(id);
    expect(saved).toMatchObject({ review: "AFTER_SUBMIT", version: 1 });
    expect(saved.questions[0]).toMatchObject({
      points: 4,
      scoringRule: "PARTIAL",
      feedback: "A prime has exactly two divisors.",
      options: [
        { text: "2", correct: true, feedback: "Yes: the only even prime." },
        { text: "4", correct: false, feedback: "4 = 2 × 2." },
        { text: "5", correct: true, feedback: null },
      ],
    });

    // The editor shows it all back, and posted as it is changes nothing.
    const html = await page(`/en/forms/${id}`);
    expect(html).toContain("Version 1 · 0 results");
    expect(html).toContain("the options&#x27; scores are not used");
    const fields = editorFields(html);
    expect(fieldValue(fields, "review")).toBe("AFTER_SUBMIT");
    expect(fieldValue(fields, "questions[0].points")).toBe("4");
    expect(fieldValue(fields, "questions[0].scoringRule")).toBe("PARTIAL");
    expect(fieldValue(fields, "questions[0].feedback")).toBe("A prime has exactly two divisors.");
    expect(fields.filter(([name]) => name.endsWith(".correct")).map(([name]) => name)).toEqual([
      "questions[0].options[0].correct",
      "questions[0].options[2].correct",
    ]);
    expect(fieldValue(fields, "questions[0].options[1].feedback")).toBe("4 = 2 × 2.");
    const again = await post(`/en/forms/${id}`, [...fields, ["intent", "save"]]);
    expect(again.status).toBe(302);
    const { updatedAt: _before, ...before } = saved;
    const { updatedAt: _after, ...after } = await read(id);
    expect(after).toEqual(before);

    // Points taken away: scored by the options again, its marks kept.
    const unkeyed = await post(`/en/forms/${id}`, [...withField(fields, "questions[0].points", ""), ["intent", "save"]]);
    expect(unkeyed.status).toBe(302);
    expect((await read(id)).questions[0]).toMatchObject({ points: null, options: [{ correct: true }, { correct: false }, { correct: true }] });
  });

  it("given a key the service refuses, in Spanish, should name each problem at its field and keep what was typed", async () => {
    const question = (i: number, type: string, points: string, extra: Fields = []): Fields => [
      [`questions[${i}].ref`, `new-${i + 1}`],
      [`questions[${i}].text`, `Pregunta ${i + 1}`],
      [`questions[${i}].type`, type],
      [`questions[${i}].points`, points],
      ...(type === "TEXT"
        ? []
        : ([
            [`questions[${i}].options[0].text`, "Sí"],
            [`questions[${i}].options[1].text`, "No"],
          ] as Fields)),
      ...extra,
    ];
    const refused = await post("/es/forms/new", [
      ["title", unique("Clave")],
      // Points without a correct option.
      ...question(0, "SINGLE_CHOICE", "2"),
      // Points on a text question.
      ...question(1, "TEXT", "1"),
      // Points of 0.
      ...question(2, "SINGLE_CHOICE", "0", [["questions[2].options[0].correct", "on"]]),
      // A keyed question reverse scored.
      ...question(3, "SINGLE_CHOICE", "1", [
        ["questions[3].options[0].correct", "on"],
        ["questions[3].reverseScored", "on"],
      ]),
      ["intent", "save"],
    ]);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(errorOf(html, "questions[0].options")).toBe("Marca al menos una opción como correcta, o quita los puntos.");
    expect(errorOf(html, "questions[1].points")).toBe("Los puntos solo van en preguntas de opción única o múltiple.");
    expect(errorOf(html, "questions[2].points")).toBe("Usa un número mayor que 0.");
    expect(errorOf(html, "questions[3].reverseScored")).toBe("Una pregunta calificada por su clave no se puntúa a la inversa.");
    // The summary names the fields in Spanish; the text question's points are shown, to be fixed.
    expect(html).toContain("Puntos de la pregunta 2: Los puntos solo van");
    const kept = editorFields(html);
    expect(fieldValue(kept, "questions[0].points")).toBe("2");
    expect(fieldValue(kept, "questions[3].options[0].correct")).toBe("on");
  });
});

describe("the editor's warning before a new version", () => {
  it("given a form with a completed result, should hold a key change back with the count, save it as version 2 when confirmed, and rescore on request", async () => {
    const form = await createForm(TEACHER, capitalsFormBody(unique("Capitals"), 1));
    await complete(form);
    const html = await page(`/en/forms/${form.id}`);
    expect(html).toContain("Version 1 · 1 result");

    // Lyon made the right answer: held back, nothing saved, everything typed kept.
    const changed = withField(withField(editorFields(html), "questions[0].options[0].correct", null), "questions[0].options[1].correct", "on");
    const title = unique("Capitals renamed");
    const asked = await post(`/en/forms/${form.id}`, [...withField(changed, "title", title), ["intent", "save"]]);
    expect(asked.status).toBe(409);
    const warning = await asked.text();
    expect(warning).toContain("1 result was scored with the current version. Saving makes version 2: that result keeps its score until you rescore it.");
    expect(warning).toContain("Save as version 2");
    expect(warning).toContain("Save and rescore");
    const stored = await read(form.id);
    expect(stored).toMatchObject({ version: 1, title: form.title });
    expect(stored.questions[0].options.map((option: { correct: boolean }) => option.correct)).toEqual([true, false]);
    const kept = editorFields(warning);
    expect(fieldValue(kept, "title")).toBe(title);
    expect(fieldValue(kept, "questions[0].options[0].correct")).toBeUndefined();
    expect(fieldValue(kept, "questions[0].options[1].correct")).toBe("on");
    expect(fieldValue(kept, "confirmVersion")).toBe("2");

    // "Save as version 2": the page posted again, with its hidden confirmation.
    const confirmed = await post(`/en/forms/${form.id}`, [...kept, ["intent", "save"]]);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`/en/forms/${form.id}`);
    const raised = await read(form.id);
    expect(raised).toMatchObject({ version: 2, title });
    expect(raised.questions[0].options.map((option: { correct: boolean }) => option.correct)).toEqual([false, true]);
    expect(await page(`/en/forms/${form.id}`)).toContain("Version 2 · 0 results");

    // Wording changes no score: saved in place. A result at version 2, then a change of points:
    // a confirmation of another version is asked again, and "Save and rescore" opens the rescore page.
    const reworded = await post(`/en/forms/${form.id}`, [
      ...withField(editorFields(await page(`/en/forms/${form.id}`)), "questions[0].text", "The capital of France, today?"),
      ["intent", "save"],
    ]);
    expect(reworded.status).toBe(302);
    await complete(raised);
    const twoPoints = withField(editorFields(await page(`/en/forms/${form.id}`)), "questions[0].points", "2");
    const stale = await post(`/en/forms/${form.id}`, [...twoPoints, ["confirmVersion", "2"], ["intent", "save"]]);
    expect(stale.status).toBe(409);
    const again = await stale.text();
    expect(again).toContain("Saving makes version 3");
    expect((await read(form.id)).questions[0].points).toBe(1);
    const rescore = await post(`/en/forms/${form.id}`, [...editorFields(again), ["intent", "save-rescore"]]);
    expect(rescore.status).toBe(302);
    expect(rescore.headers.get("location")).toBe(`/en/forms/${form.id}/rescore`);
    expect(await read(form.id)).toMatchObject({ version: 3, questions: [{ points: 2, text: "The capital of France, today?" }, {}] });
  });
});
