import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ABANDONED_AFTER_MS, IDEMPOTENCY_KEY_LIFETIME_MS, requestFingerprint } from "../../app/lib/idempotency.server.ts";
import { api, baseUrl, unique, type ApiResponse, type DemoUser, type RequestOptions } from "../support/api.ts";
import { createForm, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, expectProblem } from "../support/fixtures.ts";
import { startInstance, type Instance } from "../support/instance.ts";

/**
 * `Idempotency-Key` on every operation that creates something (docs/api-contract.md §23, ADR 48), over real
 * HTTP: a repeat with the same key and the same request gets the first answer again and changes
 * nothing; another request with the key is 422; a repeat while the first is processed is 409;
 * keys are per user and last 24 hours. Time moves by moving the stored key's clock, as the other
 * files move their records'.
 */

const newKey = () => unique("key");

function post(path: string, key: string | null, options: RequestOptions = {}): Promise<ApiResponse> {
  return api("POST", path, { ...options, headers: { ...options.headers, ...(key === null ? {} : { "Idempotency-Key": key }) } });
}

const csv = (text: string): RequestOptions => ({ body: text, headers: { "content-type": "text/csv" } });

/** The demo user's id, for the rows the tests read and write directly. */
const userIdOf = async (email: string) => (await testDatabase().user.findFirstOrThrow({ where: { email }, select: { id: true } })).id;

const storedKey = async (email: string, key: string) =>
  testDatabase().idempotencyKey.findUnique({ where: { userId_key: { userId: await userIdOf(email), key } } });

/** Moves a stored key's clock: its request was made `ms` ago. */
async function makeOlder(email: string, key: string, ms: number) {
  const updated = await testDatabase().idempotencyKey.updateMany({
    where: { userId: await userIdOf(email), key },
    data: { createdAt: new Date(Date.now() - ms) },
  });
  expect(updated.count).toBe(1);
}

/** A repeat answered from the store: the same status, the same bytes, the same Location. */
function expectReplay(again: ApiResponse, first: ApiResponse) {
  expect(again.status, again.text).toBe(first.status);
  expect(again.text).toBe(first.text);
  expect(again.headers.get("location")).toBe(first.headers.get("location"));
  expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
  expect(again.headers.get("idempotent-replayed")).toBe("true");
}

type Case = {
  operation: string;
  path: string;
  as: () => RequestOptions;
  request: (tag: string) => RequestOptions;
  /** Another request: the same key with it is 422. */
  other: (tag: string) => RequestOptions;
  /** The rows the first request created, found by the tag its request carries. */
  rows: (tag: string) => Promise<number>;
  /** How many rows one request creates. */
  creates?: number;
};

let form: { id: string };
let bulkForms: { id: string }[];
let group: { id: string };
let student: { id: string };
let webhookAdmin: { cookie: string; organizationId: string };
let scheduleForm: { id: string };

beforeAll(async () => {
  const tag = unique("setup").replaceAll("-", "");
  form = await createForm("teacher@demo.test");
  bulkForms = [await createForm("teacher@demo.test"), await createForm("teacher@demo.test")];
  scheduleForm = await createForm("teacher@demo.test");
  student = (await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: unique("Assigned pupil") } })).body;
  const imported = await api("POST", "/api/students/import", {
    as: "teacher@demo.test",
    ...csv(`name,group\nPupil A ${tag},Class ${tag}\nPupil B ${tag},Class ${tag}`),
  });
  expect(imported.status, imported.text).toBe(201);
  group = (await api("GET", `/api/groups?search=${tag}`, { as: "teacher@demo.test" })).body.groups[0];
  // An organization of its own: other files' webhooks count towards the limit of 10 per organization.
  const organization = await testDatabase().organization.create({ data: { name: unique("Idempotent webhooks") } });
  const admin = await createSignedInUser("ADMIN", { as: "superadmin@demo.test", organizationId: organization.id });
  webhookAdmin = { cookie: admin.cookie, organizationId: organization.id };
}, 120_000);

const teacher = (): RequestOptions => ({ as: "teacher@demo.test" });
const db = () => testDatabase();

/** A FHIR Questionnaire of one free-text item (docs/fhir.md). */
const questionnaire = (title: string) => ({
  resourceType: "Questionnaire",
  status: "active",
  title,
  item: [{ linkId: "note", text: "Anything to add?", type: "text" }],
});

const CASES: Case[] = [
  {
    operation: "createForm",
    path: "/api/forms",
    as: teacher,
    request: (tag) => ({ json: mixedForm(`Form ${tag}`) }),
    other: (tag) => ({ json: mixedForm(`Form ${tag} (2)`) }),
    rows: (tag) => db().form.count({ where: { title: { startsWith: `Form ${tag}` } } }),
  },
  {
    operation: "importFormQuestionnaire",
    path: "/api/forms/fhir",
    as: teacher,
    request: (tag) => ({ json: questionnaire(`Questionnaire ${tag}`) }),
    other: (tag) => ({ json: questionnaire(`Questionnaire ${tag} (2)`) }),
    rows: (tag) => db().form.count({ where: { title: { startsWith: `Questionnaire ${tag}` } } }),
  },
  {
    operation: "installInstrument",
    path: "/api/instruments/gad-7/install",
    as: teacher,
    request: (tag) => ({ json: { title: `Instrument ${tag}` } }),
    other: (tag) => ({ json: { title: `Instrument ${tag} (2)` } }),
    rows: (tag) => db().form.count({ where: { title: { startsWith: `Instrument ${tag}` } } }),
  },
  {
    operation: "createStudent",
    path: "/api/students",
    as: teacher,
    request: (tag) => ({ json: { name: `Student ${tag}`, grade: "5" } }),
    other: (tag) => ({ json: { name: `Student ${tag}`, grade: "6" } }),
    rows: (tag) => db().student.count({ where: { name: `Student ${tag}` } }),
  },
  {
    operation: "createCandidate",
    path: "/api/candidates",
    as: teacher,
    request: (tag) => ({ json: { name: `Candidate ${tag}` } }),
    other: (tag) => ({ json: { name: `Candidate ${tag}`, age: 30 } }),
    rows: (tag) => db().candidate.count({ where: { name: `Candidate ${tag}` } }),
  },
  {
    operation: "createGroup",
    path: "/api/groups",
    as: teacher,
    request: (tag) => ({ json: { name: `Group ${tag}` } }),
    other: (tag) => ({ json: { name: `Group ${tag}`, description: "Another" } }),
    rows: (tag) => db().group.count({ where: { name: `Group ${tag}` } }),
  },
  {
    operation: "createUser",
    path: "/api/users",
    as: () => ({ as: "admin@demo.test" }),
    request: (tag) => ({ json: { email: `${tag}@idempotent.test`, name: `User ${tag}`, role: "TEACHER", password: "long-enough-password" } }),
    other: (tag) => ({ json: { email: `${tag}@idempotent.test`, name: `User ${tag}`, role: "ADMIN", password: "long-enough-password" } }),
    rows: (tag) => db().user.count({ where: { email: `${tag}@idempotent.test` } }),
  },
  {
    operation: "assignForm",
    path: "/api/submissions",
    as: teacher,
    // A pupil of this case alone: their links are the ones it made.
    request: () => ({ json: { formId: form.id, studentId: student.id } }),
    other: () => ({ json: { formId: form.id, studentId: student.id, expiresAt: "2099-01-01" } }),
    rows: () => db().submission.count({ where: { studentId: student.id } }),
  },
  {
    operation: "bulkAssign",
    path: "/api/submissions/bulk",
    as: teacher,
    request: () => ({ json: { formId: bulkForms[0]!.id, groupId: group.id } }),
    other: () => ({ json: { formId: bulkForms[1]!.id, groupId: group.id } }),
    rows: async () => (await db().submission.count({ where: { formId: { in: bulkForms.map((f) => f.id) } } })) / 2,
  },
  {
    operation: "importStudents",
    path: "/api/students/import",
    as: teacher,
    request: (tag) => csv(`name,grade\nImported ${tag} one,5\nImported ${tag} two,5`),
    other: (tag) => csv(`name,grade\nImported ${tag} one,5\nImported ${tag} two,6`),
    rows: async (tag) => (await db().student.count({ where: { name: { startsWith: `Imported ${tag}` } } })) / 2,
  },
  {
    operation: "importCandidates",
    path: "/api/candidates/import",
    as: teacher,
    request: (tag) => csv(`name\nApplicant ${tag} one\nApplicant ${tag} two`),
    other: (tag) => csv(`name\nApplicant ${tag} one`),
    rows: async (tag) => (await db().candidate.count({ where: { name: { startsWith: `Applicant ${tag}` } } })) / 2,
  },
  {
    operation: "createSchedule",
    path: "/api/schedules",
    as: teacher,
    request: () => ({ json: { formId: scheduleForm.id, studentIds: [student.id], startsAt: "2099-02-02", everyDays: 7, send: false } }),
    other: () => ({ json: { formId: scheduleForm.id, studentIds: [student.id], startsAt: "2099-02-02", everyDays: 14, send: false } }),
    rows: () => db().schedule.count({ where: { formId: scheduleForm.id } }),
  },
  {
    operation: "createApiToken",
    path: "/api/user/tokens",
    as: teacher,
    request: (tag) => ({ json: { name: `Token ${tag}` } }),
    other: (tag) => ({ json: { name: `Token ${tag}`, expiresAt: "2099-01-01" } }),
    rows: (tag) => db().apiToken.count({ where: { name: `Token ${tag}` } }),
  },
  {
    operation: "createWebhook",
    path: "/api/webhooks",
    as: () => ({ cookie: webhookAdmin.cookie }),
    request: (tag) => ({ json: { url: `http://127.0.0.1:9/${tag}`, events: ["submission.completed"] } }),
    other: (tag) => ({ json: { url: `http://127.0.0.1:9/${tag}`, events: ["submission.completed", "student.created"] } }),
    rows: (tag) => db().webhook.count({ where: { url: `http://127.0.0.1:9/${tag}` } }),
  },
];

describe("every operation that creates something, repeated with the same key", () => {
  it.each(CASES)(
    "given $operation sent twice with one key, should answer the first answer again and create once; another request with the key is 422",
    async (operation) => {
      const tag = unique(operation.operation).replaceAll("-", "").toLowerCase();
      const key = newKey();
      const first = await post(operation.path, key, { ...operation.as(), ...operation.request(tag) });
      expect(first.status, first.text).toBe(201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      expect(await operation.rows(tag)).toBe(1);

      const again = await post(operation.path, key, { ...operation.as(), ...operation.request(tag) });
      expectReplay(again, first);
      expect(await operation.rows(tag)).toBe(1);

      const other = await post(operation.path, key, { ...operation.as(), ...operation.other(tag) });
      expectProblem(other, 422, "IDEMPOTENCY_KEY_REUSED");
      expect(await operation.rows(tag)).toBe(1);
    },
  );

  it("given the OpenAPI document, should list the header with 409 and 422 on exactly these operations", async () => {
    const document = (await api("GET", "/api/openapi")).body as {
      paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
    };
    const withHeader = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.parameters?.some((parameter) => parameter.in === "header" && parameter.name === "Idempotency-Key"));
    expect(withHeader.map((operation) => operation.operationId).sort()).toEqual(CASES.map((operation) => operation.operation).sort());
    for (const operation of withHeader) expect(Object.keys(operation.responses), operation.operationId).toEqual(expect.arrayContaining(["409", "422"]));
  });
});

describe("which answers are kept", () => {
  it("given a 400 and a 409 answered to a keyed request, should answer them again without processing the request anew", async () => {
    const key = newKey();
    const invalid = await post("/api/students", key, { as: "teacher@demo.test", json: { name: "" } });
    expectProblem(invalid, 400, "VALIDATION_FAILED");
    expectReplay(await post("/api/students", key, { as: "teacher@demo.test", json: { name: "" } }), invalid);

    const email = `${unique("taken")}@idempotent.test`.toLowerCase();
    expect((await post("/api/students", null, { as: "teacher@demo.test", json: { name: unique("First"), email } })).status).toBe(201);
    const body = { name: unique("Second"), email };
    const taken = await post("/api/students", `${key}-taken`, { as: "teacher@demo.test", json: body });
    expectProblem(taken, 409, "EMAIL_TAKEN");
    // The address is freed, but the key still holds the first answer.
    await db().student.updateMany({ where: { email }, data: { email: null } });
    expectReplay(await post("/api/students", `${key}-taken`, { as: "teacher@demo.test", json: body }), taken);
    expect(await db().student.count({ where: { name: body.name } })).toBe(0);
  });

  it("given an API token's answer, should keep it encrypted: the token shown once is not stored in the clear", async () => {
    const key = newKey();
    const created = await post("/api/user/tokens", key, { as: "teacher@demo.test", json: { name: unique("Kept encrypted") } });
    expect(created.status).toBe(201);
    const stored = await storedKey("teacher@demo.test", key);
    expect(stored).toMatchObject({ status: 201, responseBody: expect.stringMatching(/^v1\./) });
    expect(stored!.responseBody).not.toContain(created.body.token);
    expect(stored!.responseBody).not.toContain(created.body.name);
    expectReplay(await post("/api/user/tokens", key, { as: "teacher@demo.test", json: { name: created.body.name } }), created);
  });

  it("given a request without the header, should process every repeat as before", async () => {
    const name = unique("No key");
    for (let i = 0; i < 2; i++) expect((await post("/api/students", null, { as: "teacher@demo.test", json: { name } })).status).toBe(201);
    expect(await db().student.count({ where: { name } })).toBe(2);
  });
});

describe("what the key and the request are", () => {
  it("given keys of 1 and 255 characters, quoted or not, should take them; empty, longer, unquoted quotes or non-ASCII: 400 naming the header", async () => {
    for (const key of ["k", "x".repeat(255), `"${unique("quoted")}"`, `"with \\"escapes\\" \\\\ inside"`]) {
      const response = await post("/api/groups", key, { as: "teacher2@demo.test", json: { name: unique("Key shape") } });
      expect(response.status, `${key}: ${response.text}`).toBe(201);
    }
    for (const key of ["", '""', "x".repeat(256), `"${"x".repeat(256)}"`, '"unterminated', '"a" "b"', "caf\u00e9"]) {
      const name = unique("Refused key");
      const response = await post("/api/groups", key, { as: "teacher2@demo.test", json: { name } });
      expectProblem(response, 400, "VALIDATION_FAILED");
      expect(response.body.errors, key).toEqual([{ path: "Idempotency-Key", message: expect.any(String) }]);
      expect(await db().group.count({ where: { name } })).toBe(0);
    }
  });

  it('given the key quoted as the draft writes it ("abc") and then bare (abc), should take them as one key', async () => {
    const key = newKey();
    const json = { name: unique("Quoted once") };
    const first = await post("/api/groups", `"${key}"`, { as: "teacher@demo.test", json });
    expect(first.status).toBe(201);
    expectReplay(await post("/api/groups", key, { as: "teacher@demo.test", json }), first);
  });

  it("given the same JSON with its keys in another order and other spacing, should take it as the same request", async () => {
    const key = newKey();
    const name = unique("Same body");
    const first = await post("/api/students", key, {
      as: "teacher@demo.test",
      body: JSON.stringify({ name, grade: "4" }),
      headers: { "content-type": "application/json" },
    });
    expect(first.status).toBe(201);
    const again = await post("/api/students", key, {
      as: "teacher@demo.test",
      body: `{ "grade" : "4",\n  "name": ${JSON.stringify(name)} }`,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expectReplay(again, first);
    expect(await db().student.count({ where: { name } })).toBe(1);
  });

  it("given the same CSV file uploaded again as multipart (a new boundary), should take it as the same request", async () => {
    const key = newKey();
    const tag = unique("Multipart").replaceAll("-", "");
    const upload = () => {
      const formData = new FormData();
      formData.set("file", new File([`name\nUploaded ${tag}`], "class.csv", { type: "text/csv" }));
      return formData;
    };
    const first = await post("/api/students/import", key, { as: "teacher@demo.test", body: upload() });
    expect(first.status, first.text).toBe(201);
    expectReplay(await post("/api/students/import", key, { as: "teacher@demo.test", body: upload() }), first);
    expect(await db().student.count({ where: { name: `Uploaded ${tag}` } })).toBe(1);
  });

  it("given the key sent to another path or with another query, should answer 422 and do nothing", async () => {
    const key = newKey();
    const tag = unique("Paths").replaceAll("-", "");
    expect((await post("/api/candidates", key, { as: "teacher@demo.test", json: { name: `Candidate ${tag}` } })).status).toBe(201);
    expectProblem(await post("/api/students", key, { as: "teacher@demo.test", json: { name: `Candidate ${tag}` } }), 422, "IDEMPOTENCY_KEY_REUSED");
    expect(await db().student.count({ where: { name: `Candidate ${tag}` } })).toBe(0);

    const dryKey = newKey();
    const file = `name\nDry ${tag}`;
    const preview = await post("/api/students/import?dryRun=true", dryKey, { as: "teacher@demo.test", ...csv(file) });
    expect(preview.status).toBe(200);
    expectReplay(await post("/api/students/import?dryRun=true", dryKey, { as: "teacher@demo.test", ...csv(file) }), preview);
    expectProblem(await post("/api/students/import", dryKey, { as: "teacher@demo.test", ...csv(file) }), 422, "IDEMPOTENCY_KEY_REUSED");
    expect(await db().student.count({ where: { name: `Dry ${tag}` } })).toBe(0);
  });
});

describe("whose key it is", () => {
  it("given two users sending the same key and body, should process each: keys are per user", async () => {
    const key = newKey();
    const name = unique("Two teachers");
    const mine = await post("/api/students", key, { as: "teacher@demo.test", json: { name } });
    const theirs = await post("/api/students", key, { as: "teacher2@demo.test", json: { name } });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(await db().student.count({ where: { name } })).toBe(2);
    // Another organization's user is another user too.
    const elsewhere = await post("/api/students", key, { as: "teacher@other.test", json: { name } });
    expect(elsewhere.status).toBe(201);
    expect(await db().student.count({ where: { name } })).toBe(3);
  });

  it("given a personal API token of the user whose session used the key, should answer the session's answer: a token acts as its owner", async () => {
    const token = (await api("POST", "/api/user/tokens", { as: "teacher@demo.test", json: { name: unique("Owner's key") } })).body.token as string;
    const key = newKey();
    const json = { name: unique("Session then token") };
    const first = await post("/api/groups", key, { as: "teacher@demo.test", json });
    expect(first.status).toBe(201);
    expectReplay(await post("/api/groups", key, { headers: { authorization: `Bearer ${token}` }, json }), first);
    expect(await db().group.count({ where: { name: json.name } })).toBe(1);
  });

  it("given no session, should answer 401 whatever the key, and keep nothing", async () => {
    const key = newKey();
    const response = await post("/api/students", key, { json: { name: unique("Nobody") } });
    expectProblem(response, 401, "UNAUTHENTICATED");
    expect(await db().idempotencyKey.count({ where: { key } })).toBe(0);
  });
});

describe("how long a key lasts", () => {
  beforeAll(() => {
    // purgeExpired runs in this process against the suite's database, as in the housekeeping test.
    process.env.DATABASE_URL = inject("databaseUrl");
    process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "idempotency-"));
  });

  it("given a repeat just within 24 hours, should answer again; just after, should process it as a new request", async () => {
    const key = newKey();
    const name = unique("A day later");
    const first = await post("/api/students", key, { as: "teacher@demo.test", json: { name } });
    expect(first.status).toBe(201);
    await makeOlder("teacher@demo.test", key, IDEMPOTENCY_KEY_LIFETIME_MS - 60_000);
    expectReplay(await post("/api/students", key, { as: "teacher@demo.test", json: { name } }), first);
    expect(await db().student.count({ where: { name } })).toBe(1);

    await makeOlder("teacher@demo.test", key, IDEMPOTENCY_KEY_LIFETIME_MS + 1000);
    const later = await post("/api/students", key, { as: "teacher@demo.test", json: { name } });
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
    expect(await db().student.count({ where: { name } })).toBe(2);
    // And the key holds the new answer from now on.
    expectReplay(await post("/api/students", key, { as: "teacher@demo.test", json: { name } }), later);
  });

  it("given keys past their 24 hours, should have the housekeeping delete them and keep the others", async () => {
    const { purgeExpired } = await import("../../app/lib/auth/housekeeping.server.ts");
    const [old, fresh] = [newKey(), newKey()];
    for (const key of [old, fresh]) expect((await post("/api/groups", key, { as: "teacher@demo.test", json: { name: unique("Housekept") } })).status).toBe(201);
    await makeOlder("teacher@demo.test", old, IDEMPOTENCY_KEY_LIFETIME_MS + 1000);
    const purged = await purgeExpired(new Date());
    expect(purged.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(await storedKey("teacher@demo.test", old)).toBeNull();
    expect(await storedKey("teacher@demo.test", fresh)).toMatchObject({ status: 201 });
  });
});

describe("a repeat while the first request is still being processed", () => {
  /** A key taken by a first request that has not been answered yet, as its instance sees it. */
  async function takenKey(email: DemoUser, json: unknown, ageMs = 0) {
    const key = newKey();
    const requestHash = await requestFingerprint("POST", `${baseUrl()}/api/students`, "application/json", new TextEncoder().encode(JSON.stringify(json)));
    await db().idempotencyKey.create({ data: { userId: await userIdOf(email), key, requestHash, createdAt: new Date(Date.now() - ageMs) } });
    return key;
  }

  it("given the key taken by a request not answered yet, should answer 409 IDEMPOTENCY_KEY_IN_USE and do nothing; another body is still 422", async () => {
    const json = { name: unique("Still running") };
    const key = await takenKey("teacher@demo.test", json);
    const response = await post("/api/students", key, { as: "teacher@demo.test", json });
    expectProblem(response, 409, "IDEMPOTENCY_KEY_IN_USE");
    expectProblem(await post("/api/students", key, { as: "teacher@demo.test", json: { name: unique("Other") } }), 422, "IDEMPOTENCY_KEY_REUSED");
    expect(await db().student.count({ where: { name: json.name } })).toBe(0);
  });

  it("given a first request abandoned unanswered (its instance stopped), should process the repeat once the claim is older than the longest request", async () => {
    const json = { name: unique("Abandoned") };
    const key = await takenKey("teacher@demo.test", json, ABANDONED_AFTER_MS + 1000);
    const response = await post("/api/students", key, { as: "teacher@demo.test", json });
    expect(response.status, response.text).toBe(201);
    expectReplay(await post("/api/students", key, { as: "teacher@demo.test", json }), response);
    expect(await db().student.count({ where: { name: json.name } })).toBe(1);
  });
});

describe("the same keyed request at once", { timeout: 180_000 }, () => {
  let second: Instance;
  let token: string;

  beforeAll(async () => {
    second = await startInstance();
    token = (await api("POST", "/api/user/tokens", { as: "teacher@demo.test", json: { name: unique("At once") } })).body.token;
  }, 180_000);

  afterAll(async () => {
    await second?.stop();
  });

  /** One raw POST with the teacher's token, to the suite's server or to the second instance. */
  async function send(origin: string, path: string, key: string, json: unknown) {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify(json),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text), replayed: response.headers.get("idempotent-replayed") };
  }

  it("given 10 identical requests with one key at once over two instances, should create one student: the others get its answer or 409", async () => {
    const key = newKey();
    const json = { name: unique("Ten at once") };
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 === 0 ? baseUrl() : second.baseUrl, "/api/students", key, json)));
    const created = answers.filter((answer) => answer.status === 201);
    const busy = answers.filter((answer) => answer.status === 409);
    expect(created.length + busy.length, JSON.stringify(answers.filter((a) => a.status !== 201))).toBe(10);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.text)).size).toBe(1);
    expect(created.filter((answer) => answer.replayed === null)).toHaveLength(1);
    for (const answer of busy) expect(answer.body.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    expect(await db().student.count({ where: { name: json.name } })).toBe(1);
    // Once the first is answered, every repeat gets its answer.
    const after = await send(second.baseUrl, "/api/students", key, json);
    expect(after).toMatchObject({ status: 201, text: created[0]!.text, replayed: "true" });
  });

  it("given random sequences and batches of repeats, other bodies and new keys, should never create more than one student per key", async () => {
    type Step = { key: number; variant: number }[];
    const request = fc.record({ key: fc.integer({ min: 0, max: 3 }), variant: fc.integer({ min: 0, max: 1 }) });
    // A step is one request, or a batch of requests sent at once.
    const steps = fc.array(fc.oneof(fc.array(request, { minLength: 1, maxLength: 1 }), fc.array(request, { minLength: 2, maxLength: 6 })), {
      minLength: 1,
      maxLength: 5,
    });
    await fc.assert(
      fc.asyncProperty(steps, async (run: Step[]) => {
        const tag = unique("prop").replaceAll("-", "");
        const keys = [0, 1, 2, 3].map((k) => `${tag}-k${k}`);
        const bodyOf = (k: number, variant: number) => ({ name: `Prop ${tag} k${k}`, grade: `v${variant}` });
        const answers = new Map<number, { variant: number; status: number; text: string }[]>();
        let turn = 0;
        for (const step of run) {
          const results = await Promise.all(
            step.map(async ({ key, variant }) => {
              const origin = turn++ % 2 === 0 ? baseUrl() : second.baseUrl;
              return { key, variant, ...(await send(origin, "/api/students", keys[key]!, bodyOf(key, variant))) };
            }),
          );
          for (const result of results) answers.set(result.key, [...(answers.get(result.key) ?? []), result]);
        }
        for (const [k, given] of answers) {
          const rows = await db().student.findMany({ where: { name: `Prop ${tag} k${k}` }, select: { id: true, grade: true } });
          // Exactly one student per key used, whatever the order; its body is the first request's.
          expect(rows, JSON.stringify(given)).toHaveLength(1);
          const winner = Number(rows[0]!.grade!.slice(1));
          for (const answer of given) {
            if (answer.variant !== winner) expect(answer.status, answer.text).toBe(422);
            else expect([201, 409], answer.text).toContain(answer.status);
            if (answer.status === 201) expect(JSON.parse(answer.text).id).toBe(rows[0]!.id);
          }
          // Afterwards the key answers the winner's answer, and nothing more is created.
          const again = await send(baseUrl(), "/api/students", keys[k]!, bodyOf(k, winner));
          expect(again).toMatchObject({ status: 201, replayed: "true" });
          expect(again.body.id).toBe(rows[0]!.id);
        }
      }),
      { numRuns: 12 },
    );
  });
});
