import { describe, expect, it } from "vitest";
import { api, type ApiResponse, baseUrl, type DemoUser, sessionOf, unique } from "../support/api.ts";
import { createForm, createStudent, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, expectProblem } from "../support/fixtures.ts";

/**
 * What HTTP asks of every resource (docs/api-contract.md §23, ADR 55), over real HTTP: a 201 says where the
 * created resource is (Location), a 401 names the ways in (WWW-Authenticate), the records a client
 * edits carry their version (ETag) and a PUT made to an old version is refused (If-Match → 412),
 * HEAD answers what GET would without the body, OPTIONS names the methods, and every new record
 * gets a CUID.
 */
const teacher: DemoUser = "teacher@demo.test";
const admin: DemoUser = "admin@demo.test";
const CUID = /^c[0-9a-z]{24}$/;

/** The created resource's Location, checked to name it. */
function expectLocation(response: ApiResponse, path: string) {
  expect(response.status, response.text).toBe(201);
  expect(response.headers.get("location")).toBe(path);
}

describe("Location on 201", () => {
  it.each([
    ["forms", () => mixedForm()],
    ["students", () => ({ name: unique("Located student") })],
    ["candidates", () => ({ name: unique("Located candidate") })],
    ["groups", () => ({ name: unique("Located group") })],
  ] as const)("given POST /api/%s, should point at the new record, which GET answers", async (kind, body) => {
    const created = await api("POST", `/api/${kind}`, { as: teacher, json: body() });
    expectLocation(created, `/api/${kind}/${created.body.id}`);
    const read = await api("GET", created.headers.get("location")!, { as: teacher });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(created.body.id);
  });

  it("given a new link, a promotion and a webhook, should point at the link, the new student and the webhook", async () => {
    const form = await createForm(teacher);
    const student = await createStudent(teacher);
    const link = await api("POST", "/api/submissions", { as: teacher, json: { formId: form.id, studentId: student.id } });
    expectLocation(link, `/api/submissions/${link.body.id}`);
    expect((await api("GET", link.headers.get("location")!, { as: teacher })).body.id).toBe(link.body.id);

    const candidate = await api("POST", "/api/candidates", { as: admin, json: { name: unique("Promoted candidate") } });
    const promoted = await api("POST", `/api/candidates/${candidate.body.id}/promote`, { as: admin });
    expectLocation(promoted, `/api/students/${promoted.body.student.id}`);
    expect((await api("GET", promoted.headers.get("location")!, { as: admin })).body.name).toBe(candidate.body.name);

    // An organization of its own: its webhook is told of nothing the other tests do.
    const organization = await testDatabase().organization.create({ data: { name: unique("Located webhooks") } });
    const { cookie } = await createSignedInUser("ADMIN", { as: "superadmin@demo.test", organizationId: organization.id });
    const webhook = await api("POST", "/api/webhooks", { cookie, json: { url: "https://hooks.school.example/located", events: ["student.created"] } });
    expectLocation(webhook, `/api/webhooks/${webhook.body.id}`);
    expect((await api("GET", webhook.headers.get("location")!, { cookie })).body.url).toBe("https://hooks.school.example/located");
  });

  it("given a new user and a new API token, should point at what PATCH and DELETE change", async () => {
    const user = await api("POST", "/api/users", {
      as: admin,
      json: { email: `${unique("located")}@fixtures.test`, name: "Located user", role: "TEACHER", password: `pw-${unique("secret")}` },
    });
    expectLocation(user, `/api/users/${user.body.id}`);
    expect((await api("PATCH", user.headers.get("location")!, { as: admin, json: { name: "Renamed user" } })).body.name).toBe("Renamed user");

    const owner = await createSignedInUser("TEACHER");
    const token = await api("POST", "/api/user/tokens", { cookie: owner.cookie, json: { name: "Located token" } });
    expectLocation(token, `/api/user/tokens/${token.body.id}`);
    expect((await api("DELETE", token.headers.get("location")!, { cookie: owner.cookie })).status).toBe(200);
  });

  it("given a batch (a bulk assignment, a roster import), should answer 201 without a Location: each record has its own", async () => {
    const form = await createForm(teacher);
    const student = await createStudent(teacher);
    const bulk = await api("POST", "/api/submissions/bulk", { as: teacher, json: { formId: form.id, studentIds: [student.id] } });
    expect(bulk.status, bulk.text).toBe(201);
    expect(bulk.headers.get("location")).toBeNull();
    const imported = await api("POST", "/api/students/import", { as: teacher, body: `name\n${unique("Imported")}\n`, headers: { "content-type": "text/csv" } });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.headers.get("location")).toBeNull();
  });
});

describe("WWW-Authenticate on 401", () => {
  const challenges = (response: ApiResponse) => response.headers.get("www-authenticate") ?? "";

  it("given no credentials, should name both ways in: a bearer token and the session cookie", async () => {
    const response = await api("GET", "/api/forms");
    expectProblem(response, 401, "UNAUTHENTICATED");
    expect(challenges(response)).toBe(
      'Bearer realm="assessment-service", Cookie realm="assessment-service", form-action="/api/auth/callback/credentials", cookie-name="remix-auth.session-token"',
    );
  });

  it("given a bearer token that is refused, should say the token is invalid (RFC 6750), on a public path too", async () => {
    const refused = { authorization: `Bearer as_${"x".repeat(43)}` };
    for (const path of ["/api/forms", "/api/openapi"]) {
      const response = await api("GET", path, { headers: refused });
      expect(response.status, path).toBe(401);
      expect(challenges(response), path).toMatch(/^Bearer realm="assessment-service", error="invalid_token", Cookie realm="assessment-service"/);
    }
  });

  it("given wrong credentials at sign-in, should answer the challenge too", async () => {
    const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
    const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const response = await api("POST", "/api/auth/callback/credentials", {
      cookie,
      headers: { "x-forwarded-for": `10.250.${Math.floor(Math.random() * 250)}.9` },
      json: { email: "teacher@demo.test", password: "not the password", csrfToken },
    });
    expectProblem(response, 401, "INVALID_CREDENTIALS");
    expect(challenges(response)).toContain('Cookie realm="assessment-service"');
  });
});

type Kind = "forms" | "students" | "candidates" | "groups";

/** A new record of `kind`, and the field a PUT changes. */
const records: Record<Kind, { create: () => unknown; field: string }> = {
  forms: { create: () => mixedForm(), field: "title" },
  students: { create: () => ({ name: unique("Versioned student") }), field: "name" },
  candidates: { create: () => ({ name: unique("Versioned candidate") }), field: "name" },
  groups: { create: () => ({ name: unique("Versioned group") }), field: "name" },
};

const STRONG_TAG = /^"[\w-]+"$/;

describe("ETag and If-Match", () => {
  it.each(Object.keys(records) as Kind[])("given /api/%s/{id}, should tag each version and refuse a change made to an old one", async (kind) => {
    const { create, field } = records[kind];
    const label = unique("Version");
    const change = (n: number) => ({ [field]: `${label} ${n}` });
    const created = await api("POST", `/api/${kind}`, { as: teacher, json: create() });
    const path = `/api/${kind}/${created.body.id}`;
    const first = created.headers.get("etag")!;
    expect(first).toMatch(STRONG_TAG);

    // The same version, the same tag, however often it is read.
    const read = await api("GET", path, { as: teacher });
    expect(read.headers.get("etag")).toBe(first);
    expect((await api("GET", path, { as: teacher })).headers.get("etag")).toBe(first);

    // A change made to the version read: accepted, and the record has a new tag.
    const changed = await api("PUT", path, { as: teacher, json: change(1), headers: { "if-match": first } });
    expect(changed.status, changed.text).toBe(200);
    const second = changed.headers.get("etag")!;
    expect(second).toMatch(STRONG_TAG);
    expect(second).not.toBe(first);
    expect((await api("GET", path, { as: teacher })).headers.get("etag")).toBe(second);

    // A change made to the old version: refused, and nothing changes.
    const stale = await api("PUT", path, { as: teacher, json: change(2), headers: { "if-match": first } });
    expectProblem(stale, 412, "PRECONDITION_FAILED");
    const after = await api("GET", path, { as: teacher });
    expect(after.body[field]).toBe(changed.body[field]);
    expect(after.headers.get("etag")).toBe(second);

    // A weak tag never matches (If-Match compares strongly); a list matches when one of its tags does; * matches any version.
    expectProblem(await api("PUT", path, { as: teacher, json: change(3), headers: { "if-match": `W/${second}` } }), 412, "PRECONDITION_FAILED");
    const listed = await api("PUT", path, { as: teacher, json: change(4), headers: { "if-match": `"old", ${second}` } });
    expect(listed.status, listed.text).toBe(200);
    const any = await api("PUT", path, { as: teacher, json: change(5), headers: { "if-match": "*" } });
    expect(any.status, any.text).toBe(200);
    expect(any.body[field]).toBe(change(5)[field]);
    // Without If-Match the change is made whatever the version.
    expect((await api("PUT", path, { as: teacher, json: change(6) })).status).toBe(200);
  });

  it("given five changes sent at once to the same version, should accept exactly one", async () => {
    const student = await api("POST", "/api/students", { as: teacher, json: { name: unique("Raced student") } });
    const path = `/api/students/${student.body.id}`;
    const tag = student.headers.get("etag")!;
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => api("PUT", path, { as: teacher, json: { name: `Writer ${n}` }, headers: { "if-match": tag } })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412]);
    const winner = answers.find((answer) => answer.status === 200)!;
    expect((await api("GET", path, { as: teacher })).body.name).toBe(winner.body.name);
  });

  it("given a record another request changes (a student who joins a group), should give it a new tag", async () => {
    const student = await api("POST", "/api/students", { as: teacher, json: { name: unique("Joining student") } });
    const group = await api("POST", "/api/groups", { as: teacher, json: { name: unique("Joined group") } });
    const before = student.headers.get("etag");
    const joined = await api("POST", `/api/groups/${group.body.id}/members`, { as: teacher, json: { studentIds: [student.body.id] } });
    expect(joined.status, joined.text).toBe(200);
    const after = await api("GET", `/api/students/${student.body.id}`, { as: teacher });
    expect(after.headers.get("etag")).not.toBe(before);
    expectProblem(await api("PUT", `/api/students/${student.body.id}`, { as: teacher, json: { name: "Late" }, headers: { "if-match": before! } }), 412);
  });
});

describe("HEAD", () => {
  it("given paths GET answers (a list, a record, an export, the OpenAPI document), should answer the same status and headers without a body", async () => {
    const form = await createForm(teacher);
    for (const path of [
      "/api/forms?limit=5",
      `/api/forms/${form.id}`,
      "/api/reports/export?format=csv",
      "/api/openapi",
      "/api/forms/cl0000000000000000000none",
    ]) {
      const get = await api("GET", path, { as: teacher });
      const head = await api("HEAD", path, { as: teacher });
      expect(head.status, path).toBe(get.status);
      expect(head.text, path).toBe("");
      for (const header of ["content-type", "content-disposition", "etag", "cache-control"]) {
        expect(head.headers.get(header), `${path} ${header}`).toBe(get.headers.get(header));
      }
      if (get.headers.has("content-length")) expect(head.headers.get("content-length"), path).toBe(get.headers.get("content-length"));
    }
  });

  it("given a path without GET, should answer 405 with Allow", async () => {
    const response = await fetch(`${baseUrl()}/api/submissions/bulk`, { method: "HEAD", headers: { cookie: sessionOf(teacher) } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await response.text()).toBe("");
  });

  it("given a page, should answer its status without a body", async () => {
    const response = await fetch(`${baseUrl()}/en/login`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toBe("");
  });
});

describe("OPTIONS", () => {
  it.each([
    ["/api/forms", "GET, HEAD, POST, OPTIONS"],
    ["/api/forms/cl0000000000000000000none", "GET, HEAD, PUT, DELETE, OPTIONS"],
    ["/api/users/cl0000000000000000000none", "PATCH, OPTIONS"],
    ["/api/auth/callback/credentials", "POST, OPTIONS"],
    ["/api/openapi", "GET, HEAD, OPTIONS"],
  ])("given %s, should answer 204 with Allow %s, signed in or not, and grant no CORS access", async (path, allow) => {
    for (const cookie of [undefined, sessionOf(teacher)]) {
      const response = await fetch(`${baseUrl()}${path}`, { method: "OPTIONS", headers: { origin: "https://other.example", ...(cookie ? { cookie } : {}) } });
      expect(response.status).toBe(204);
      expect(response.headers.get("allow")).toBe(allow);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      expect(await response.text()).toBe("");
    }
  });

  it("given a method a path does not have, should answer 405 with the same Allow", async () => {
    const response = await api("DELETE", "/api/forms", { as: teacher });
    expectProblem(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
  });
});

describe("identifiers", () => {
  it("given records made one by one and in batches, should give every new one a CUID", async () => {
    const form = await createForm(teacher);
    const student = await createStudent(teacher);
    const group = await api("POST", "/api/groups", { as: teacher, json: { name: unique("CUID group") } });
    const link = await api("POST", "/api/submissions", { as: teacher, json: { formId: form.id, studentId: student.id } });
    const candidate = await api("POST", "/api/candidates", { as: teacher, json: { name: unique("CUID candidate") } });
    const bulk = await api("POST", "/api/submissions/bulk", { as: teacher, json: { formId: form.id, candidateIds: [candidate.body.id] } });
    const className = unique("CUID class");
    const imported = await api("POST", "/api/students/import?mode=upsert", {
      as: teacher,
      body: `name,group\n${unique("CUID pupil")},${className}\n`,
      headers: { "content-type": "text/csv" },
    });
    expect(imported.status, imported.text).toBe(201);
    const [importedGroup] = (await api("GET", `/api/groups?search=${encodeURIComponent(className)}`, { as: teacher })).body.groups;
    const ids = [
      form.id,
      ...form.questions.flatMap((question) => [question.id, ...question.options.map((option) => option.id)]),
      student.id,
      group.body.id,
      link.body.id,
      candidate.body.id,
      ...bulk.body.created.map((created: { id: string }) => created.id),
      imported.body.rows[0].id,
      importedGroup.id,
    ];
    for (const id of ids) expect(id).toMatch(CUID);
  });
});
