import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, sessionOf, unique } from "../support/api.ts";
import { createForm, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

/** A teacher's preview of a form (docs/api-contract.md §12) over plain HTTP: the respondent's page, storing nothing. */
const teacher = () => sessionOf("teacher@demo.test");
const get = (path: string, session = teacher()) => fetch(`${baseUrl()}${path}`, { headers: { cookie: session }, redirect: "manual" });

describe("the form preview", () => {
  it("given an unpublished form, should show it as the respondent will, check the answers as a submit does, and store nothing", async () => {
    const form = await createForm("teacher@demo.test", { ...mixedForm(unique("Previewed")), isPublished: false });
    const page = await get(`/en/forms/${form.id}/preview`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Preview: what the respondent sees");
    for (const question of form.questions) expect(html).toContain(question.text);
    expect(html).not.toContain("Save and finish later");
    // Scores never reach the page, as on the public link.
    expect(html).not.toMatch(/score/i);

    const [q1, q2, q3] = form.questions;
    const missing = await postPageForm(`/es/forms/${form.id}/preview`, { [`q_${q1!.id}`]: q1!.options[0]!.id }, teacher());
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Esta pregunta necesita una respuesta.");
    const complete = await postPageForm(
      `/en/forms/${form.id}/preview`,
      { [`q_${q1!.id}`]: q1!.options[0]!.id, [`q_${q2!.id}`]: q2!.options[0]!.id, [`q_${q3!.id}`]: q3!.options[1]!.id },
      teacher(),
    );
    expect(complete.status).toBe(200);
    expect(await complete.text()).toContain("These answers would be accepted. Nothing was stored.");
    expect(await testDatabase().submission.count({ where: { formId: form.id } })).toBe(0);
    expect((await api("GET", `/api/forms/${form.id}`, { as: "teacher@demo.test" })).body._count?.submissions ?? 0).toBe(0);
  });

  it("given another organization's form or a student's login, should answer 404 and 403", async () => {
    const theirs = await createForm("teacher@other.test");
    expect((await get(`/en/forms/${theirs.id}/preview`)).status).toBe(404);
    expect((await get(`/en/forms/${theirs.id}/preview`, sessionOf("student@demo.test"))).status).toBe(403);
  });
});
