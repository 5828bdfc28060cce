import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique, withCsrf } from "../support/api.ts";
import { errorPaths, expectProblem, png } from "../support/fixtures.ts";

/**
 * Input handling shared by every endpoint (docs/api-contract.md §1): bodies that cannot be read, bodies of the
 * wrong type or size, unknown and mistyped fields, pagination and boolean query values, and the
 * one problem-details shape every error uses.
 */

const MiB = 1024 * 1024;
const LISTS = [
  ["/api/forms", "forms"],
  ["/api/students", "students"],
  ["/api/candidates", "candidates"],
] as const;

describe("request bodies", () => {
  it.each([
    ["POST", "/api/forms"],
    ["POST", "/api/students"],
    ["POST", "/api/candidates"],
    ["PUT", "/api/user/profile"],
    ["POST", "/api/users"],
  ])("given malformed JSON, %s %s should answer 400 MALFORMED_JSON", async (method, path) => {
    for (const body of ['{"title": "unterminated', "", "{title: 'single quotes'}", '{"a":1}}']) {
      const response = await api(method, path, {
        as: "admin@demo.test",
        headers: { "content-type": "application/json" },
        body,
      });
      expectProblem(response, 400, "MALFORMED_JSON");
    }
  });

  it.each([
    ["POST", "/api/forms", "text/plain"],
    ["POST", "/api/forms", "application/xml"],
    ["POST", "/api/forms", "multipart/form-data; boundary=x"],
    ["POST", "/api/users", "application/x-www-form-urlencoded"],
    ["POST", "/api/students", "text/plain"],
    ["PUT", "/api/user/profile", "text/csv"],
    ["POST", "/api/auth/check-credentials", "text/plain"],
  ])("given a wrong Content-Type, %s %s (%s) should answer 415", async (method, path, type) => {
    const response = await api(method, path, {
      as: "admin@demo.test",
      headers: { "content-type": type, "x-forwarded-for": `10.250.${Math.floor(Math.random() * 250)}.1` },
      body: JSON.stringify({ title: "x", name: "x" }),
    });
    expectProblem(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("given no Content-Type at all, should answer 415", async () => {
    const response = await api("POST", "/api/forms", { as: "admin@demo.test", body: new Uint8Array(Buffer.from('{"title":"x"}')) });
    expectProblem(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it.each([
    ["POST", "/api/forms"],
    ["POST", "/api/students"],
    ["PUT", "/api/user/profile"],
  ])("given a JSON body over 1 MiB, %s %s should answer 413 and store nothing", async (method, path) => {
    const title = unique("Too big");
    const json = { title, name: title, description: "x".repeat(MiB) };
    const response = await api(method, path, { as: "teacher@demo.test", json });
    expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
    const forms = await api("GET", `/api/forms?search=${encodeURIComponent(title)}`, { as: "teacher@demo.test" });
    expect(forms.body.total).toBe(0);
  });

  it("given oversized bodies one after another, should answer each with 413 and keep serving the connection", async () => {
    const json = { name: "Too big", description: "x".repeat(MiB) };
    for (let i = 0; i < 10; i++) {
      expectProblem(await api("POST", "/api/students", { as: "teacher@demo.test", json }), 413, "PAYLOAD_TOO_LARGE");
      expect((await api("GET", "/api/students?limit=1", { as: "teacher@demo.test" })).status).toBe(200);
    }
  });

  it("given a JSON body just under 1 MiB, should read it (and then judge its fields)", async () => {
    const response = await api("POST", "/api/forms", {
      as: "teacher@demo.test",
      json: { title: unique("Nearly big"), description: "x".repeat(MiB - 200) },
    });
    // Read and validated: the description is longer than a form allows, so a 400, not a 413.
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["description"]);
  });

  it("given a streamed JSON body over 1 MiB without a Content-Length, should answer 413", async () => {
    const chunk = new TextEncoder().encode(`"${"y".repeat(64 * 1024)}",`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"title":"streamed","questions":['));
      },
      pull(controller) {
        if (sent > 2 * MiB) {
          controller.enqueue(new TextEncoder().encode('""]}'));
          controller.close();
          return;
        }
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${baseUrl()}/api/forms`, {
      method: "POST",
      headers: { "content-type": "application/json", ...withCsrf(sessionOf("teacher@demo.test")) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(((await response.json()) as { code: string }).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it.each([
    ["POST", "/api/students"],
    ["PUT", "/api/user/profile"],
  ])("given a multipart body over 5 MiB, %s %s should answer 413", async (method, path) => {
    const body = new FormData();
    body.set("name", unique("Huge upload"));
    const big = new Uint8Array(5 * MiB + 1024);
    big.set(png());
    body.set("image", new File([big], "huge.png", { type: "image/png" }));
    const response = await api(method, path, { as: "teacher@demo.test", body });
    expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
  });

  it("given a multipart body under 5 MiB, should read it", async () => {
    const body = new FormData();
    const name = unique("Multipart student");
    body.set("name", name);
    body.set("grade", "g".repeat(20));
    const response = await api("POST", "/api/students", { as: "teacher@demo.test", body });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(name);
  });
});

describe("unknown fields", () => {
  it.each([
    ["POST", "/api/forms", { title: "t", organizationId: "x" }, ["organizationId"]],
    ["POST", "/api/forms", { title: "t", createdById: "x", deletedAt: null }, ["createdById", "deletedAt"]],
    ["POST", "/api/forms", { title: "t", scoreRanges: [{ min: 0, max: 1, label: "a", color: "#000000", weight: 2 }] }, ["scoreRanges.0.weight"]],
    [
      "POST",
      "/api/forms",
      {
        title: "t",
        questions: [
          {
            text: "q",
            type: "SINGLE_CHOICE",
            options: [
              { text: "a", score: 1 },
              { text: "b", score: 0, isAnswer: true },
            ],
          },
        ],
      },
      ["questions.0.options.1.isAnswer"],
    ],
    ["POST", "/api/students", { name: "n", organizationId: "x" }, ["organizationId"]],
    ["POST", "/api/candidates", { name: "n", promotedStudentId: "x" }, ["promotedStudentId"]],
    ["PUT", "/api/user/profile", { name: "n", role: "SUPER_ADMIN" }, ["role"]],
    ["PUT", "/api/user/profile", { name: "n", passwordHash: "x", organizationId: "y" }, ["passwordHash", "organizationId"]],
    ["POST", "/api/users", { email: "u@x.test", name: "n", role: "TEACHER", isActive: false }, ["isActive"]],
  ] as const)("given %s %s with unknown fields (%#), should answer 400 naming each", async (method, path, json, paths) => {
    const response = await api(method, path, { as: "admin@demo.test", json });
    expectProblem(response, 400, "VALIDATION_FAILED");
    for (const path of paths) expect(errorPaths(response)).toContain(path);
    for (const error of response.body.errors) expect(error).toEqual({ path: expect.any(String), message: expect.any(String) });
  });

  it("given an unknown query parameter on each list, should answer 400 naming it", async () => {
    for (const [path] of LISTS) {
      const response = await api("GET", `${path}?sort=name`, { as: "admin@demo.test" });
      expectProblem(response, 400, "VALIDATION_FAILED");
      expect(errorPaths(response)).toEqual(["sort"]);
    }
  });

  it("given a repeated query parameter, should answer 400 instead of picking one", async () => {
    const response = await api("GET", "/api/students?page=1&page=2", { as: "admin@demo.test" });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["page"]);
  });
});

describe("wrong types", () => {
  it.each([
    ["POST", "/api/forms", { title: 5 }, "title"],
    ["POST", "/api/forms", { title: "t", isPublished: "yes" }, "isPublished"],
    ["POST", "/api/forms", { title: "t", isTemplate: 1 }, "isTemplate"],
    ["POST", "/api/forms", { title: "t", scoreRanges: {} }, "scoreRanges"],
    ["POST", "/api/forms", { title: "t", scoreRanges: [{ min: "0", max: 1, label: "a", color: "#000000" }] }, "scoreRanges.0.min"],
    ["POST", "/api/forms", { title: "t", questions: [{ text: "q", type: "TEXT", required: "no" }] }, "questions.0.required"],
    ["POST", "/api/forms", { title: ["t"] }, "title"],
    ["POST", "/api/forms", [], ""],
    ["POST", "/api/students", { name: "n", age: "12" }, "age"],
    ["POST", "/api/students", { name: null }, "name"],
    ["POST", "/api/students", { name: "n", email: 42 }, "email"],
    ["POST", "/api/candidates", { name: "n", status: 1 }, "status"],
    ["PUT", "/api/user/profile", { name: { first: "a" } }, "name"],
    ["POST", "/api/users", { email: "u@x.test", name: "n", role: "TEACHER", password: 12345678 }, "password"],
    ["POST", "/api/users", { email: "u@x.test", name: "n", role: "teacher" }, "role"],
  ] as const)("given %s %s with a wrong type (%#), should answer 400 at %s", async (method, path, json, field) => {
    const response = await api(method, path, { as: "admin@demo.test", json });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toContain(field);
  });

  it("given a JSON null or a bare string as the body, should answer 400", async () => {
    for (const body of ["null", '"a string"', "42"]) {
      const response = await api("POST", "/api/students", {
        as: "admin@demo.test",
        headers: { "content-type": "application/json" },
        body,
      });
      expectProblem(response, 400, "VALIDATION_FAILED");
    }
  });
});

describe("pagination", () => {
  const bad = [
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=1.5", "page"],
    ["page=abc", "page"],
    ["page=", "page"],
    ["page=1e3x", "page"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=-5", "limit"],
    ["limit=2.5", "limit"],
    ["limit=ten", "limit"],
    ["limit=100000000000000000000", "limit"],
  ] as const;

  it.each(LISTS.flatMap(([path]) => bad.map(([query, field]) => [path, query, field] as const)))(
    "given GET %s?%s, should answer 400 at %s",
    async (path, query, field) => {
      const response = await api("GET", `${path}?${query}`, { as: "admin@demo.test" });
      expectProblem(response, 400, "VALIDATION_FAILED");
      expect([...new Set(errorPaths(response))]).toEqual([field]);
    },
  );

  it.each(LISTS)("given the bounds on %s, should answer the page and limit asked for", async (path, key) => {
    const first = await api("GET", `${path}?page=1&limit=1`, { as: "admin@demo.test" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, limit: 1, total: expect.any(Number) });
    expect(first.body[key]).toHaveLength(1);
    const widest = await api("GET", `${path}?limit=100`, { as: "admin@demo.test" });
    expect(widest.status).toBe(200);
    expect(widest.body.limit).toBe(100);
    const defaults = await api("GET", path, { as: "admin@demo.test" });
    expect(defaults.body).toMatchObject({ page: 1, limit: 20 });
    const beyond = await api("GET", `${path}?page=100000&limit=100`, { as: "admin@demo.test" });
    expect(beyond.status).toBe(200);
    expect(beyond.body[key]).toEqual([]);
    expect(beyond.body.total).toBeGreaterThan(0);
  });
});

describe("boolean query values", () => {
  beforeAll(async () => {
    // One form of each kind of the caller's own, so the filters below never run on an empty list.
    for (const json of [
      { title: unique("Published"), isPublished: true },
      { title: unique("Draft"), isPublished: false },
      { title: unique("Template"), isTemplate: true },
    ]) {
      expect((await api("POST", "/api/forms", { as: "teacher@demo.test", json })).status).toBe(201);
    }
  });

  it.each([
    ["true", true],
    ["TRUE", true],
    ["True", true],
    ["1", true],
    ["false", false],
    ["FALSE", false],
    ["0", false],
  ] as const)("given published=%s, should filter on %s", async (value, expected) => {
    const response = await api("GET", `/api/forms?published=${value}&limit=100`, { as: "teacher@demo.test" });
    expect(response.status).toBe(200);
    expect(response.body.forms.length).toBeGreaterThan(0);
    for (const form of response.body.forms) expect(form.isPublished).toBe(expected);
  });

  it("given isTemplate=1 and isTemplate=0, should split templates from the rest", async () => {
    const templates = await api("GET", "/api/forms?isTemplate=1&limit=100", { as: "teacher@demo.test" });
    const others = await api("GET", "/api/forms?isTemplate=0&limit=100", { as: "teacher@demo.test" });
    expect(templates.body.forms.length).toBeGreaterThan(0);
    expect(templates.body.forms.every((f: { isTemplate: boolean }) => f.isTemplate)).toBe(true);
    expect(others.body.forms.every((f: { isTemplate: boolean }) => !f.isTemplate)).toBe(true);
  });

  it.each(["yes", "no", "", "2", "truthy", "on", "null"])("given published=%s, should answer 400 instead of guessing", async (value) => {
    for (const name of ["published", "isTemplate"]) {
      const response = await api("GET", `/api/forms?${name}=${value}`, { as: "admin@demo.test" });
      expectProblem(response, 400, "VALIDATION_FAILED");
      expect(errorPaths(response)).toEqual([name]);
    }
  });
});

describe("problem details", () => {
  it("given errors of every kind, should answer the same RFC 9457 shape as application/problem+json", async () => {
    const responses = await Promise.all([
      api("POST", "/api/forms", { as: "admin@demo.test", json: { title: "" } }),
      api("GET", "/api/forms"),
      api("GET", "/api/forms", { as: "student@demo.test" }),
      api("GET", "/api/forms/does-not-exist", { as: "admin@demo.test" }),
      api("PATCH", "/api/forms", { as: "admin@demo.test" }),
      api("POST", "/api/forms", { as: "admin@demo.test", headers: { "content-type": "text/plain" }, body: "x" }),
      api("POST", "/api/users", { as: "admin@demo.test", json: { email: "ADMIN@demo.test", name: "n", role: "TEACHER" } }),
      api("GET", "/api/nowhere"),
    ]);
    expect(responses.map((r) => r.status)).toEqual([400, 401, 403, 404, 405, 415, 409, 404]);
    for (const response of responses) {
      expectProblem(response, response.status);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(response.body.type).toMatch(/^(urn:|https?:)/);
      expect(response.body.title.length).toBeGreaterThan(0);
      expect(response.body.detail.length).toBeGreaterThan(0);
      expect(response.headers.get("cache-control")).toContain("no-store");
    }
    const validation = responses[0]!;
    expect(validation.body.errors).toEqual([{ path: "title", message: expect.any(String) }]);
    for (const response of responses.slice(1)) expect(response.body.errors).toBeUndefined();
  });

  it("given two errors with the same code, should give them the same type and title", async () => {
    const a = await api("GET", "/api/students/nope", { as: "admin@demo.test" });
    const b = await api("GET", "/api/candidates/nope", { as: "admin@demo.test" });
    expect(a.body.type).toBe(b.body.type);
    expect(a.body.title).toBe(b.body.title);
    expect(a.body.code).toBe("NOT_FOUND");
  });

  it("given several invalid fields, should list every one of them", async () => {
    const response = await api("POST", "/api/forms", {
      as: "admin@demo.test",
      json: {
        title: "",
        isPublished: "no",
        scoreRanges: [
          { min: 0, max: 5, label: "A", color: "red" },
          { min: 3, max: 1, label: "B", color: "#00FF00" },
        ],
      },
    });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(expect.arrayContaining(["title", "isPublished", "scoreRanges.0.color", "scoreRanges.1.max"]));
  });
});
