import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { type CreatedForm, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, errorPaths, expectProblem } from "../support/fixtures.ts";

/**
 * Personal API tokens (docs/api-contract.md §14) over real HTTP: shown once, then `Authorization: Bearer`
 * reads and writes within the owner's scope without a CSRF token, and stops after delete, expiry
 * and deactivation (every recovery action: tests/api/token-life.test.ts). A read-only token reads
 * and is refused every write (ADR 54). (The suite's teardown also fails if a token-shaped string reaches the log.)
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
  return created.body as { id: string; name: string; scopes: string[]; token: string; createdAt: string; expiresAt: string | null };
}

/** A call with a bearer token through the checked client: every answer must match the OpenAPI document. */
const withToken = (token: string, method: string, path: string, options: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}) =>
  api(method, path, { ...options, headers: { authorization: `Bearer ${token}`, ...options.headers } });

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
      { id: created.id, name: "Grade book sync", scopes: ["read", "write"], createdAt: created.createdAt, expiresAt: null, lastUsedAt: expect.any(String) },
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

describe("token scopes", () => {
  it("given each scope and none, should create read-only and read-write tokens (both by default), list each with its scopes, and refuse other scopes with 400", async () => {
    const teacher = await createSignedInUser("TEACHER");
    const reader = await tokenFor(teacher.cookie, { name: "Reader", scopes: ["read"] });
    const writer = await tokenFor(teacher.cookie, { name: "Writer", scopes: ["read", "write"] });
    const unordered = await tokenFor(teacher.cookie, { name: "Unordered", scopes: ["write", "read"] });
    const byDefault = await tokenFor(teacher.cookie, { name: "By default" });
    expect(reader.scopes).toEqual(["read"]);
    expect(writer.scopes).toEqual(["read", "write"]);
    expect(unordered.scopes).toEqual(["read", "write"]);
    expect(byDefault.scopes).toEqual(["read", "write"]);

    for (const scopes of [[], ["write"], ["read", "read"], ["read", "write", "write"], ["admin"], ["read", "delete"], "read", null, [1]]) {
      const refused = await api("POST", "/api/user/tokens", { cookie: teacher.cookie, json: { name: "Odd", scopes } });
      expectProblem(refused, 400, "VALIDATION_FAILED");
      expect(
        errorPaths(refused).every((path) => path.startsWith("scopes")),
        `${JSON.stringify(scopes)}: ${refused.text}`,
      ).toBe(true);
    }

    const scopesByName = (tokens: { name: string; scopes: string[] }[]) => Object.fromEntries(tokens.map((token) => [token.name, token.scopes]));
    const expected = { Reader: ["read"], Writer: ["read", "write"], Unordered: ["read", "write"], "By default": ["read", "write"] };
    // The owner from a session, the read-only token itself, and an administrator see the same scopes.
    const own = await api("GET", "/api/user/tokens", { cookie: teacher.cookie });
    const byItself = await withToken(reader.token, "GET", "/api/user/tokens");
    const byAdmin = await api("GET", `/api/users/${teacher.id}/tokens`, { as: "admin@demo.test" });
    for (const listed of [own, byItself, byAdmin]) {
      expect(listed.status, listed.text).toBe(200);
      expect(scopesByName(listed.body.tokens)).toEqual(expected);
    }
  });

  it("given a read-only token, should read forms, students and reports, and refuse every write with 403 TOKEN_SCOPE changing nothing; a read-write token writes", async () => {
    const teacher = await createSignedInUser("TEACHER");
    const writer = (await tokenFor(teacher.cookie, { name: "Writer" })).token;
    const reader = (await tokenFor(teacher.cookie, { name: "Reader", scopes: ["read"] })).token;

    // The read-write token writes: a form, a student, an assignment completed by its respondent,
    // a change to the student, a bulk assignment and an import.
    const form = await withToken(writer, "POST", "/api/forms", { json: mixedForm(unique("Scoped form")) });
    expect(form.status, form.text).toBe(201);
    const student = await withToken(writer, "POST", "/api/students", { json: { name: unique("Scoped student") } });
    expect(student.status, student.text).toBe(201);
    const assigned = await withToken(writer, "POST", "/api/submissions", { json: { formId: form.body.id, studentId: student.body.id } });
    expect(assigned.status, assigned.text).toBe(201);
    const submitted = await api("POST", `/api/test-link/${assigned.body.token}/submit`, { json: mediumAnswers(form.body as CreatedForm) });
    expect(submitted.status, submitted.text).toBe(200);
    const renamed = await withToken(writer, "PUT", `/api/students/${student.body.id}`, { json: { name: `${student.body.name} (renamed)` } });
    expect(renamed.status, renamed.text).toBe(200);
    const other = await withToken(writer, "POST", "/api/students", { json: { name: unique("Bulk student") } });
    const bulk = await withToken(writer, "POST", "/api/submissions/bulk", { json: { formId: form.body.id, studentIds: [other.body.id] } });
    expect(bulk.status, bulk.text).toBe(201);
    const imported = unique("Imported by writer");
    const importCsv = (name: string) => ({ body: `name\r\n${name}\r\n`, headers: { "content-type": "text/csv" } });
    // In every name a reader would have made: other test files add people to the same school at the same time.
    const refusedName = unique("Refused reader");
    const importResult = await withToken(writer, "POST", "/api/students/import", importCsv(imported));
    expect(importResult.status, importResult.text).toBe(201);

    // The read-only token reads all of it.
    for (const path of [
      "/api/forms",
      `/api/forms/${form.body.id}`,
      "/api/students",
      `/api/students/${student.body.id}`,
      "/api/reports",
      `/api/reports/${assigned.body.id}`,
      "/api/submissions",
    ]) {
      const read = await withToken(reader, "GET", path);
      expect(read.status, `${path}: ${read.text}`).toBe(200);
    }
    // The PDF export is a POST that only reads.
    const pdf = await withToken(reader, "POST", "/api/reports/export", { json: { submissionId: assigned.body.id } });
    expect(pdf.status, pdf.text).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");

    // Every write is refused, before anything of it is done.
    const refusedWrites: [string, string, { json?: unknown; body?: BodyInit; headers?: Record<string, string> }?][] = [
      ["POST", "/api/forms", { json: mixedForm(unique("Refused form")) }],
      ["PUT", `/api/forms/${form.body.id}`, { json: mixedForm("Renamed by a reader") }],
      ["DELETE", `/api/forms/${form.body.id}`],
      ["POST", "/api/students", { json: { name: `${refusedName} student` } }],
      ["PUT", `/api/students/${student.body.id}`, { json: { name: "Renamed by a reader" } }],
      ["DELETE", `/api/students/${student.body.id}`],
      ["POST", "/api/submissions", { json: { formId: form.body.id, studentId: student.body.id } }],
      ["PUT", `/api/submissions/${assigned.body.id}`, { json: { expiresAt: "2099-12-31" } }],
      ["POST", `/api/submissions/${assigned.body.id}/revoke`],
      ["POST", "/api/submissions/bulk", { json: { formId: form.body.id, studentIds: [student.body.id] } }],
      ["POST", "/api/students/import", importCsv(`${refusedName} imported`)],
      ["POST", "/api/groups", { json: { name: `${refusedName} group` } }],
      ["PATCH", `/api/users/${teacher.id}`, { json: { name: "Renamed by a reader" } }],
      ["POST", "/api/user/tokens", { json: { name: "Planted" } }],
    ];
    for (const [method, path, options] of refusedWrites) {
      const refused = await withToken(reader, method, path, options);
      expectProblem(refused, 403, "TOKEN_SCOPE");
      expect(refused.body.detail, `${method} ${path}`).toContain("read-only");
    }
    const formsNow = await withToken(reader, "GET", `/api/forms/${form.body.id}`);
    expect(formsNow.body.title).toBe(form.body.title);
    const studentNow = await withToken(reader, "GET", `/api/students/${student.body.id}`);
    expect(studentNow.body.name).toBe(`${student.body.name} (renamed)`);
    const submissions = await withToken(reader, "GET", "/api/submissions?limit=100");
    expect(submissions.body.total).toBe(2);
    const students = await withToken(reader, "GET", `/api/students?limit=100&search=${encodeURIComponent(refusedName)}`);
    expect(students.body.total).toBe(0);
    const submission = await withToken(reader, "GET", `/api/submissions/${assigned.body.id}`);
    expect(submission.body.status).toBe("COMPLETED");

    // A page form posted with the read-only token is refused the same way; the read-write token's goes through.
    const postProfile = async (token: string, name: string) => {
      const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
      const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      // Where the details form posts (the profile layout's index).
      return fetch(`${baseUrl()}/en/profile?index`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
        body: new URLSearchParams({ intent: "details", name, csrfToken }),
        redirect: "manual",
      });
    };
    expect((await postProfile(reader, "Renamed on the page by a reader")).status).toBe(403);
    expect((await withToken(reader, "GET", "/api/user/profile")).body.name).toBe(teacher.profile.name);
    expect((await postProfile(writer, "Renamed on the page")).status).toBeLessThan(400);
    expect((await withToken(reader, "GET", "/api/user/profile")).body.name).toBe("Renamed on the page");

    // Writes by the read-write token still go through after all this.
    const deleted = await withToken(writer, "DELETE", `/api/forms/${form.body.id}`);
    expect(deleted.status, deleted.text).toBe(200);
  });
});
