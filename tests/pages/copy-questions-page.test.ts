import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, sessionOf, unique } from "../support/api.ts";
import { createForm, installPhq9, mixedForm } from "../support/assessment.ts";

/** "Copy questions from another form" over plain HTTP, as a browser without JavaScript uses it. */
const teacher = () => sessionOf("teacher@demo.test");

const get = (path: string) => fetch(`${baseUrl()}${path}`, { headers: { cookie: teacher() }, redirect: "manual" });

const post = (path: string, fields: [string, string][]) => postPageForm(path, fields, teacher());

describe("the page that copies questions from another form", () => {
  it("given a source chosen and questions ticked, should copy them to the end of the form and go back to its editor", async () => {
    const source = await createForm("teacher@demo.test", mixedForm(unique("Page source")));
    const target = await createForm("teacher@demo.test", mixedForm(unique("Page target")));
    const page = `/en/forms/${target.id}/copy-questions`;

    const choose = await get(page);
    expect(choose.status).toBe(200);
    const chooseHtml = await choose.text();
    expect(chooseHtml).toContain("Copy questions from another form");
    expect(chooseHtml).toContain(`<option value="${source.id}">${source.title}</option>`);
    expect(chooseHtml).not.toContain(`<option value="${target.id}"`);
    // The editor links to the page.
    expect(await (await get(`/en/forms/${target.id}`)).text()).toContain(`href="${page}"`);

    const listed = await (await get(`${page}?from=${source.id}`)).text();
    for (const question of source.questions) expect(listed).toContain(`value="${question.id}"`);
    // The post goes back to the page with the source chosen, so a refused one shows the questions again.
    expect(listed).toContain(`action="${page}?from=${source.id}"`);

    const [, second, , fourth] = source.questions;
    const copied = await post(page, [
      ["fromFormId", source.id],
      ["questionIds", second!.id],
      ["questionIds", fourth!.id],
    ]);
    expect(copied.status).toBe(302);
    expect(copied.headers.get("location")).toBe(`/en/forms/${target.id}`);
    const form = (await api("GET", `/api/forms/${target.id}`, { as: "teacher@demo.test" })).body;
    expect(form.questions.map((question: { text: string }) => question.text)).toEqual([
      "Pick one",
      "Pick any",
      "Rate it",
      "Say something",
      "Pick any",
      "Say something",
    ]);
  });

  it("given nothing ticked, should answer the page with the message in its language and copy nothing", async () => {
    const source = await createForm("teacher@demo.test", mixedForm(unique("Nothing source")));
    const target = await createForm("teacher@demo.test", mixedForm(unique("Nothing target")));
    for (const [locale, message] of [
      ["en", "Tick at least one question."],
      ["es", "Marca al menos una pregunta."],
      ["pt-BR", "Marque pelo menos uma pergunta."],
    ] as const) {
      const response = await post(`/${locale}/forms/${target.id}/copy-questions?from=${source.id}`, [["fromFormId", source.id]]);
      expect(response.status, locale).toBe(400);
      expect(await response.text()).toContain(message);
    }
    expect((await api("GET", `/api/forms/${target.id}`, { as: "teacher@demo.test" })).body.questions).toHaveLength(4);
  });

  it("given an installed instrument, should say that questions cannot be added, and refuse a post (409)", async () => {
    const phq9 = await installPhq9("teacher@demo.test");
    const source = await createForm("teacher@demo.test", mixedForm(unique("Locked source")));
    const page = `/en/forms/${phq9.id}/copy-questions`;
    const html = await (await get(page)).text();
    expect(html).toContain("This form is an installed instrument: questions cannot be added to it.");
    expect(html).not.toContain('name="from"');
    expect(await (await get(`/en/forms/${phq9.id}`)).text()).not.toContain(`href="${page}"`);
    const refused = await post(page, [
      ["fromFormId", source.id],
      ["questionIds", source.questions[0]!.id],
    ]);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("This form is an installed instrument: questions cannot be added to it.");
    expect((await api("GET", `/api/forms/${phq9.id}`, { as: "teacher@demo.test" })).body.questions).toHaveLength(9);
  });
});
