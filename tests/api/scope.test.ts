import { beforeAll, describe, expect, it } from "vitest";
import { documentedOperations, type Operation } from "../support/operations.ts";
import { api, unique, type DemoUser } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, expectProblem, organizationIdOf, png } from "../support/fixtures.ts";

/** Every documented operation, read from the served OpenAPI document. */
const operations = await documentedOperations();

/**
 * Who may touch what (docs/api-contract.md §2): no session is 401 everywhere but the public endpoints, a role
 * that may not act is 403, and another organization's record is 404 (never 403), as is an unknown
 * id. A SUPER_ADMIN sees every organization.
 */

type Records = { form: string; student: string; candidate: string; user: string };

const sessionOperations = operations.filter((operation) => operation.auth === "session");
const label = (operation: Operation) => `${operation.method.toUpperCase()} ${operation.path}`;
const resourceOf = (path: string) => path.split("/")[2] as "forms" | "students" | "candidates" | "users" | "user";

const UNKNOWN_ID = "cl0000000000000000000none";

/** A path with its parameters replaced by the record of the same resource (or an unknown id). */
function pathFor(operation: Operation, records: Records): string {
  const ids: Record<string, string> = {
    forms: records.form,
    students: records.student,
    candidates: records.candidate,
    users: records.user,
  };
  return operation.path.replace(/\{\w+\}/g, ids[resourceOf(operation.path)] ?? UNKNOWN_ID);
}

/** The operations on one record of an organization's forms, students, candidates or users. */
const recordOperations = operations.filter(
  (operation) => operation.path.includes("{id}") && ["forms", "students", "candidates", "users"].includes(resourceOf(operation.path)),
);

/** A valid body for the operation, so that a refusal is about the caller and not the input. */
function bodyFor(operation: Operation): unknown {
  if (!operation.body) return undefined;
  const name = unique("Scope");
  // An erasure confirms with the person's name: a name that is not theirs is refused, never
  // erasing anything, after the caller and the record were checked.
  if (operation.path.endsWith("/erase")) return { mode: "ANONYMISE", confirm: name };
  // Copies from a form nobody can read: the target is checked first all the same.
  if (operation.path.endsWith("/questions/copy")) return { fromFormId: UNKNOWN_ID, questionIds: [UNKNOWN_ID] };
  // A dry run: a refusal is about the caller, and a caller let through rescores nothing.
  if (operation.path.endsWith("/rescore")) return { dryRun: true };
  switch (resourceOf(operation.path)) {
    case "forms":
      return { title: name };
    case "students":
    case "candidates":
      return { name };
    case "users":
      return operation.method === "patch" ? { name } : { email: `${name.toLowerCase()}@scope.test`, name, role: "TEACHER", password: "a-long-password" };
    case "user":
      return { name };
  }
}

const call = (operation: Operation, records: Records, as: DemoUser | null, extra: { cookie?: string } = {}) =>
  api(operation.method.toUpperCase(), pathFor(operation, records), {
    ...(as ? { as } : {}),
    ...extra,
    ...(operation.body ? (operation.path.endsWith("/images") ? { body: imageUpload() } : { json: bodyFor(operation) }) : {}),
  });

/** An image upload's multipart body: a real PNG, so that a refusal is about the caller and the form. */
function imageUpload() {
  const body = new FormData();
  body.set("file", new File([png(2, 2)], "square.png", { type: "image/png" }));
  return body;
}

async function createRecords(as: DemoUser): Promise<Omit<Records, "user">> {
  const form = await api("POST", "/api/forms", {
    as,
    json: {
      title: unique("Scope form"),
      isPublished: true,
      scoreRanges: [{ min: 0, max: 2, label: "Any", color: "#123456" }],
      questions: [
        {
          text: "Pick one",
          type: "SINGLE_CHOICE",
          options: [
            { text: "a", score: 0 },
            { text: "b", score: 2 },
          ],
        },
      ],
    },
  });
  const student = await api("POST", "/api/students", { as, json: { name: unique("Scope student"), age: 12 } });
  const candidate = await api("POST", "/api/candidates", { as, json: { name: unique("Scope candidate"), age: 13 } });
  for (const response of [form, student, candidate]) expect(response.status, response.text).toBe(201);
  return { form: form.body.id, student: student.body.id, candidate: candidate.body.id };
}

let demo: Records;
let other: Records;

beforeAll(async () => {
  const demoUser = await api("GET", "/api/user/profile", { as: "teacher@demo.test" });
  demo = { ...(await createRecords("teacher@demo.test")), user: demoUser.body.id };
  // An Other Clinic login with an avatar, so the avatar route has something to hide.
  const otherUser = await createSignedInUser("TEACHER", { as: "admin@other.test" });
  const body = new FormData();
  body.set("name", otherUser.profile.name);
  body.set("image", new File([png()], "me.png", { type: "image/png" }));
  const upload = await api("PUT", "/api/user/profile", { cookie: otherUser.cookie, body });
  expect(upload.status, upload.text).toBe(200);
  other = { ...(await createRecords("teacher@other.test")), user: otherUser.id };
});

describe("without a session", () => {
  it("given the operation list, should cover every management route", () => {
    const covered = new Set(sessionOperations.map(label));
    for (const expected of [
      "GET /api/forms",
      "DELETE /api/students/{id}",
      "POST /api/candidates/{id}/promote",
      "PUT /api/user/profile",
      "POST /api/users",
      "GET /api/users/{id}/avatar",
    ]) {
      expect(covered).toContain(expected);
    }
  });

  it.each(sessionOperations.map((operation) => [label(operation), operation] as const))(
    "given no cookie, %s should answer 401 UNAUTHENTICATED problem details",
    async (_name, operation) => {
      expectProblem(await call(operation, demo, null), 401, "UNAUTHENTICATED");
    },
  );

  it.each(sessionOperations.map((operation) => [label(operation), operation] as const))(
    "given a forged session cookie, %s should answer 401",
    async (_name, operation) => {
      const response = await call(operation, demo, null, { cookie: "remix-auth.session-token=forged-token-value" });
      expectProblem(response, 401, "UNAUTHENTICATED");
    },
  );

  it("given a create without a session, should store nothing", async () => {
    const name = unique("Ghost student");
    expect((await api("POST", "/api/students", { json: { name } })).status).toBe(401);
    const found = await api("GET", `/api/students?search=${encodeURIComponent(name)}`, { as: "admin@demo.test" });
    expect(found.body.total).toBe(0);
  });
});

describe("roles that may not act", () => {
  const studentOperations = operations.filter(
    (operation) => ["forms", "students", "candidates"].includes(resourceOf(operation.path)) || label(operation) === "POST /api/users",
  );

  it.each(studentOperations.map((operation) => [label(operation), operation] as const))(
    "given a STUDENT, %s should answer 403 FORBIDDEN",
    async (_name, operation) => {
      expectProblem(await call(operation, demo, "student@demo.test"), 403, "FORBIDDEN");
    },
  );

  it("given a STUDENT's refused writes, should leave the records as they were", async () => {
    const before = {
      form: (await api("GET", `/api/forms/${demo.form}`, { as: "admin@demo.test" })).body,
      student: (await api("GET", `/api/students/${demo.student}`, { as: "admin@demo.test" })).body,
      candidate: (await api("GET", `/api/candidates/${demo.candidate}`, { as: "admin@demo.test" })).body,
    };
    const name = unique("Student-made");
    expect((await api("POST", "/api/students", { as: "student@demo.test", json: { name } })).status).toBe(403);
    expect((await api("PUT", `/api/students/${demo.student}`, { as: "student@demo.test", json: { name } })).status).toBe(403);
    expect((await api("DELETE", `/api/forms/${demo.form}`, { as: "student@demo.test" })).status).toBe(403);
    expect((await api("POST", `/api/candidates/${demo.candidate}/promote`, { as: "student@demo.test" })).status).toBe(403);
    expect((await api("GET", `/api/students?search=${encodeURIComponent(name)}`, { as: "admin@demo.test" })).body.total).toBe(0);
    expect((await api("GET", `/api/forms/${demo.form}`, { as: "admin@demo.test" })).body).toEqual(before.form);
    expect((await api("GET", `/api/students/${demo.student}`, { as: "admin@demo.test" })).body).toEqual(before.student);
    expect((await api("GET", `/api/candidates/${demo.candidate}`, { as: "admin@demo.test" })).body).toEqual(before.candidate);
  });

  it.each([
    ["DELETE", "students"],
    ["DELETE", "candidates"],
    ["POST", "candidates/promote"],
  ])("given a TEACHER, %s %s of the own organization should answer 403 and change nothing", async (method, what) => {
    const records = await createRecords("teacher@demo.test");
    const [resource, action] = what.split("/");
    const id = resource === "students" ? records.student : records.candidate;
    const path = `/api/${resource}/${id}${action ? `/${action}` : ""}`;
    const before = await api("GET", `/api/${resource}/${id}`, { as: "admin@demo.test" });
    expectProblem(await api(method, path, { as: "teacher@demo.test" }), 403, "FORBIDDEN");
    const after = await api("GET", `/api/${resource}/${id}`, { as: "admin@demo.test" });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
  });

  it("given a TEACHER, POST /api/users should answer 403 and create nobody", async () => {
    const email = `${unique("by-teacher")}@scope.test`;
    const response = await api("POST", "/api/users", {
      as: "teacher@demo.test",
      json: { email, name: "Made by a teacher", role: "STUDENT", password: "a-long-password" },
    });
    expectProblem(response, 403, "FORBIDDEN");
    expect(await testDatabase().user.findUnique({ where: { email } })).toBeNull();
  });

  it("given an ADMIN creating a SUPER_ADMIN, should answer 403 and create nobody", async () => {
    const email = `${unique("would-be-super")}@scope.test`;
    const response = await api("POST", "/api/users", {
      as: "admin@demo.test",
      json: { email, name: "Would-be super", role: "SUPER_ADMIN", password: "a-long-password" },
    });
    expectProblem(response, 403, "FORBIDDEN");
    expect(await testDatabase().user.findUnique({ where: { email } })).toBeNull();
  });

  it.each([["Other Clinic"], ["Demo School"]])("given an ADMIN passing organizationId (%s), should answer 403 and create nobody", async (organization) => {
    const organizationId = await organizationIdOf(organization === "Demo School" ? "admin@demo.test" : "admin@other.test");
    const email = `${unique("org-hop")}@scope.test`;
    const response = await api("POST", "/api/users", {
      as: "admin@demo.test",
      json: { email, name: "Org hopper", role: "TEACHER", password: "a-long-password", organizationId },
    });
    expectProblem(response, 403, "FORBIDDEN");
    expect(await testDatabase().user.findUnique({ where: { email } })).toBeNull();
  });
});

describe("another organization's records", () => {
  const idOperations = recordOperations;

  it("given the id routes, should include every read, write and action on a record", () => {
    expect(idOperations.map(label).sort()).toEqual(
      [
        "GET /api/forms/{id}",
        "PUT /api/forms/{id}",
        "DELETE /api/forms/{id}",
        "GET /api/students/{id}",
        "PUT /api/students/{id}",
        "DELETE /api/students/{id}",
        "GET /api/candidates/{id}",
        "PUT /api/candidates/{id}",
        "DELETE /api/candidates/{id}",
        "POST /api/candidates/{id}/promote",
        "GET /api/students/{id}/export",
        "POST /api/students/{id}/erase",
        "GET /api/candidates/{id}/export",
        "POST /api/candidates/{id}/erase",
        "GET /api/users/{id}/avatar",
        "PATCH /api/users/{id}",
        "POST /api/users/{id}/sessions/revoke",
        "GET /api/users/{id}/tokens",
        "GET /api/forms/{id}/summary",
        "GET /api/forms/{id}/fhir",
        "POST /api/forms/{id}/images",
        "GET /api/forms/{id}/images/{imageId}",
        "POST /api/forms/{id}/questions/copy",
        "GET /api/forms/{id}/versions",
        "POST /api/forms/{id}/rescore",
      ].sort(),
    );
  });

  /** Everything the owning organization can see of its records, to compare before and after. */
  async function snapshot() {
    const avatarPath = (await api("GET", `/api/users/${other.user}/avatar`, { as: "admin@other.test" })).text;
    return {
      form: (await api("GET", `/api/forms/${other.form}`, { as: "admin@other.test" })).body,
      student: (await api("GET", `/api/students/${other.student}`, { as: "admin@other.test" })).body,
      candidate: (await api("GET", `/api/candidates/${other.candidate}`, { as: "admin@other.test" })).body,
      avatar: avatarPath,
      stored: await Promise.all([
        testDatabase().form.findUnique({ where: { id: other.form } }),
        testDatabase().student.findUnique({ where: { id: other.student } }),
        testDatabase().candidate.findUnique({ where: { id: other.candidate } }),
      ]),
    };
  }

  const cases = (["admin@demo.test", "teacher@demo.test"] as const).flatMap((user) =>
    idOperations.map((operation) => [user, label(operation), operation] as const),
  );

  it.each(cases)("given %s, %s on an Other Clinic record should answer 404 and change nothing", async (user, _name, operation) => {
    const before = await snapshot();
    expect(before.form.id).toBe(other.form);
    expectProblem(await call(operation, other, user), 404, "NOT_FOUND");
    const after = await snapshot();
    expect(after).toEqual(before);
    expect(after.candidate.status).toBe("NEW");
    expect(after.stored.map((row) => row?.deletedAt ?? null)).toEqual([null, null, null]);
  });

  it("given lists, should never show an Other Clinic record to Demo School", async () => {
    for (const user of ["admin@demo.test", "teacher@demo.test"] as const) {
      const [forms, students, candidates] = await Promise.all([
        api("GET", "/api/forms?limit=100", { as: user }),
        api("GET", "/api/students?limit=100", { as: user }),
        api("GET", "/api/candidates?limit=100", { as: user }),
      ]);
      expect(forms.body.forms.map((f: { id: string }) => f.id)).not.toContain(other.form);
      expect(students.body.students.map((s: { id: string }) => s.id)).not.toContain(other.student);
      expect(candidates.body.candidates.map((c: { id: string }) => c.id)).not.toContain(other.candidate);
    }
  });

  it("given a SUPER_ADMIN of Demo School, should read Other Clinic's records", async () => {
    const form = await api("GET", `/api/forms/${other.form}`, { as: "superadmin@demo.test" });
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({ id: other.form, questions: [expect.objectContaining({ text: "Pick one" })] });
    const student = await api("GET", `/api/students/${other.student}`, { as: "superadmin@demo.test" });
    expect(student.status).toBe(200);
    expect(student.body.id).toBe(other.student);
    const candidate = await api("GET", `/api/candidates/${other.candidate}`, { as: "superadmin@demo.test" });
    expect(candidate.status).toBe(200);
    expect(candidate.body.id).toBe(other.candidate);
    const avatar = await api("GET", `/api/users/${other.user}/avatar`, { as: "superadmin@demo.test" });
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get("content-type")).toBe("image/png");
  });

  it("given a SUPER_ADMIN's search, should find Other Clinic's students and candidates", async () => {
    const student = (await api("GET", `/api/students/${other.student}`, { as: "admin@other.test" })).body;
    const candidate = (await api("GET", `/api/candidates/${other.candidate}`, { as: "admin@other.test" })).body;
    const students = await api("GET", `/api/students?search=${encodeURIComponent(student.name)}`, { as: "superadmin@demo.test" });
    expect(students.body.students.map((s: { id: string }) => s.id)).toEqual([other.student]);
    const candidates = await api("GET", `/api/candidates?search=${encodeURIComponent(candidate.name)}`, { as: "superadmin@demo.test" });
    expect(candidates.body.candidates.map((c: { id: string }) => c.id)).toEqual([other.candidate]);
  });
});

describe("unknown ids, paths and methods", () => {
  const idOperations = recordOperations;
  const unknown: Records = { form: UNKNOWN_ID, student: UNKNOWN_ID, candidate: UNKNOWN_ID, user: UNKNOWN_ID };

  it.each(
    idOperations.flatMap((operation) => (["superadmin@demo.test", "admin@demo.test"] as const).map((user) => [label(operation), user, operation] as const)),
  )("given an unknown id, %s as %s should answer 404", async (_name, user, operation) => {
    expectProblem(await call(operation, unknown, user), 404, "NOT_FOUND");
  });

  it.each([
    ["GET", "/api/nothing-here", null],
    ["POST", "/api/forms/x/y/z", "admin@demo.test"],
    ["DELETE", "/api/students/x/y", "admin@demo.test"],
    ["GET", "/api/user", "teacher@demo.test"],
  ] as const)("given %s %s, should answer a 404 problem", async (method, path, user) => {
    expectProblem(await api(method, path, user ? { as: user } : {}), 404, "NOT_FOUND");
  });

  const paths = [...new Set(operations.map((operation) => operation.path))];

  it.each(paths)("given a method %s does not support, should answer 405 with an Allow header", async (path) => {
    const allowed = operations.filter((operation) => operation.path === path).map((operation) => operation.method.toUpperCase());
    const concrete = path.replace(/\{\w+\}/g, demo.form);
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !allowed.includes(m))) {
      const response = await api(method, concrete, { as: "admin@demo.test" });
      expectProblem(response, 405, "METHOD_NOT_ALLOWED");
      const allow = (response.headers.get("allow") ?? "")
        .split(",")
        .map((m) => m.trim())
        .filter(Boolean);
      // HEAD wherever GET is, OPTIONS everywhere (docs/api-contract.md §23).
      const answered = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
      expect(allow.sort(), `${method} ${path}`).toEqual(answered.sort());
    }
  });
});
