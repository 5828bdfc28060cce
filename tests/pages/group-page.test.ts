import { describe, expect, inject, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { createStudent } from "../support/assessment.ts";

/**
 * The group page's member changes over plain HTTP, as a browser without JavaScript posts them:
 * the ticked people are read as POST /api/groups/:id/members reads them, with the same cap.
 */
const teacher = () => sessionOf("teacher@demo.test");

/** A page post whose fields may repeat (one `studentIds` per ticked box). */
function postGroupPage(path: string, fields: [string, string][]) {
  const csrf = inject("csrf")[teacher()]!;
  return fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${teacher()}; ${csrf.cookie}`, origin: baseUrl() },
    body: new URLSearchParams([...fields, ["csrfToken", csrf.token]]),
    redirect: "manual",
  });
}

const members = async (groupId: string) =>
  ((await api("GET", `/api/groups/${groupId}`, { as: "teacher@demo.test" })).body.members as { id: string }[]).map((member) => member.id);

describe("the group page's members", () => {
  it("given more people than one members call takes, should refuse in the page's language and add nobody; within it, add and remove", async () => {
    const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Big class") } });
    expect(group.status).toBe(201);
    const pupil = await createStudent("teacher@demo.test");
    const page = (locale: string) => `/${locale}/groups/${group.body.id}`;
    const tooMany: [string, string][] = [
      ["intent", "add"],
      ...Array.from({ length: 1001 }, (_, i): [string, string] => ["studentIds", i === 0 ? pupil.id : `no-pupil-${i}`]),
    ];

    for (const [locale, message] of [
      ["es", "Elige como máximo 1,000 personas a la vez."],
      ["pt-BR", "Escolha no máximo 1,000 pessoas de uma vez."],
      ["en", "Choose at most 1,000 people at once."],
    ] as const) {
      const refused = await postGroupPage(page(locale), tooMany);
      expect(refused.status, locale).toBe(400);
      const html = await refused.text();
      expect(html, locale).toContain(`lang="${locale}"`);
      expect(html, locale).toContain(message);
    }
    expect(await members(group.body.id)).toEqual([]);

    const added = await postGroupPage(page("en"), [
      ["intent", "add"],
      ["studentIds", pupil.id],
    ]);
    expect(added.status).toBe(302);
    expect(await members(group.body.id)).toEqual([pupil.id]);

    // A member's "Remove" button posts their id as the members API takes it.
    const removed = await postGroupPage(page("en"), [
      ["intent", "remove"],
      ["studentIds", pupil.id],
    ]);
    expect(removed.status).toBe(302);
    expect(await members(group.body.id)).toEqual([]);
  });
});
