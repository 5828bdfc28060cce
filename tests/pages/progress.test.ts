import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, sessionOf, unique } from "../support/api.ts";
import { createForm, mediumAnswers } from "../support/assessment.ts";
import { waitForMail } from "../support/mail.ts";

/** Progress at a glance and "remind now" on the pages, over plain HTTP (no JavaScript). */
const teacher = () => sessionOf("teacher@demo.test");
const page = async (path: string) => (await fetch(`${baseUrl()}${path}`, { headers: { cookie: teacher() } })).text();
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

async function groupWithForm() {
  const tag = unique("progress");
  const email = `${unique("p").toLowerCase()}@pupils.test`;
  const ids: string[] = [];
  for (const [name, address] of [
    [`Ada ${tag}`, email],
    [`Bea ${tag}`, undefined],
    [`Cy ${tag}`, undefined],
  ] as const) {
    ids.push((await api("POST", "/api/students", { as: "teacher@demo.test", json: { name, ...(address ? { email: address } : {}) } })).body.id);
  }
  const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: `Class ${tag}` } });
  await api("POST", `/api/groups/${group.body.id}/members`, { as: "teacher@demo.test", json: { studentIds: ids } });
  const form = await createForm("teacher@demo.test");
  const bulk = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, groupId: group.body.id } });
  // Cy answers; Bea's link is withdrawn; Ada (the one with an address) is still to answer.
  const linkOf = (id: string) => bulk.body.created.find((s: { student: { id: string } }) => s.student.id === id);
  await api("POST", `/api/test-link/${linkOf(ids[2]!).token}/submit`, { json: mediumAnswers(form) });
  await api("POST", `/api/submissions/${linkOf(ids[1]!).id}/revoke`, { as: "teacher@demo.test" });
  return { tag, email, form, groupId: group.body.id as string };
}

describe("progress at a glance", () => {
  it("given a group's page, should show per form who answered, the counts by status and who is still to answer", async () => {
    const { tag, form, groupId } = await groupWithForm();
    const html = text(await page(`/en/groups/${groupId}`));
    expect(html).toContain(form.title);
    expect(html).toContain("1 of 3 completed");
    expect(html).toMatch(/Assigned 3 E-mailed 0 Not opened 1 Opened 0 In progress 0 Completed 1 Expired 0 Withdrawn 1/);
    expect(html).toContain("1 person still to answer");
    expect(html).toContain(`Ada ${tag} not e-mailed`);
    expect(html).not.toContain(`Bea ${tag} not e-mailed`);
    expect(html).toContain("Remind now");
  });

  it("given the assignments page, should show the forms with links still waiting, and one form's card when it is chosen", async () => {
    const { form } = await groupWithForm();
    expect(text(await page("/pt-BR/assignments"))).toContain("1 de 3 concluídos");
    const chosen = text(await page(`/es/assignments?formId=${form.id}`));
    expect(chosen).toContain("1 de 3 completados");
    expect(chosen).toContain("Ver quién falta por responder (1)");
  });

  it("given remind now without JavaScript, should e-mail the one still to answer and say so on the card, in the page's language", async () => {
    const { email, form, groupId } = await groupWithForm();
    const response = await postPageForm(`/es/groups/${groupId}`, { intent: "remind", formId: form.id, groupId }, teacher());
    expect(response.status).toBe(200);
    const html = text(await response.text());
    expect(html).toContain("1 recordatorio está en camino.");
    await waitForMail(email);
    const again = text(await (await postPageForm(`/es/assignments`, { intent: "remind", formId: form.id }, teacher())).text());
    expect(again).toContain("0 recordatorios están en camino.");
    expect(again).toContain("1 persona recibió un correo en los últimos 10 minutos y se ha omitido.");
  });

  it("given a form of another organization, should answer the 404 page and send nothing", async () => {
    const theirs = await createForm("teacher@other.test");
    expect((await postPageForm("/en/assignments", { intent: "remind", formId: theirs.id }, teacher())).status).toBe(404);
    expect((await postPageForm("/en/assignments", { intent: "remind" }, teacher())).status).toBe(404);
  });
});
