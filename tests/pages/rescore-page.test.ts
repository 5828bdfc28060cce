import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, sessionOf, unique } from "../support/api.ts";
import { completeQuiz, type KeyedQuizForm, keyedQuiz, rekeyedQuiz } from "../support/assessment.ts";

/**
 * "Rescore results" and the summary of a keyed form over plain HTTP, as a browser without
 * JavaScript uses them (docs/api-contract.md §22): the page lists the results whose scores change,
 * before and after, and rescores them with one post; the summary shows the most missed questions
 * first, each keyed question's correct rate, and a version filter while results stand at two.
 */
const teacher = () => ({ cookie: sessionOf("teacher@demo.test") });

const get = (path: string, cookie = teacher().cookie) => fetch(`${baseUrl()}${path}`, { headers: { cookie }, redirect: "manual" });

/** A keyed quiz with Ana's result (Paris) and Bruno's (Nice) at version 1, its key then moved to Lyon, and Carla's result at version 2. */
async function rekeyedWithResults() {
  const created = await api("POST", "/api/forms", { ...teacher(), json: keyedQuiz(unique("Page quiz")) });
  expect(created.status, created.text).toBe(201);
  const form = created.body as KeyedQuizForm;
  const names = { ana: unique("Ana"), bruno: unique("Bruno"), carla: unique("Carla") };
  await completeQuiz(teacher(), form, [0, [0, 1], 0], names.ana);
  await completeQuiz(teacher(), form, [2, [0, 1], 1], names.bruno);
  const body = rekeyedQuiz(form, (question, index) =>
    index === 0 ? { options: question.options.map(({ id, text, score }) => ({ id, text, score, correct: text === "Lyon" })) } : {},
  );
  const changed = await api("PUT", `/api/forms/${form.id}`, { ...teacher(), json: body });
  expect(changed.body.version).toBe(2);
  await completeQuiz(teacher(), changed.body, [1, [0, 1], 0], names.carla);
  return { form: changed.body as KeyedQuizForm, names };
}

describe("the rescore page and the summary of a keyed form", () => {
  it("given results at an earlier version, should list those that change, rescore them with one post, and confirm", async () => {
    const { form, names } = await rekeyedWithResults();
    const page = `/en/forms/${form.id}/rescore`;

    const summary = await (await get(`/en/forms/${form.id}/summary`)).text();
    expect(summary).toContain("Most missed questions");
    expect(summary.indexOf("Most missed questions")).toBeLessThan(summary.indexOf(">Links<"));
    expect(summary).toContain("of the points earned");
    expect(summary).toContain('name="version"');
    expect(summary).toContain("Version 1 (2 results)");
    expect(summary).toContain("2 results are scored against an earlier version of the form.");
    expect(summary).toContain(`href="${page}"`);
    // One version's results: Carla's alone.
    expect(await (await get(`/en/forms/${form.id}/summary?version=2`)).text()).toMatch(/Completed<\/dt><dd[^>]*>1</);

    const listed = await get(page);
    expect(listed.status).toBe(200);
    const html = await listed.text();
    expect(html).toContain("Rescore results");
    expect(html).toContain("2 results are scored against an earlier version; the scores of 1 of them change.");
    // Ana's Paris no longer earns its 2 points: 6 → 4, still Secure; Bruno's and Carla's are not listed.
    expect(html).toContain(names.ana);
    expect(html).not.toContain(names.bruno);
    expect(html).not.toContain(names.carla);
    expect(html).toMatch(/>6<\/span> <span[^>]*>.*?Secure.*?→ 4<\/span>/s);
    expect(html).toContain("Rescore 2 results");
    expect(html).toContain(`href="/en/forms/${form.id}"`);

    const posted = await postPageForm(page, {}, teacher().cookie);
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(page);
    const flash = posted.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("flash="))!
      .split(";")[0]!;
    const confirmed = await (await get(page, `${teacher().cookie}; ${flash}`)).text();
    expect(confirmed).toContain("The results are rescored against the current version of the form.");
    expect(confirmed).toContain("Every result is scored against version 2, the current one: there is nothing to rescore.");
    expect(confirmed).not.toContain("Rescore 0 results");

    const versions = (await api("GET", `/api/forms/${form.id}/versions`, teacher())).body.versions;
    expect(versions.map(({ results }: { results: number }) => results)).toEqual([0, 3]);
    // One version with results: no filter, nothing to rescore.
    const after = await (await get(`/en/forms/${form.id}/summary`)).text();
    expect(after).not.toContain('name="version"');
    expect(after).not.toContain(`href="${page}"`);
  });

  it("given the page in Spanish and Portuguese, should say it in their words; another teacher gets no page", async () => {
    const { form } = await rekeyedWithResults();
    for (const [locale, title, button] of [
      ["es", "Recalificar resultados", "Recalificar 2 resultados"],
      ["pt-BR", "Recalcular resultados", "Recalcular 2 resultados"],
    ] as const) {
      const html = await (await get(`/${locale}/forms/${form.id}/rescore`)).text();
      expect(html, locale).toContain(title);
      expect(html, locale).toContain(button);
      const summary = await (await get(`/${locale}/forms/${form.id}/summary`)).text();
      expect(summary, locale).toContain(locale === "es" ? "Preguntas más falladas" : "Perguntas mais erradas");
    }
    expect((await get(`/en/forms/${form.id}/rescore`, sessionOf("teacher2@demo.test"))).status).toBe(404);
    expect((await postPageForm(`/en/forms/${form.id}/rescore`, {}, sessionOf("teacher2@demo.test"))).status).toBe(404);
    expect((await api("GET", `/api/forms/${form.id}/versions`, teacher())).body.versions.map(({ results }: { results: number }) => results)).toEqual([2, 1]);
  });
});
