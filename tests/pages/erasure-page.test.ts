import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, sessionOf, unique, type DemoUser } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { errorMessagesIn, foreignMessages } from "../support/page-messages.ts";

/**
 * The data protection block of a person's page and the erasure page (docs/api-contract.md §21),
 * as a browser without JavaScript uses them: plain links, and a posted form that says what is
 * wrong by its field in the page's language, or erases and goes back to the list with a message.
 */

async function createPerson(as: DemoUser, kind: "students" | "candidates") {
  const name = `Åsa Lindqvist ${unique("erase")}`;
  const created = await api("POST", `/api/${kind}`, { as, json: { name, email: `${unique("asa")}@erase.test`, externalId: unique("REC") } });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.id as string, name };
}

const decode = (html: string) => html.replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');

describe("the erasure page", () => {
  it("given an administrator, should offer the data and the erasure on the person's page, and a teacher neither", async () => {
    const person = await createPerson("admin@demo.test", "students");
    const page = await api("GET", `/en/students/${person.id}`, { as: "admin@demo.test" });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Data protection");
    expect(page.text).toContain(`href="/api/students/${person.id}/export"`);
    expect(page.text).toContain(`href="/en/students/${person.id}/erase"`);
    const teachers = await api("GET", `/en/students/${person.id}`, { as: "teacher@demo.test" });
    expect(teachers.status).toBe(200);
    expect(teachers.text).not.toContain("Data protection");
    expect(teachers.text).not.toContain(`/students/${person.id}/erase`);
  });

  it("given a teacher or another organization's administrator, should answer the 403 and 404 pages", async () => {
    const person = await createPerson("admin@demo.test", "students");
    const forbidden = await api("GET", `/en/students/${person.id}/erase`, { as: "teacher@demo.test" });
    expect(forbidden.status).toBe(403);
    expect(forbidden.text).toContain("Not allowed");
    expect((await postPageForm(`/en/students/${person.id}/erase`, { mode: "DELETE", confirm: person.name }, sessionOf("teacher@demo.test"))).status).toBe(403);
    expect((await api("GET", `/en/students/${person.id}/erase`, { as: "admin@other.test" })).status).toBe(404);
    expect(await testDatabase().student.count({ where: { id: person.id, deletedAt: null } })).toBe(1);
  });

  it("given a wrong name or no mode, should answer 400 with the message by its field in the page's language, and erase nothing", async () => {
    const person = await createPerson("admin@demo.test", "students");
    const path = `/es/students/${person.id}/erase`;
    const form = await api("GET", path, { as: "admin@demo.test" });
    expect(form.status).toBe(200);
    const html = decode(form.text);
    expect(html).toContain(`Borrar a ${person.name}`);
    expect(html).toContain(`Para confirmar, escribe su nombre: ${person.name}`);
    expect(html).toContain("Pruebas asignadas");
    expect(html).toContain("Anonimizar");
    expect(html).toContain("Eliminar todo");
    expect(html).toContain(`href="/api/students/${person.id}/export"`);

    const wrongName = await postPageForm(path, { mode: "ANONYMISE", confirm: "Someone else" }, sessionOf("admin@demo.test"));
    expect(wrongName.status).toBe(400);
    const refused = await wrongName.text();
    expect(errorMessagesIn(refused)).toContain("Escribe el nombre tal como se muestra.");
    expect(foreignMessages(refused, "es")).toEqual([]);
    expect(refused).toContain('value="Someone else"');

    const noMode = await postPageForm(path, { confirm: person.name }, sessionOf("admin@demo.test"));
    expect(noMode.status).toBe(400);
    expect(errorMessagesIn(await noMode.text())).toContain("Elige una de las opciones.");
    expect(await testDatabase().student.findUniqueOrThrow({ where: { id: person.id } })).toMatchObject({ name: person.name, deletedAt: null });
  });

  it("given the name typed and ANONYMISE, should anonymise the student and go to the list with a message", async () => {
    const person = await createPerson("admin@demo.test", "students");
    const session = sessionOf("admin@demo.test");
    const response = await postPageForm(`/pt-BR/students/${person.id}/erase`, { mode: "ANONYMISE", confirm: person.name }, session);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/pt-BR/students");
    const flash = response.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("flash="))!
      .split(";")[0]!;
    const list = await fetch(`${baseUrl()}/pt-BR/students`, { headers: { cookie: `${session}; ${flash}` } });
    expect(await list.text()).toContain("A pessoa foi anonimizada");
    const stored = await testDatabase().student.findUniqueOrThrow({ where: { id: person.id } });
    expect(stored.name).toMatch(/^#[0-9A-F]{6}$/);
    expect(stored).toMatchObject({ email: null, externalId: null });
  });

  it("given a clinic's candidate and DELETE, should say the clinic's words and delete the candidate", async () => {
    const person = await createPerson("admin@other.test", "candidates");
    const path = `/en/candidates/${person.id}/erase`;
    const form = decode((await api("GET", path, { as: "admin@other.test" })).text);
    expect(form).toContain("the service and the scores stay");
    expect(form).not.toContain("the grade and the scores stay");
    const response = await postPageForm(path, { mode: "DELETE", confirm: person.name }, sessionOf("admin@other.test"));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/en/candidates");
    expect(await testDatabase().candidate.count({ where: { id: person.id } })).toBe(0);
  });
});
