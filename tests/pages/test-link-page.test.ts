import { describe, expect, it } from "vitest";
import { api, baseUrl } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

async function newLink() {
  const form = await createForm("teacher@demo.test");
  const student = await createStudent("teacher@demo.test", "Zoë Ørsted");
  const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
  return { form, assignment, path: `/es/test/${assignment.token}` };
}

const post = (path: string, body: URLSearchParams) =>
  fetch(`${baseUrl()}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });

describe("the respondent's page", () => {
  it("given a pending link, should render every question as an accessible form without scores", async () => {
    const { path } = await newLink();
    const response = await fetch(`${baseUrl()}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await response.text();
    expect(html).toContain('<html lang="es"');
    expect(html).toContain("Hola, Zoë Ørsted");
    expect(html.match(/<fieldset/g)).toHaveLength(3);
    expect(html.match(/<legend/g)).toHaveLength(3);
    expect(html).toMatch(/<textarea[^>]*name="q_/);
    expect(html).toContain('type="radio"');
    expect(html).toContain('type="checkbox"');
    expect(html).toContain("(obligatoria)");
    expect(html).not.toMatch(/#B42318|#B54708|score|>Medium</);
  });

  it("given a post without JavaScript missing a required answer, should show the error by the question and keep the answers", async () => {
    const { form, path } = await newLink();
    const [q1, q2] = form.questions;
    const body = new URLSearchParams();
    body.append(`q_${q1!.id}`, q1!.options[1]!.id);
    body.append(`q_${q2!.id}`, q2!.options[0]!.id);
    body.append(`q_${q2!.id}`, q2!.options[2]!.id);
    const response = await post(path, body);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toMatch(new RegExp(`id="error-${form.questions[2]!.id}"`));
    for (const kept of [q1!.options[1]!.id, q2!.options[0]!.id, q2!.options[2]!.id]) {
      expect(html).toMatch(new RegExp(`value="${kept}"[^>]*checked|checked[^>]*value="${kept}"`));
    }
  });

  it("given a complete post, should redirect to the end page; posting again records nothing and says so (409)", async () => {
    const { form, assignment, path } = await newLink();
    const [q1, q2, q3, q4] = form.questions;
    const body = new URLSearchParams();
    body.append(`q_${q1!.id}`, q1!.options[1]!.id);
    body.append(`q_${q2!.id}`, q2!.options[0]!.id);
    body.append(`q_${q2!.id}`, q2!.options[1]!.id);
    body.append(`q_${q3!.id}`, q3!.options[2]!.id);
    body.append(`q_${q4!.id}`, "Bien.");
    const response = await post(path, body);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(path);
    const end = await fetch(`${baseUrl()}${path}`);
    expect(end.status).toBe(200);
    expect(await end.text()).toContain("Gracias");
    const again = await post(path, body);
    expect(again.status).toBe(409);
    const said = await again.text();
    expect(said).toContain("Esta prueba ya había sido respondida");
    expect(said).toContain("no se han registrado");
    const report = await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" });
    expect(report.body).toMatchObject({ totalScore: 1, scoreLabel: "Medium" });
    expect(report.body.answers[3].text).toBe("Bien.");
  });

  it.each([
    ["withdrawn", "es", "Este enlace fue retirado"],
    ["closed", "pt-BR", "Este teste está fechado por enquanto"],
    ["expired", "en", "This link has expired"],
  ])("given a %s link, should answer 410 with a page that says so in the respondent's language", async (what, locale, title) => {
    const { form, assignment } = await newLink();
    if (what === "withdrawn") await api("POST", `/api/submissions/${assignment.id}/revoke`, { as: "teacher@demo.test" });
    if (what === "closed") await api("PUT", `/api/forms/${form.id}`, { as: "teacher@demo.test", json: { isPublished: false } });
    if (what === "expired") await testDatabase().submission.update({ where: { id: assignment.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await fetch(`${baseUrl()}/${locale}/test/${assignment.token}`);
    expect(response.status).toBe(410);
    const html = await response.text();
    expect(html).toContain(`<html lang="${locale}"`);
    expect(html).toContain(title);
    expect(html).not.toContain("<fieldset");
  });

  it("given an unknown token, should say so with a 404 page", async () => {
    const response = await fetch(`${baseUrl()}/en/test/not-a-real-token-at-all`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Test not found");
  });
});
