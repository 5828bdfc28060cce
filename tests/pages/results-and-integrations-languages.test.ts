import { describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { assign, createForm, createStudent, mediumAnswers } from "../support/assessment.ts";

/**
 * The pages this work added, read in Spanish and Brazilian Portuguese over plain HTTP: the form's
 * results summary, the group's results, the reports' downloads, the editor's scale and totals, the
 * API tokens and the webhooks pages all speak the page's language.
 */
const page = async (path: string, as: "teacher@demo.test" | "admin@demo.test" = "teacher@demo.test") => {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie: sessionOf(as) } });
  expect(response.status, path).toBe(200);
  return response.text();
};

describe("the new pages in Spanish and Portuguese", () => {
  it("given a form with a result in a group, should show its summary and the group's results in the page's language", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const group = (await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Grupo 4A") } })).body;
    await api("POST", `/api/groups/${group.id}/members`, { as: "teacher@demo.test", json: { studentIds: [student.id] } });
    const link = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);

    const summary = await page(`/es/forms/${form.id}/summary`);
    for (const text of ["Resultados: ", "Enlaces por estado: 1 completados", "Rangos de puntuación", "Resultados completados por rango", "Respondida por 1"]) {
      expect(summary, text).toContain(text);
    }
    const results = await page(`/pt-BR/groups/${group.id}`);
    for (const text of ["Último resultado de cada membro em cada formulário", "1 de 1 membros têm um resultado.", `Resumo de ${form.title} para este grupo`]) {
      expect(results, text).toContain(text);
    }
  });

  it("given the reports, the editor, the tokens and the webhooks pages, should speak the page's language", async () => {
    const reports = await page("/pt-BR/reports");
    expect(reports).toContain("Baixar estes resultados");
    // The separator Excel expects in Portuguese comes first.
    expect(reports.indexOf("CSV (ponto e vírgula")).toBeLessThan(reports.indexOf("CSV (vírgulas)"));
    const editor = await page("/pt-BR/forms/new");
    for (const text of ["Ponto mais baixo", "O que significa o ponto mais alto", "Dê pontuações às opções para ver quais totais se podem obter."]) {
      expect(editor, text).toContain(text);
    }
    const tokens = await page("/es/profile/tokens");
    for (const text of ["Tokens de API", "Crear un token", "Para qué es", "Qué puede hacer", "Lectura y escritura", "Solo lectura"])
      expect(tokens, text).toContain(text);
    const ptTokens = await page("/pt-BR/profile/tokens");
    for (const text of ["O que pode fazer", "Leitura e escrita", "Somente leitura"]) expect(ptTokens, text).toContain(text);
    const webhooks = await page("/es/admin/webhooks", "admin@demo.test");
    for (const text of ["Webhooks de la organización", "Se completa una prueba", "Añadir el webhook"]) expect(webhooks, text).toContain(text);
  });
});
