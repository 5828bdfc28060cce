import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { assign, createStudent, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

const sampleForm = (title = unique("Reading check")) => ({
  title,
  description: "Five minutes, after the lesson.",
  category: "Reading",
  type: "QUIZ",
  targetAudience: "Grade 4",
  isPublished: true,
  scoreRanges: [
    { min: -5, max: 2, label: "Needs support", color: "#B42318" },
    { min: 3, max: 6, label: "On track", color: "#1A7F37" },
  ],
  questions: [
    {
      text: "Who is the main character?",
      type: "SINGLE_CHOICE",
      required: true,
      options: [
        { text: "The fox", score: 2 },
        { text: "The crow", score: 0 },
      ],
    },
    {
      text: "Which words describe the fox?",
      type: "MULTIPLE_CHOICE",
      options: [
        { text: "clever", score: 1 },
        { text: "honest", score: -1 },
        { text: "hungry", score: 1 },
      ],
    },
    {
      text: "How sure are you?",
      type: "SCALE",
      options: [
        { text: "1", score: 0 },
        { text: "2", score: 1 },
      ],
    },
    { text: "Tell the story in one sentence.", type: "TEXT" },
  ],
});

describe("POST /api/forms", () => {
  it("given a complete form, should create it with questions, options and ranges in order", async () => {
    const body = sampleForm();
    const response = await api("POST", "/api/forms", { as: "teacher@demo.test", json: body });
    expect(response.status).toBe(201);
    const form = response.body;
    expect(form.id).toMatch(/^c[a-z0-9]{20,}$/);
    expect(form).toMatchObject({ title: body.title, isPublished: true, isTemplate: false, deletedAt: null });
    expect(form.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(form.createdBy.name).toBeTruthy();
    // A band's `critical` is false unless given (docs/api-contract.md §16).
    expect(form.scoreRanges).toEqual(body.scoreRanges.map((range) => ({ ...range, critical: false })));
    expect(form.questions.map((q: { type: string }) => q.type)).toEqual(["SINGLE_CHOICE", "MULTIPLE_CHOICE", "SCALE", "TEXT"]);
    expect(form.questions[1].options.map((o: { score: number }) => o.score)).toEqual([1, -1, 1]);
    expect(form.questions[3].options).toEqual([]);
  });

  it("given only a title, should create an unpublished form with defaults", async () => {
    const response = await api("POST", "/api/forms", { as: "teacher@demo.test", json: { title: "Just a title" } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ isPublished: false, isTemplate: false, questions: [], scoreRanges: [], description: null });
  });

  it.each([
    [{ ...sampleForm(), title: "" }, "title"],
    [{ ...sampleForm(), scoreRanges: [{ min: 0, max: 5, label: "A", color: "green" }] }, "scoreRanges.0.color"],
    [{ ...sampleForm(), scoreRanges: [{ min: 5, max: 1, label: "A", color: "#000000" }] }, "scoreRanges.0.max"],
    [
      {
        ...sampleForm(),
        scoreRanges: [
          { min: 0, max: 5, label: "A", color: "#000000" },
          { min: 5, max: 9, label: "B", color: "#111111" },
        ],
      },
      "scoreRanges.1",
    ],
    [{ ...sampleForm(), questions: [{ text: "Q", type: "SINGLE_CHOICE", options: [{ text: "only", score: 1 }] }] }, "questions.0.options"],
    [{ ...sampleForm(), questions: [{ text: "Q", type: "TEXT", options: [{ text: "a", score: 1 }] }] }, "questions.0.options"],
    [{ ...sampleForm(), questions: [{ text: "Q", type: "ESSAY" }] }, "questions.0.type"],
    [
      {
        ...sampleForm(),
        questions: [
          {
            text: "Q",
            type: "SCALE",
            options: [
              { text: "a", score: "1" },
              { text: "b", score: 2 },
            ],
          },
        ],
      },
      "questions.0.options.0.score",
    ],
    [{ ...sampleForm(), organizationId: "x" }, "organizationId"],
    [{ ...sampleForm(), isPublished: "yes" }, "isPublished"],
  ])("given an invalid body (%#), should answer 400 pointing at %s", async (body, path) => {
    const response = await api("POST", "/api/forms", { as: "teacher@demo.test", json: body });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_FAILED");
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("given a student, should answer 403", async () => {
    expect((await api("POST", "/api/forms", { as: "student@demo.test", json: sampleForm() })).status).toBe(403);
  });
});

describe("GET /api/forms", () => {
  it("given no parameters, should list the caller's forms newest first with counts and page info", async () => {
    const response = await api("GET", "/api/forms", { as: "teacher@demo.test" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 1, limit: 20 });
    expect(response.body.total).toBeGreaterThan(0);
    const first = response.body.forms[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        "_count",
        "category",
        "createdAt",
        "description",
        "id",
        "isPublished",
        "isTemplate",
        "showResultToRespondent",
        "targetAudience",
        "title",
        "type",
        "updatedAt",
        "deletedAt",
        "instrument",
      ].sort(),
    );
    expect(first._count).toEqual({ questions: expect.any(Number), submissions: expect.any(Number) });
    const times = response.body.forms.map((f: { createdAt: string }) => f.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("given a teacher, should show their own forms and the organization's templates but not a colleague's forms", async () => {
    const mine = await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm(unique("Mine")) });
    const colleagues = await api("POST", "/api/forms", { as: "teacher2@demo.test", json: sampleForm(unique("Colleague")) });
    const template = await api("POST", "/api/forms", {
      as: "teacher2@demo.test",
      json: { ...sampleForm(unique("Shared template")), isTemplate: true },
    });
    const ids = (await api("GET", "/api/forms?limit=100", { as: "teacher@demo.test" })).body.forms.map((f: { id: string }) => f.id);
    expect(ids).toContain(mine.body.id);
    expect(ids).toContain(template.body.id);
    expect(ids).not.toContain(colleagues.body.id);
    expect((await api("GET", `/api/forms/${colleagues.body.id}`, { as: "teacher@demo.test" })).status).toBe(404);
    // A template is readable but only its author or an administrator may change it.
    expect((await api("GET", `/api/forms/${template.body.id}`, { as: "teacher@demo.test" })).status).toBe(200);
    expect((await api("PUT", `/api/forms/${template.body.id}`, { as: "teacher@demo.test", json: { title: "Mine now" } })).status).toBe(403);
    // The administrator sees both.
    const adminIds = (await api("GET", "/api/forms?limit=100", { as: "admin@demo.test" })).body.forms.map((f: { id: string }) => f.id);
    expect(adminIds).toEqual(expect.arrayContaining([mine.body.id, colleagues.body.id, template.body.id]));
  });

  it("given a search without accents or case, should find the accented title", async () => {
    const title = `Évaluation de Lecture ${unique("x")}`;
    await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm(title) });
    const response = await api("GET", `/api/forms?search=${encodeURIComponent("EVALUATION DE LEC")}&limit=100`, { as: "teacher@demo.test" });
    expect(response.body.forms.map((f: { title: string }) => f.title)).toContain(title);
  });

  it("given a search with LIKE wildcards, should match them literally", async () => {
    const tag = unique("w").replaceAll("-", "");
    const percent = (await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm(`Done 100% ${tag}`) })).body;
    const underscore = (await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm(`Done_1000 ${tag}`) })).body;
    await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm(`Done 1000 ${tag}`) });
    const search = async (term: string) =>
      (await api("GET", `/api/forms?search=${encodeURIComponent(term)}`, { as: "teacher@demo.test" })).body.forms.map((f: { id: string }) => f.id);
    expect(await search(`100% ${tag}`)).toEqual([percent.id]);
    expect(await search(`e_1`)).toEqual([underscore.id]);
    expect(await search(`%%%`)).toEqual([]);
  });

  it("given published and isTemplate filters, should apply them", async () => {
    const draft = await api("POST", "/api/forms", { as: "teacher@demo.test", json: { ...sampleForm(), isPublished: false } });
    const published = (await api("GET", "/api/forms?published=true&limit=100", { as: "teacher@demo.test" })).body.forms;
    expect(published.every((f: { isPublished: boolean }) => f.isPublished)).toBe(true);
    expect(published.map((f: { id: string }) => f.id)).not.toContain(draft.body.id);
    const drafts = (await api("GET", "/api/forms?published=FALSE&limit=100", { as: "teacher@demo.test" })).body.forms;
    expect(drafts.map((f: { id: string }) => f.id)).toContain(draft.body.id);
    const templates = (await api("GET", "/api/forms?isTemplate=1", { as: "teacher@demo.test" })).body.forms;
    expect(templates.length).toBeGreaterThan(0);
    expect(templates.every((f: { isTemplate: boolean }) => f.isTemplate)).toBe(true);
  });

  it("given a form with pending, completed and deleted results, should count its questions and its results not deleted, as the teacher and the administrator see it", async () => {
    const title = unique("Counted");
    const created = await api("POST", "/api/forms", { as: "teacher@demo.test", json: mixedForm(title) });
    expect(created.status).toBe(201);
    const form = created.body;
    const links = [];
    for (const n of [1, 2, 3]) {
      const student = await createStudent("teacher@demo.test", `${title} ${n}`);
      links.push(await assign("teacher@demo.test", { formId: form.id, studentId: student.id }));
    }
    expect((await api("POST", `/api/test-link/${links[0]!.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
    // A deleted result, written straight to the database (the API deletes none one by one).
    await testDatabase().submission.update({ where: { id: links[2]!.id }, data: { deletedAt: new Date() } });
    const empty = (await api("POST", "/api/forms", { as: "teacher@demo.test", json: { title: `${title} empty` } })).body;

    for (const as of ["teacher@demo.test", "admin@demo.test"] as const) {
      const listed = (await api("GET", `/api/forms?search=${encodeURIComponent(title)}`, { as })).body;
      const countOf = (id: string) => listed.forms.find((f: { id: string }) => f.id === id)?._count;
      expect(countOf(form.id), as).toEqual({ questions: form.questions.length, submissions: 2 });
      expect(countOf(empty.id), as).toEqual({ questions: 0, submissions: 0 });
    }
  });

  it("given pages, should split the list without overlap", async () => {
    // Forms of this test's own, found by their title: other test files create forms in the same
    // organization while this one pages, which moved the total between the two pages.
    const tag = unique("Paged");
    const created = [];
    for (const n of [1, 2, 3]) created.push((await api("POST", "/api/forms", { as: "admin@demo.test", json: sampleForm(`${tag} ${n}`) })).body.id);
    const page = async (n: number) => (await api("GET", `/api/forms?limit=2&page=${n}&search=${encodeURIComponent(tag)}`, { as: "admin@demo.test" })).body;
    const [first, second] = [await page(1), await page(2)];
    expect(first).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(second).toMatchObject({ page: 2, limit: 2, total: 3 });
    const ids = (body: { forms: { id: string }[] }) => body.forms.map((form) => form.id);
    // Each form on exactly one page (forms made in the same millisecond may come in either order).
    expect(ids(first)).toHaveLength(2);
    expect([...ids(first), ...ids(second)].toSorted()).toEqual(created.toSorted());
  });

  it.each(["page=0", "page=-1", "page=abc", "limit=0", "limit=101", "limit=2.5", "published=maybe", "isTemplate=", "unknown=1", "page=1&page=2"])(
    "given %s, should answer 400",
    async (query) => {
      const response = await api("GET", `/api/forms?${query}`, { as: "teacher@demo.test" });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("VALIDATION_FAILED");
    },
  );
});

describe("PUT /api/forms/:id", () => {
  it("given only some fields, should change only those", async () => {
    const created = (await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm() })).body;
    const response = await api("PUT", `/api/forms/${created.id}`, { as: "teacher@demo.test", json: { title: "Renamed", isPublished: false } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ title: "Renamed", isPublished: false, description: created.description });
    expect(response.body.questions).toEqual(created.questions);
    expect(response.body.scoreRanges).toEqual(created.scoreRanges);
  });

  it("given questions, should keep those with an id, create new ones and remove missing ones", async () => {
    const created = (await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm() })).body;
    const [first, second] = created.questions;
    const response = await api("PUT", `/api/forms/${created.id}`, {
      as: "teacher@demo.test",
      json: {
        questions: [
          {
            id: second.id,
            text: "Reworded",
            type: second.type,
            options: [
              { id: second.options[0].id, text: "smart", score: 3 },
              { text: "new", score: 0 },
            ],
          },
          { text: "Brand new", type: "TEXT" },
          { id: first.id, text: first.text, type: first.type, required: true, options: first.options },
        ],
      },
    });
    expect(response.status).toBe(200);
    const questions = response.body.questions;
    expect(questions.map((q: { id: string }) => q.id)).toEqual([second.id, expect.any(String), first.id]);
    expect(questions[0].options[0]).toEqual({
      id: second.options[0].id,
      text: "smart",
      score: 3,
      critical: false,
      imageId: null,
      imageAlt: null,
      correct: false,
      feedback: null,
    });
    expect(questions[0].options).toHaveLength(2);
    expect(questions[1]).toMatchObject({ text: "Brand new", type: "TEXT", required: false, options: [] });
    expect(questions).toHaveLength(3);
  });

  it("given a question id of another form, should answer 400 and change nothing", async () => {
    const a = (await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm() })).body;
    const b = (await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm() })).body;
    const response = await api("PUT", `/api/forms/${a.id}`, {
      as: "teacher@demo.test",
      json: { title: "Should not stick", questions: [{ id: b.questions[3].id, text: "x", type: "TEXT" }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual(expect.objectContaining({ path: "questions.0.id" }));
    const unchanged = (await api("GET", `/api/forms/${a.id}`, { as: "teacher@demo.test" })).body;
    expect(unchanged.title).toBe(a.title);
    expect(unchanged.questions).toEqual(a.questions);
  });
});

describe("DELETE /api/forms/:id", () => {
  it("given the author, should soft-delete: 200 with deletedAt, then 404 and gone from lists", async () => {
    const created = (await api("POST", "/api/forms", { as: "teacher@demo.test", json: sampleForm() })).body;
    const response = await api("DELETE", `/api/forms/${created.id}`, { as: "teacher@demo.test" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: created.id, deletedAt: expect.stringMatching(/Z$/) });
    expect((await api("GET", `/api/forms/${created.id}`, { as: "teacher@demo.test" })).status).toBe(404);
    expect((await api("PUT", `/api/forms/${created.id}`, { as: "teacher@demo.test", json: { title: "x" } })).status).toBe(404);
    expect((await api("DELETE", `/api/forms/${created.id}`, { as: "teacher@demo.test" })).status).toBe(404);
    const ids = (await api("GET", "/api/forms?limit=100", { as: "admin@demo.test" })).body.forms.map((f: { id: string }) => f.id);
    expect(ids).not.toContain(created.id);
  });
});
