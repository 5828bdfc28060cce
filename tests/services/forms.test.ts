import { describe, expect, it } from "vitest";
import { draftFromForm, validateDraft } from "../../app/features/forms/form-editor.server.ts";
import { editorPost } from "../../app/features/forms/form-pages.server.ts";
import { createFormBody, listFormsQuery, type UpdateFormInput, updateFormBody } from "../../app/features/forms/form-schemas.ts";
import { getForm, listForms, updateForm } from "../../app/features/forms/forms.server.ts";
import { es } from "../../app/i18n/es.ts";
import { parseWith } from "../../app/lib/http.server.ts";
import { newForm, newOrganization, unique } from "../support/services.ts";

/**
 * Creating a form and what is refused, as the API route (app/routes/api/forms.ts: the body parsed
 * with createFormBody, then createForm) and the editor page (editorPost, app/features/forms/
 * form-pages.server.ts) call the services: each refusal names the field and the dictionary key.
 */
const question = (text: string, scores: number[]) => ({
  text,
  type: "SINGLE_CHOICE",
  required: true,
  options: scores.map((score) => ({ text: `Scores ${score}`, score })),
});

const band = (min: number, max: number, label: string) => ({ min, max, label, color: "#1A7F37" });

/** The editor page's post, as its fields name them. */
function editorPostOf(fields: Record<string, string>) {
  const post = new FormData();
  for (const [name, value] of Object.entries(fields)) post.append(name, value);
  return post;
}

/** Totals from 0 to 4, in two bands. */
const twoQuestions = () => ({
  title: unique("Screen"),
  scoreRanges: [band(0, 1, "Low"), band(2, 4, "High")],
  questions: [question("First", [0, 2]), question("Second", [0, 1, 2])],
});

describe("creating a form", () => {
  it("given a valid body, should store it unpublished as the caller's, seen by an administrator and not by a colleague", async () => {
    const school = await newOrganization();

    const form = await newForm(school.teacher, twoQuestions());

    expect(form).toMatchObject({ isPublished: false, isTemplate: false, createdBy: { id: school.teacher.userId } });
    // A band is not critical unless it says so (docs/api-contract.md §16).
    expect(form.scoreRanges).toEqual([band(0, 1, "Low"), band(2, 4, "High")].map((range) => ({ ...range, critical: false })));
    expect(form.questions.map((q) => [q.text, q.options.map((o) => o.score)])).toEqual([
      ["First", [0, 2]],
      ["Second", [0, 1, 2]],
    ]);
    expect((await getForm(school.admin, form.id)).title).toBe(form.title);
    await expect(getForm(school.colleague, form.id)).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect((await listForms(school.colleague, parseWith(listFormsQuery, {}))).total).toBe(0);
  });

  it.each([
    { refused: "no title", body: { ...twoQuestions(), title: undefined }, path: "title", key: { key: "required", params: [] } },
    {
      refused: "a choice with one option",
      body: { ...twoQuestions(), scoreRanges: [], questions: [question("Only", [1])] },
      path: "questions.0.options",
      key: { key: "needOptions", params: ["2"] },
    },
    {
      refused: "bands that overlap",
      body: { ...twoQuestions(), scoreRanges: [band(0, 2, "Low"), band(2, 4, "High")] },
      path: "scoreRanges.1",
      key: { key: "overlaps", params: ["1"] },
    },
    {
      refused: "a band no total reaches",
      body: { ...twoQuestions(), scoreRanges: [band(0, 4, "All"), band(5, 9, "Beyond")] },
      path: "scoreRanges.1",
      key: { key: "bandUnreachable", params: ["0", "4"] },
    },
  ])("given $refused, should refuse the body with 400 naming $path and the message's key", ({ body, path, key }) => {
    expect(() => parseWith(createFormBody, body)).toThrow(expect.objectContaining({ status: 400, errors: [expect.objectContaining({ path, key })] }));
  });

  it("given new bands alone that the stored questions cannot reach, should refuse them naming the band and keep the form as it was", async () => {
    const school = await newOrganization();
    const form = await newForm(school.teacher, twoQuestions());

    const bands = parseWith(updateFormBody, { scoreRanges: [band(0, 4, "All"), band(5, 9, "Beyond")] });
    await expect(updateForm(school.teacher, form.id, bands)).rejects.toMatchObject({
      status: 400,
      errors: [{ path: "scoreRanges.1", key: { key: "bandUnreachable", params: ["0", "4"] } }],
    });
    // The questions alone: the stored bands are not in the body, so the questions are named.
    const questions = parseWith(updateFormBody, { questions: [question("First", [0, 1])] });
    await expect(updateForm(school.teacher, form.id, questions)).rejects.toMatchObject({
      status: 400,
      errors: [{ path: "questions", key: { key: "bandUnreachable", params: ["0", "1"] } }],
    });

    const stored = await getForm(school.teacher, form.id);
    expect(stored.scoreRanges).toEqual(form.scoreRanges);
    expect(stored.questions).toEqual(form.questions);
  });

  it("given bands a multiplied total reaches, should take them, and refuse a scoring alone that leaves them out of reach", async () => {
    const school = await newOrganization();
    // WHO-5: five items of 0 to 5, the raw sum × 4 (0 to 100).
    const body = {
      title: unique("Well-being"),
      scoring: { multiplier: 4, display: "RAW" },
      scoreRanges: [band(0, 28, "Low"), band(29, 50, "Poor"), band(51, 100, "Good")],
      questions: ["a", "b", "c", "d", "e"].map((text) => question(text, [0, 1, 2, 3, 4, 5])),
    };
    const form = await newForm(school.teacher, body);
    expect(form.scoring).toMatchObject({ multiplier: 4 });

    expect(() => parseWith(createFormBody, { ...body, scoreRanges: [band(0, 100, "All"), band(101, 120, "Beyond")] })).toThrow(
      expect.objectContaining({ errors: [expect.objectContaining({ path: "scoreRanges.1", key: { key: "bandUnreachable", params: ["0", "100"] } })] }),
    );
    await expect(updateForm(school.teacher, form.id, parseWith(updateFormBody, { scoring: { multiplier: 1 } }))).rejects.toMatchObject({
      status: 400,
      // "Poor" and "Good" are out of reach of a raw 0 to 25.
      errors: [1, 2].map(() => ({ path: "scoring", key: { key: "bandUnreachable", params: ["0", "25"] } })),
    });
    expect((await getForm(school.teacher, form.id)).scoring).toMatchObject({ multiplier: 4 });
  });

  it("given the editor's save with a question of one option, should answer 400 with the field's error in the page's language and store nothing", async () => {
    const school = await newOrganization();
    const title = unique("From the editor");
    const post = editorPostOf({
      title,
      "questions[0].text": "Only",
      "questions[0].type": "SINGLE_CHOICE",
      "questions[0].options[0].text": "Yes",
      "questions[0].options[0].score": "1",
      intent: "save",
    });

    const refused = await editorPost(school.teacher, "es", post, null);

    expect(refused).toMatchObject({ init: { status: 400 }, data: { error: { fieldErrors: { "questions[0].options": [es.fieldProblems.needOptions("2")] } } } });
    expect((await listForms(school.teacher, parseWith(listFormsQuery, { search: title }))).total).toBe(0);

    post.append("questions[0].options[1].text", "No");
    post.append("questions[0].options[1].score", "0");
    const saved = await editorPost(school.teacher, "es", post, null);

    expect(saved).toBeInstanceOf(Response);
    const { forms } = await listForms(school.teacher, parseWith(listFormsQuery, { search: title }));
    expect(forms).toMatchObject([{ title, isPublished: false, _count: { questions: 1 } }]);
    expect({ status: (saved as Response).status, location: (saved as Response).headers.get("location") }).toEqual({
      status: 302,
      location: `/es/forms/${forms[0]!.id}`,
    });
  });

  it("given the editor's save with a question whose options all score the same, should store nothing until told to save anyway", async () => {
    const school = await newOrganization();
    const title = unique("Flat");
    const post = (intent: string) =>
      editorPostOf({
        title,
        "questions[0].text": "Did you sleep well?",
        "questions[0].type": "SINGLE_CHOICE",
        "questions[0].options[0].text": "Yes",
        "questions[0].options[0].score": "1",
        "questions[0].options[1].text": "No",
        "questions[0].options[1].score": "1",
        intent,
      });

    const held = await editorPost(school.teacher, "es", post("save"), null);

    expect(held).toMatchObject({ warnings: { oneScore: [0] } });
    expect((await listForms(school.teacher, parseWith(listFormsQuery, { search: title }))).total).toBe(0);
    const saved = await editorPost(school.teacher, "es", post("save-anyway"), null);
    expect(saved).toBeInstanceOf(Response);
    expect((await listForms(school.teacher, parseWith(listFormsQuery, { search: title }))).total).toBe(1);
  });

  it("given a form with keys, a reverse item, subscales and critical marks, should give the editor a draft that saves it as it was", async () => {
    const school = await newOrganization();
    const likert = (critical: boolean) => [0, 1, 2, 3].map((score) => ({ text: `Scores ${score}`, score, critical: critical && score === 3 }));
    const form = await newForm(school.teacher, {
      title: unique("Stress check"),
      scoring: { method: "SUM", multiplier: 1, maxMissing: 1, display: "RAW" },
      scoreRanges: [{ ...band(7, 9, "High"), critical: true }],
      questions: [
        { text: "Wind down", type: "SINGLE_CHOICE", required: true, key: "s1", options: likert(false) },
        { text: "Nothing ahead", type: "SINGLE_CHOICE", required: true, options: likert(true) },
        { text: "Relax", type: "SINGLE_CHOICE", required: true, key: "s2r", reverseScored: true, options: likert(false) },
      ],
      subscales: [
        { key: "stress", name: "Stress", items: ["s2r", "s1"], method: "SUM", multiplier: 2, scoreRanges: [{ ...band(0, 12, "All"), critical: true }] },
      ],
      criticalMessage: "Call the helpline.",
    });

    const draft = draftFromForm(form);
    expect(draft.subscales[0]!.items).toEqual([form.questions[2]!.id, form.questions[0]!.id]);
    const parsed = validateDraft(draft, "update", es);
    expect(parsed.success).toBe(true);
    const again = await updateForm(school.teacher, form.id, (parsed as { data: UpdateFormInput }).data);

    const { updatedAt: _before, ...before } = form;
    const { updatedAt: _after, ...after } = again;
    expect(after).toEqual(before);
  });
});
