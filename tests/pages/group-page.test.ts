import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, sessionOf, unique, withCsrf } from "../support/api.ts";
import { createStudent } from "../support/assessment.ts";
import { type CreatedUser, createSignedInUser } from "../support/fixtures.ts";
import { errorMessagesIn, foreignMessages } from "../support/page-messages.ts";
import { readableText } from "../support/school-words.ts";

/**
 * The group page's member and staff changes over plain HTTP, as a browser without JavaScript posts
 * them: the ticked people are read as POST /api/groups/:id/members reads them, with the same cap;
 * each staff form posts the whole staff, as PUT /api/groups/:id/staff takes it.
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

/** A page post of `session` (a demo user's or a fixture's), its CSRF token in the form, no redirect followed. */
function postAs(session: string, path: string, fields: [string, string][]) {
  const headers = withCsrf(session);
  return fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: headers.cookie!, origin: baseUrl() },
    body: new URLSearchParams([...fields, ["csrfToken", headers["x-csrf-token"]!]]),
    redirect: "manual",
  });
}

async function pageOf(session: string, path: string) {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie: session } });
  expect(response.status, path).toBe(200);
  return response.text();
}

const decode = (text: string) => text.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&amp;", "&");

/**
 * The fields the page's form holding `marker` (a button's label or aria-label) posts, as a browser
 * without JavaScript sends them: its hidden inputs, each select's chosen option (`choose` overrides
 * one by name) and the pressed button's `intent`. The CSRF field is left to `postAs`.
 */
function formFields(html: string, marker: string, choose: Record<string, string> = {}): [string, string][] {
  const form = [...html.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((match) => match[0]).find((text) => decode(text).includes(marker));
  expect(form, marker).toBeDefined();
  const fields: [string, string][] = [];
  for (const input of form!.matchAll(/<input\b[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? "";
    if (name && name !== "csrfToken" && /type="hidden"/.test(input[0])) fields.push([decode(name), decode(value)]);
  }
  for (const select of form!.matchAll(/<select\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const options = [...select[2]!.matchAll(/<option\b[^>]*value="([^"]*)"([^>]*)>/g)];
    const chosen = options.find((option) => /selected/.test(option[2]!)) ?? options[0]!;
    fields.push([decode(select[1]!), choose[decode(select[1]!)] ?? decode(chosen[1]!)]);
  }
  const button = /<button\b[^>]*name="intent"[^>]*>/.exec(form!)?.[0];
  if (button) fields.push(["intent", /value="([^"]*)"/.exec(button)![1]!]);
  return fields;
}

describe("the group page's staff", () => {
  let owner: CreatedUser;
  let colleague: CreatedUser;
  let outsider: CreatedUser;
  let groupId: string;
  const page = (locale: string) => `/${locale}/groups/${groupId}`;
  const staffNow = async () => (await api("GET", `/api/groups/${groupId}/staff`, { cookie: owner.cookie })).body.staff as { userId: string; role: string }[];
  const lastOwner = {
    en: "A group keeps at least one owner: make someone else an owner first.",
    es: "Un grupo conserva al menos un propietario: nombra antes a otra persona propietaria.",
  };

  beforeAll(async () => {
    [owner, colleague, outsider] = await Promise.all([createSignedInUser("TEACHER"), createSignedInUser("TEACHER"), createSignedInUser("TEACHER")]);
    const group = await api("POST", "/api/groups", { cookie: owner.cookie, json: { name: unique("Shared caseload") } });
    expect(group.status, group.text).toBe(201);
    groupId = group.body.id;
  });

  it("given the owner, should add a colleague as viewer, list them, make them editor and remove them, each by the page's own form", async () => {
    const name = colleague.profile.name as string;
    const before = await pageOf(owner.cookie, page("en"));
    expect(readableText(before)).toContain("Add a colleague");
    const added = await postAs(owner.cookie, page("en"), formFields(before, "Add to the staff", { "staff[1].userId": colleague.id }));
    expect(added.status).toBe(302);
    expect(await staffNow()).toEqual([
      { userId: owner.id, name: owner.profile.name, role: "OWNER" },
      { userId: colleague.id, name, role: "VIEWER" },
    ]);

    const listed = await pageOf(owner.cookie, page("en"));
    expect(readableText(listed)).toContain(name);
    expect(readableText(listed)).toContain("Viewer");
    const changed = await postAs(owner.cookie, page("en"), formFields(listed, `Change role for ${name}`, { "staff[1].role": "EDITOR" }));
    expect(changed.status).toBe(302);
    expect((await staffNow()).map((entry) => entry.role)).toEqual(["OWNER", "EDITOR"]);

    const removed = await postAs(owner.cookie, page("en"), formFields(await pageOf(owner.cookie, page("en")), `Remove ${name} from the staff`));
    expect(removed.status).toBe(302);
    expect((await staffNow()).map((entry) => entry.userId)).toEqual([owner.id]);
  });

  it("given the last owner removed or made a viewer, should answer the page with the message in its language and change nothing", async () => {
    for (const locale of ["en", "es"] as const) {
      const html = await pageOf(owner.cookie, page(locale));
      const ownerName = owner.profile.name as string;
      const removeLabel = locale === "en" ? `Remove ${ownerName} from the staff` : `Quitar a ${ownerName} del equipo`;
      const changeLabel = locale === "en" ? `Change role for ${ownerName}` : `Cambiar el rol de ${ownerName}`;
      for (const fields of [formFields(html, removeLabel), formFields(html, changeLabel, { "staff[0].role": "VIEWER" })]) {
        const refused = await postAs(owner.cookie, page(locale), fields);
        expect(refused.status, locale).toBe(409);
        const text = readableText(await refused.text());
        expect(text, locale).toContain(lastOwner[locale]);
        expect(await staffNow()).toEqual([{ userId: owner.id, name: ownerName, role: "OWNER" }]);
      }
    }
  });

  it("given someone who is no colleague named, should say so in the page's language and change nothing", async () => {
    const pupil = await createStudent("teacher@demo.test");
    const refused = await postAs(owner.cookie, page("es"), [
      ["intent", "staff"],
      ["staff[0].userId", owner.id],
      ["staff[0].role", "OWNER"],
      ["staff[1].userId", pupil.id],
      ["staff[1].role", "VIEWER"],
    ]);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(errorMessagesIn(html).length).toBeGreaterThan(0);
    expect(foreignMessages(html, "es")).toEqual([]);
    expect((await staffNow()).map((entry) => entry.userId)).toEqual([owner.id]);
  });

  it("given a teacher who is not an owner, should show the staff and no way to change it, in Spanish too, and refuse a hand-made post", async () => {
    const en = readableText(await pageOf(outsider.cookie, page("en")));
    expect(en).toContain("Staff");
    expect(en).toContain(owner.profile.name);
    expect(en).toContain("Owner");
    expect(en).not.toContain("Add a colleague");
    expect(en).not.toContain("Change role");

    const es = readableText(await pageOf(outsider.cookie, page("es")));
    expect(es).toContain("Equipo");
    expect(es).toContain("Propietario");
    expect(es).not.toContain("Añadir un colega");
    expect(es).not.toContain("Cambiar el rol");

    const refused = await postAs(outsider.cookie, page("en"), [
      ["intent", "staff"],
      ["staff[0].userId", outsider.id],
      ["staff[0].role", "OWNER"],
    ]);
    expect(refused.status).toBe(403);
    expect((await staffNow()).map((entry) => entry.userId)).toEqual([owner.id]);
  });

  it("given the owner in Spanish, should add a colleague through the Spanish page", async () => {
    const html = await pageOf(owner.cookie, page("es"));
    expect(readableText(html)).toContain("Añadir un colega");
    const added = await postAs(owner.cookie, page("es"), formFields(html, "Añadir al equipo", { "staff[1].userId": colleague.id, "staff[1].role": "EDITOR" }));
    expect(added.status).toBe(302);
    expect(added.headers.get("location")).toBe(page("es"));
    expect((await staffNow()).map((entry) => entry.role)).toEqual(["OWNER", "EDITOR"]);
    expect(readableText(await pageOf(owner.cookie, page("es")))).toContain("Editor");
  });
});
