import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * Personal API tokens (contract §14) over real HTTP: shown once, then `Authorization: Bearer`
 * reads and writes within the owner's scope without a CSRF token, and stops after delete, expiry
 * and deactivation (every recovery action: tests/api/token-life.test.ts). (The suite's teardown also fails if a token-shaped string reaches the log.)
 */
async function bearer(token: string, method: string, path: string, json?: unknown) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, text, body: text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
}

async function tokenFor(cookie: string, body: unknown = { name: "Grade book sync" }) {
  const created = await api("POST", "/api/user/tokens", { cookie, json: body });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string; name: string; token: string; createdAt: string; expiresAt: string | null };
}

describe("personal API tokens", () => {
  it("given a token, should act as its owner without CSRF, within the owner's scope, and never show the token again", async () => {
    const teacher = await createSignedInUser("TEACHER");
    const created = await tokenFor(teacher.cookie);
    expect(created.token).toMatch(/^as_[\w-]{43}$/);
    expect(created).toMatchObject({ name: "Grade book sync", expiresAt: null });

    // A write without any CSRF token or cookie.
    const form = await bearer(created.token, "POST", "/api/forms", mixedForm(unique("Made with a token")));
    expect(form.status, form.text).toBe(201);
    expect(form.body.createdBy.id).toBe(teacher.id);
    const forms = await bearer(created.token, "GET", "/api/forms?limit=100");
    expect(forms.status).toBe(200);
    expect(forms.body.forms.map((f: { id: string }) => f.id)).toContain(form.body.id);

    // The owner's scope: a colleague's form and another organization's are 404, as with a session.
    const colleague = await api("POST", "/api/forms", { as: "teacher2@demo.test", json: mixedForm(unique("Not mine")) });
    expect((await bearer(created.token, "GET", `/api/forms/${colleague.body.id}`)).status).toBe(404);
    const foreign = await api("POST", "/api/forms", { as: "teacher@other.test", json: mixedForm(unique("Other school")) });
    expect((await bearer(created.token, "GET", `/api/forms/${foreign.body.id}`)).status).toBe(404);
    // The same role: a teacher's token cannot create users.
    expect((await bearer(created.token, "POST", "/api/users", { email: `${unique("x")}@t.test`, name: "X", role: "TEACHER" })).status).toBe(403);
    // A token makes no tokens.
    const planted = await bearer(created.token, "POST", "/api/user/tokens", { name: "Another" });
    expect(planted.status).toBe(403);
    expect(planted.body.code).toBe("TOKEN_SCOPE");

    const listed = await api("GET", "/api/user/tokens", { cookie: teacher.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toEqual([
      { id: created.id, name: "Grade book sync", createdAt: created.createdAt, expiresAt: null, lastUsedAt: expect.any(String) },
    ]);
    for (const response of [
      listed,
      await api("GET", "/api/user/profile", { cookie: teacher.cookie }),
      await bearer(created.token, "GET", "/api/user/tokens"),
    ]) {
      expect(response.text).not.toContain(created.token);
    }
  });

  it("given a deleted, an expired or a deactivated user's token, should answer 401; a bad header too", async () => {
    const teacher = await createSignedInUser("TEACHER");
    const deleted = await tokenFor(teacher.cookie, { name: "To delete" });
    const expiring = await tokenFor(teacher.cookie, { name: "Short", expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    const kept = await tokenFor(teacher.cookie, { name: "Kept" });
    expect((await bearer(deleted.token, "GET", "/api/forms")).status).toBe(200);

    // Someone else cannot delete it (404); the token itself may not (403 TOKEN_SCOPE); its owner can, from a session.
    expect((await api("DELETE", `/api/user/tokens/${deleted.id}`, { as: "teacher2@demo.test" })).status).toBe(404);
    const byItself = await bearer(deleted.token, "DELETE", `/api/user/tokens/${deleted.id}`);
    expect(byItself.status).toBe(403);
    expect(byItself.body.code).toBe("TOKEN_SCOPE");
    expect((await api("DELETE", `/api/user/tokens/${deleted.id}`, { cookie: teacher.cookie })).status).toBe(200);
    const afterDelete = await bearer(deleted.token, "GET", "/api/forms");
    expect(afterDelete.status).toBe(401);
    expect(afterDelete.body.code).toBe("UNAUTHENTICATED");

    // An expiry already past: moved in the database, as no client may set one.
    await testDatabase().apiToken.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await bearer(expiring.token, "GET", "/api/forms")).status).toBe(401);

    expect((await bearer(kept.token, "GET", "/api/forms")).status).toBe(200);
    expect((await api("PATCH", `/api/users/${teacher.id}`, { as: "admin@demo.test", json: { isActive: false } })).status).toBe(200);
    expect((await bearer(kept.token, "GET", "/api/forms")).status).toBe(401);

    for (const header of ["Bearer as_short", "Bearer ", "Basic abc"]) {
      const response = await fetch(`${baseUrl()}/api/forms`, { headers: { authorization: header } });
      expect(response.status, header).toBe(401);
    }
  });

  it("given an administrator, should list and delete the tokens of their organization's users only", async () => {
    const teacher = await createSignedInUser("TEACHER");
    const token = await tokenFor(teacher.cookie, { name: "Clinic records", expiresAt: "2099-12-31" });
    expect(token.expiresAt).not.toBeNull();
    const listed = await api("GET", `/api/users/${teacher.id}/tokens`, { as: "admin@demo.test" });
    expect(listed.body.tokens.map((t: { name: string }) => t.name)).toEqual(["Clinic records"]);
    expect((await api("GET", `/api/users/${teacher.id}/tokens`, { as: "admin@other.test" })).status).toBe(404);
    expect((await api("GET", `/api/users/${teacher.id}/tokens`, { as: "teacher2@demo.test" })).status).toBe(403);
    expect((await api("DELETE", `/api/user/tokens/${token.id}`, { as: "admin@other.test" })).status).toBe(404);
    expect((await api("DELETE", `/api/user/tokens/${token.id}`, { as: "admin@demo.test" })).status).toBe(200);
    expect((await bearer(token.token, "GET", "/api/forms")).status).toBe(401);

    const bad = await api("POST", "/api/user/tokens", { cookie: teacher.cookie, json: { name: "Past", expiresAt: "2020-01-01" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("expiresAt");
  });
});
