import { describe, expect, it } from "vitest";
import { api, baseUrl, signIn, unique, type DemoUser } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, errorPaths, expectProblem, organizationIdOf, png } from "../support/fixtures.ts";

/** The profile format of docs/api-contract.md §7, the role endpoint and user creation by administrators. */

const PROFILE_FIELDS = [
  "createdAt",
  "email",
  "id",
  "image",
  "name",
  "organization",
  "phone",
  "role",
  "student",
  "teacher",
  "twoFactorEnabled",
  "twoFactorMethod",
  "updatedAt",
].sort();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectProfileShape(profile: any) {
  expect(Object.keys(profile).sort()).toEqual(PROFILE_FIELDS);
  expect(profile).toMatchObject({
    id: expect.any(String),
    email: expect.any(String),
    name: expect.any(String),
    twoFactorEnabled: expect.any(Boolean),
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO),
  });
  expect(Object.keys(profile.organization).sort()).toEqual(["id", "name"]);
  if (profile.teacher) expect(Object.keys(profile.teacher).sort()).toEqual(["id", "specialty"]);
  if (profile.student) expect(Object.keys(profile.student).sort()).toEqual(["age", "gender", "grade", "id", "status"]);
}

const profileOf = (user: { cookie: string }) => api("GET", "/api/user/profile", { cookie: user.cookie });

describe("GET /api/user/profile", () => {
  it("given a teacher, should answer the profile with the teacher data and no student data", async () => {
    const response = await api("GET", "/api/user/profile", { as: "teacher@demo.test" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expectProfileShape(response.body);
    expect(response.body).toMatchObject({
      email: "teacher@demo.test",
      role: "TEACHER",
      organization: { name: "Demo School" },
      teacher: { id: expect.any(String), specialty: "Reading and literacy" },
      student: null,
    });
  });

  it("given a student, should answer the profile with the linked student record", async () => {
    const response = await api("GET", "/api/user/profile", { as: "student@demo.test" });
    expect(response.status).toBe(200);
    expectProfileShape(response.body);
    expect(response.body).toMatchObject({
      email: "student@demo.test",
      name: "Mateo García",
      role: "STUDENT",
      teacher: null,
      student: { id: expect.any(String), age: 14, gender: "Male", grade: "Grade 9", status: "ACTIVE" },
    });
    const record = await api("GET", `/api/students/${response.body.student.id}`, { as: "admin@demo.test" });
    expect(record.body).toMatchObject({ name: "Mateo García", email: "student@demo.test" });
  });

  it.each([
    ["admin@demo.test", "ADMIN", "Demo School"],
    ["superadmin@demo.test", "SUPER_ADMIN", "Demo School"],
    ["admin@other.test", "ADMIN", "Other Clinic"],
  ] as const)("given %s, should answer the profile without teacher or student data", async (user, role, organization) => {
    const response = await api("GET", "/api/user/profile", { as: user });
    expect(response.status).toBe(200);
    expectProfileShape(response.body);
    expect(response.body).toMatchObject({ email: user, role, organization: { name: organization }, teacher: null, student: null });
  });
});

describe("PUT /api/user/profile", () => {
  it("given JSON, should update the fields sent and answer the profile format", async () => {
    const user = await createSignedInUser("TEACHER");
    const response = await api("PUT", "/api/user/profile", {
      cookie: user.cookie,
      json: { name: "Renée Østergaard", phone: "+45 20 12 34 56", specialty: "Dyslexia support" },
    });
    expect(response.status, response.text).toBe(200);
    expectProfileShape(response.body);
    expect(response.body).toMatchObject({
      id: user.id,
      name: "Renée Østergaard",
      phone: "+45 20 12 34 56",
      email: user.email,
      teacher: { specialty: "Dyslexia support" },
    });
    expect((await profileOf(user)).body).toEqual(response.body);
  });

  it("given multipart with a PNG avatar, should store it and serve it at the image URL", async () => {
    const user = await createSignedInUser("TEACHER");
    const image = png(3, 2, [200, 30, 40, 255]);
    const body = new FormData();
    body.set("name", "With Avatar");
    body.set("phone", "555-0100");
    body.set("image", new File([image], "avatar.png", { type: "image/png" }));
    const response = await api("PUT", "/api/user/profile", { cookie: user.cookie, body });
    expect(response.status, response.text).toBe(200);
    expectProfileShape(response.body);
    expect(response.body).toMatchObject({ name: "With Avatar", phone: "555-0100", image: expect.stringMatching(/^\/api\/users\//) });

    const served = await fetch(new URL(response.body.image, baseUrl()), { headers: { cookie: user.cookie } });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(image);

    // A colleague of the same organization sees it too; without a session nobody does.
    const colleague = await api("GET", response.body.image, { as: "admin@demo.test" });
    expect(colleague.status).toBe(200);
    expect((await api("GET", response.body.image)).status).toBe(401);
  });

  it("given a new avatar, should answer a new image URL", async () => {
    const user = await createSignedInUser("STUDENT");
    const upload = async (colour: [number, number, number, number]) => {
      const body = new FormData();
      body.set("name", "Changing Avatar");
      body.set("image", new File([png(1, 1, colour)], "a.png", { type: "image/png" }));
      return api("PUT", "/api/user/profile", { cookie: user.cookie, body });
    };
    expect((await upload([1, 2, 3, 255])).status).toBe(200);
    // The first avatar was put up a minute ago (moved in the database): the URL a browser has kept.
    await testDatabase().avatar.update({ where: { userId: user.id }, data: { updatedAt: new Date(Date.now() - 60_000) } });
    const first = await api("GET", "/api/user/profile", { cookie: user.cookie });
    const second = await upload([4, 5, 6, 255]);
    expect(second.status).toBe(200);
    expect(second.body.image).not.toBe(first.body.image);
    const served = await fetch(new URL(second.body.image, baseUrl()), { headers: { cookie: user.cookie } });
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png(1, 1, [4, 5, 6, 255]));
  });

  it("given text bytes named .png, should answer 400 at image and keep the old avatar", async () => {
    const user = await createSignedInUser("TEACHER");
    const body = new FormData();
    body.set("name", "Fake Image");
    body.set("image", new File(["this is not a picture at all"], "cat.png", { type: "image/png" }));
    const response = await api("PUT", "/api/user/profile", { cookie: user.cookie, body });
    expectProblem(response, 400);
    expect(errorPaths(response)).toContain("image");
    const profile = (await profileOf(user)).body;
    expect(profile.image).toBeNull();
    expect(profile.name).toBe(user.profile.name);
  });

  it("given a PNG over 2 MiB, should refuse it (400 or 413)", async () => {
    const user = await createSignedInUser("TEACHER");
    const big = new Uint8Array(2 * 1024 * 1024 + 10);
    big.set(png());
    const body = new FormData();
    body.set("name", "Big Image");
    body.set("image", new File([big], "big.png", { type: "image/png" }));
    const response = await api("PUT", "/api/user/profile", { cookie: user.cookie, body });
    expect([400, 413]).toContain(response.status);
    expectProblem(response, response.status);
    if (response.status === 400) expect(errorPaths(response)).toContain("image");
    expect((await profileOf(user)).body.image).toBeNull();
  });

  it("given an image of a type that is not allowed, should answer 400", async () => {
    const user = await createSignedInUser("TEACHER");
    const body = new FormData();
    body.set("name", "GIF fan");
    body.set("image", new File([new Uint8Array(Buffer.from("GIF89a\x01\x00\x01\x00", "latin1"))], "a.gif", { type: "image/gif" }));
    const response = await api("PUT", "/api/user/profile", { cookie: user.cookie, body });
    expectProblem(response, 400);
    expect(errorPaths(response)).toContain("image");
  });

  it.each([
    ["student@demo.test", { name: "Mateo García", specialty: "Maths" }, "specialty"],
    ["admin@demo.test", { name: "Marta Ribeiro", specialty: "Maths" }, "specialty"],
    ["teacher@demo.test", { name: "Inês Carvalho", age: 40 }, "age"],
    ["admin@demo.test", { name: "Marta Ribeiro", grade: "5A" }, "grade"],
    ["teacher@demo.test", { name: "Inês Carvalho", gender: "Female" }, "gender"],
  ] as const)("given %s sending a field of another role (%#), should answer 400 at %s and change nothing", async (user, json, field) => {
    const before = (await api("GET", "/api/user/profile", { as: user as DemoUser })).body;
    const response = await api("PUT", "/api/user/profile", { as: user as DemoUser, json });
    expectProblem(response, 400);
    expect(errorPaths(response)).toEqual([field]);
    expect((await api("GET", "/api/user/profile", { as: user as DemoUser })).body).toEqual(before);
  });

  it("given a student's own fields, should update the linked student record", async () => {
    const user = await createSignedInUser("STUDENT");
    const response = await api("PUT", "/api/user/profile", {
      cookie: user.cookie,
      json: { name: user.profile.name, age: 13, grade: "8A", gender: "Female" },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.student).toMatchObject({ age: 13, grade: "8A", gender: "Female", status: "ACTIVE" });
    const record = await api("GET", `/api/students/${response.body.student.id}`, { as: "admin@demo.test" });
    expect(record.body).toMatchObject({ age: 13, grade: "8A", gender: "Female" });
  });

  it("given an e-mail another account uses (any case), should answer 409 and keep the old one", async () => {
    const user = await createSignedInUser("TEACHER");
    for (const email of ["admin@demo.test", "ADMIN@Demo.Test", "admin@other.test"]) {
      const response = await api("PUT", "/api/user/profile", {
        cookie: user.cookie,
        json: { name: "Taken", email, currentPassword: user.password },
      });
      expectProblem(response, 409, "EMAIL_TAKEN");
    }
    expect((await profileOf(user)).body).toMatchObject({ email: user.email, name: user.profile.name });
  });

  it("given a new free e-mail, should change it and the user signs in with it", async () => {
    const user = await createSignedInUser("TEACHER");
    const email = `${unique("moved")}@fixtures.test`;
    const response = await api("PUT", "/api/user/profile", {
      cookie: user.cookie,
      json: { name: "Moved", email: email.toUpperCase(), currentPassword: user.password },
    });
    expect(response.status).toBe(200);
    expect(response.body.email).toBe(email);
    const cookie = await signIn(email, user.password);
    expect((await api("GET", "/api/user/profile", { cookie })).body.id).toBe(user.id);
  });

  it.each([[{ phone: "555" }], [{ name: "" }], [{ name: "   " }]])("given no usable name (%j), should answer 400 at name", async (json) => {
    const user = await createSignedInUser("TEACHER");
    const response = await api("PUT", "/api/user/profile", { cookie: user.cookie, json });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toContain("name");
  });

  it("given multipart without a name, should answer 400 at name", async () => {
    const user = await createSignedInUser("TEACHER");
    const body = new FormData();
    body.set("phone", "555");
    const response = await api("PUT", "/api/user/profile", { cookie: user.cookie, body });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toContain("name");
  });
});

describe("GET /api/user/role", () => {
  it.each([
    ["superadmin@demo.test", "SUPER_ADMIN"],
    ["admin@demo.test", "ADMIN"],
    ["teacher@demo.test", "TEACHER"],
    ["student@demo.test", "STUDENT"],
    ["admin@other.test", "ADMIN"],
    ["teacher@other.test", "TEACHER"],
  ] as const)("given %s, should answer {role: %s}", async (user, role) => {
    const response = await api("GET", "/api/user/role", { as: user });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ role });
  });
});

describe("POST /api/users", () => {
  const newUser = (role: string, extra: Record<string, unknown> = {}) => ({
    email: `${unique(role.toLowerCase())}@created.test`,
    name: `Created ${unique(role)}`,
    role,
    password: "long-enough-password",
    ...extra,
  });

  it("given an admin creating a TEACHER, should answer 201 in the profile format with the teacher record", async () => {
    const json = newUser("TEACHER", { specialty: "Speech therapy", phone: "+351 900 000 000" });
    const response = await api("POST", "/api/users", { as: "admin@demo.test", json });
    expect(response.status, response.text).toBe(201);
    expectProfileShape(response.body);
    expect(response.body).toMatchObject({
      email: json.email,
      name: json.name,
      role: "TEACHER",
      phone: "+351 900 000 000",
      image: null,
      organization: { name: "Demo School" },
      teacher: { id: expect.any(String), specialty: "Speech therapy" },
      student: null,
      twoFactorEnabled: false,
    });
    const stored = await testDatabase().teacher.findUnique({ where: { userId: response.body.id } });
    expect(stored).toMatchObject({ id: response.body.teacher.id, specialty: "Speech therapy" });
  });

  it("given an admin creating a STUDENT, should link a new student record that the student list shows", async () => {
    const json = newUser("STUDENT");
    const response = await api("POST", "/api/users", { as: "admin@demo.test", json });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ role: "STUDENT", teacher: null, student: { id: expect.any(String), status: "ACTIVE" } });
    const list = await api("GET", `/api/students?search=${encodeURIComponent(json.name)}`, { as: "teacher@demo.test" });
    expect(list.body.students).toEqual([expect.objectContaining({ id: response.body.student.id, name: json.name, email: json.email })]);
  });

  it("given a STUDENT whose e-mail matches an existing student record, should link that record", async () => {
    const email = `${unique("existing")}@created.test`;
    const record = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "Already Enrolled", email, age: 10 } });
    const response = await api("POST", "/api/users", { as: "admin@demo.test", json: newUser("STUDENT", { email }) });
    expect(response.status, response.text).toBe(201);
    expect(response.body.student).toMatchObject({ id: record.body.id, age: 10 });
  });

  it("given the password chosen by the admin, should let the new user sign in", async () => {
    const json = newUser("TEACHER");
    expect((await api("POST", "/api/users", { as: "admin@demo.test", json })).status).toBe(201);
    const cookie = await signIn(json.email, json.password);
    const profile = await api("GET", "/api/user/profile", { cookie });
    expect(profile.body).toMatchObject({ email: json.email, role: "TEACHER" });
    await expect(signIn(json.email, "wrong-password-here")).rejects.toThrow(/401/);
  });

  it.each(["short", "1234567", ""])("given a password shorter than 8 (%j), should answer 400 at password", async (password) => {
    const json = newUser("TEACHER", { password });
    const response = await api("POST", "/api/users", { as: "admin@demo.test", json });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["password"]);
    expect(await testDatabase().user.findUnique({ where: { email: json.email } })).toBeNull();
  });

  it("given a password of exactly 8 characters, should accept it", async () => {
    // Not a common one: "12345678" is on the list of refused passwords (tests/api/passwords.test.ts).
    const response = await api("POST", "/api/users", { as: "admin@demo.test", json: newUser("TEACHER", { password: "q7!vLm2#" }) });
    expect(response.status).toBe(201);
  });

  it("given an e-mail already used (in any case), should answer 409 and create nobody", async () => {
    const json = newUser("TEACHER");
    expect((await api("POST", "/api/users", { as: "admin@demo.test", json })).status).toBe(201);
    for (const email of [json.email, json.email.toUpperCase(), "Teacher@Demo.Test", "ADMIN@OTHER.TEST"]) {
      const response = await api("POST", "/api/users", { as: "admin@demo.test", json: { ...json, email, name: "Duplicate" } });
      expectProblem(response, 409, "EMAIL_TAKEN");
    }
    expect(await testDatabase().user.count({ where: { email: json.email } })).toBe(1);
  });

  it("given parallel creations with one e-mail, should create exactly one user", async () => {
    const json = newUser("TEACHER");
    const responses = await Promise.all(Array.from({ length: 4 }, () => api("POST", "/api/users", { as: "admin@demo.test", json })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await testDatabase().user.count({ where: { email: json.email } })).toBe(1);
  });

  it("given a teacher, should answer 403", async () => {
    const json = newUser("TEACHER");
    expectProblem(await api("POST", "/api/users", { as: "teacher@demo.test", json }), 403, "FORBIDDEN");
    expect(await testDatabase().user.findUnique({ where: { email: json.email } })).toBeNull();
  });

  it("given an admin creating a SUPER_ADMIN, should answer 403", async () => {
    const json = newUser("SUPER_ADMIN");
    expectProblem(await api("POST", "/api/users", { as: "admin@demo.test", json }), 403, "FORBIDDEN");
    expect(await testDatabase().user.findUnique({ where: { email: json.email } })).toBeNull();
  });

  it("given a SUPER_ADMIN naming Other Clinic, should create the user there (201)", async () => {
    const organizationId = await organizationIdOf("admin@other.test");
    const json = newUser("TEACHER", { organizationId, specialty: "Occupational therapy" });
    const response = await api("POST", "/api/users", { as: "superadmin@demo.test", json });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ organization: { id: organizationId, name: "Other Clinic" }, teacher: { specialty: "Occupational therapy" } });
    const cookie = await signIn(json.email, json.password);
    expect((await api("GET", "/api/user/profile", { cookie })).body.organization.name).toBe("Other Clinic");
    // The new teacher works in Other Clinic: Demo School's records are not visible.
    const demoStudents = await api("GET", "/api/students?limit=100", { as: "admin@demo.test" });
    const theirs = await api("GET", "/api/students?limit=100", { cookie });
    const demoIds = new Set(demoStudents.body.students.map((s: { id: string }) => s.id));
    expect(theirs.body.students.some((s: { id: string }) => demoIds.has(s.id))).toBe(false);
  });

  it("given a SUPER_ADMIN creating another SUPER_ADMIN, should answer 201", async () => {
    const response = await api("POST", "/api/users", { as: "superadmin@demo.test", json: newUser("SUPER_ADMIN") });
    expect(response.status).toBe(201);
    expect(response.body.role).toBe("SUPER_ADMIN");
  });

  it("given a SUPER_ADMIN naming an unknown organization, should answer 404", async () => {
    const json = newUser("TEACHER", { organizationId: "cl0000000000000000000none" });
    expectProblem(await api("POST", "/api/users", { as: "superadmin@demo.test", json }), 404, "NOT_FOUND");
  });

  it("given a specialty for a role that is not TEACHER, should answer 400 at specialty", async () => {
    const response = await api("POST", "/api/users", { as: "admin@demo.test", json: newUser("STUDENT", { specialty: "x" }) });
    expectProblem(response, 400);
    expect(errorPaths(response)).toEqual(["specialty"]);
  });

  it.each([
    [{ name: "n", role: "TEACHER" }, "email"],
    [{ email: "not-an-email", name: "n", role: "TEACHER" }, "email"],
    [{ email: "a@created.test", role: "TEACHER" }, "name"],
    [{ email: "a@created.test", name: "n" }, "role"],
  ])("given a missing or invalid field (%#), should answer 400 at %s", async (json, field) => {
    const response = await api("POST", "/api/users", { as: "admin@demo.test", json });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toContain(field);
  });
});
