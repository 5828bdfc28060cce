import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, type DemoUser, type RequestOptions, unique } from "../support/api.ts";
import { type CreatedForm, mediumAnswers, mixedForm } from "../support/assessment.ts";
import sharp from "sharp";
import { type CreatedUser, createSignedInUser } from "../support/fixtures.ts";
import { documentedOperationId } from "../support/response-contract.ts";
import { mailCount, nextMailedCode } from "../support/two-factor.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * The tour an integrator's validating proxy makes: Stoplight Prism in front of the service, given
 * the document the service serves, checks every request and every answer against it (status,
 * headers, media type, body) and reports what differs in its `sl-violations` header. The tour calls
 * every operation of the document at least once, with the statuses an integrator meets (401, 403,
 * 404, 400, 412, 429 among them), and expects no difference at all. A request made wrong on purpose
 * (to see its 400) differs from the document on its request side by design: only its answer counts.
 */

type Violation = { location: string[]; severity: string; message: string };

let prism: ChildProcess;
let proxy: string;
let receiver: Server;
let receiverUrl: string;
let workDir: string;
const called = new Set<string>();
const mismatches: string[] = [];

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "validating-proxy-"));
  const served = await api("GET", "/api/openapi?format=json");
  expect(served.status).toBe(200);
  const documentPath = path.join(workDir, "openapi.json");
  writeFileSync(documentPath, served.text);
  const port = await freePort();
  prism = spawn(path.resolve("node_modules/.bin/prism"), ["proxy", documentPath, baseUrl(), "--port", String(port), "--errors", "false", "-v", "warn"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  proxy = `http://127.0.0.1:${port}`;
  let output = "";
  prism.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  prism.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // Ready when it answers: the proxy's own start-up message is not printed at level warn.
  await waitUntil(
    async () => {
      if (prism.exitCode !== null) throw new Error(`Prism exited:\n${output}`);
      return fetch(`${proxy}/api/auth/providers`).then(
        (response) => response.ok,
        () => false,
      );
    },
    () => `Prism to start:\n${output}`,
    { timeoutMs: 30_000, everyMs: 100 },
  );
  receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}, 60_000);

afterAll(async () => {
  prism?.kill();
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(workDir, { recursive: true, force: true });
});

/**
 * One call through the proxy: what Prism found different is recorded (the request side only when
 * the request is meant to be valid), and the operation counted as toured.
 */
async function via(method: string, path: string, options: RequestOptions & { wrongOnPurpose?: boolean } = {}) {
  const { wrongOnPurpose, ...request } = options;
  const response = await api(method, path, { ...request, base: proxy });
  const operationId = await documentedOperationId(method, path);
  if (operationId) called.add(operationId);
  const violations = JSON.parse(response.headers.get("sl-violations") ?? "[]") as Violation[];
  for (const violation of violations) {
    if (wrongOnPurpose && violation.location[0] === "request") continue;
    mismatches.push(`${method} ${path} → ${response.status}: ${violation.location.join(".")}: ${violation.message}`);
  }
  return response;
}

/**
 * An operation called without the proxy: one that answers with a redirect, which Prism follows
 * (stoplightio/prism#1977), so it would check the page redirected to; and an upload of a binary
 * file, whose multipart body Prism passes on as text, so the image arrives corrupted. The suite's
 * own check of every answer against the document (tests/support/response-contract.ts) still applies.
 */
async function direct(method: string, path: string, options: RequestOptions = {}) {
  const response = await api(method, path, options);
  const operationId = await documentedOperationId(method, path);
  if (operationId) called.add(operationId);
  return response;
}

const admin: DemoUser = "admin@demo.test";
const teacher: DemoUser = "teacher@demo.test";
const csv = { "content-type": "text/csv" };

describe("the validating proxy's tour of every operation", () => {
  let user: CreatedUser;
  let formId: string;
  let form: CreatedForm;
  let studentId: string;
  let candidateId: string;
  let groupId: string;

  it("signs in, out, and manages passwords and the second factor", async () => {
    expect((await via("GET", "/api/auth/providers")).status).toBe(200);
    expect((await via("GET", "/api/auth/session", { as: admin })).status).toBe(200);
    user = await createSignedInUser("TEACHER");

    const csrf = await via("GET", "/api/auth/csrf");
    expect(csrf.status).toBe(200);
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
    const csrfToken = csrf.body.csrfToken as string;
    expect((await via("POST", "/api/auth/check-credentials", { json: { email: user.email, password: user.password } })).status).toBe(200);
    expect((await via("POST", "/api/auth/check-credentials", { json: { email: user.email, password: "not the password" } })).status).toBe(401);
    const signedIn = await via("POST", "/api/auth/callback/credentials", {
      cookie: csrfCookie,
      json: { email: user.email, password: user.password, csrfToken },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    const session = signedIn.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("remix-auth.session-token="))!
      .split(";")[0]!;
    expect((await via("POST", "/api/auth/signin/oidc", { cookie: csrfCookie, json: { csrfToken } })).status).toBeLessThan(400);
    expect((await direct("GET", "/api/auth/oidc")).status).toBe(302);
    expect((await direct("GET", "/api/auth/oidc/callback")).status).toBe(302);
    const signedOut = await via("POST", "/api/auth/signout", { cookie: `${session}; ${csrfCookie}`, json: { csrfToken } });
    expect(signedOut.status, signedOut.text).toBe(200);

    expect((await via("POST", "/api/auth/forgot-password", { json: { email: user.email } })).status).toBe(200);
    expect((await via("POST", "/api/auth/reset-password", { json: { token: "not-a-token", password: "a long new password" } })).status).toBe(400);

    const seen = await mailCount(user.email);
    expect((await via("POST", "/api/auth/two-factor/setup", { cookie: user.cookie, json: { method: "EMAIL" } })).status).toBe(200);
    const code = await nextMailedCode(user.email, seen);
    expect((await via("POST", "/api/auth/two-factor/enable", { cookie: user.cookie, json: { code } })).status).toBe(200);
    expect((await via("POST", "/api/auth/two-factor/disable", { cookie: user.cookie, json: { password: user.password } })).status).toBe(200);
  });

  it("builds a form, people and a class", async () => {
    const created = await via("POST", "/api/forms", { as: teacher, json: mixedForm(unique("Toured form")) });
    expect(created.status, created.text).toBe(201);
    form = created.body;
    formId = form.id;
    expect((await via("POST", "/api/forms", { as: teacher, json: { title: "" }, wrongOnPurpose: true })).status).toBe(400);
    expect((await via("GET", "/api/forms?search=Toured", { as: teacher })).status).toBe(200);
    const read = await via("GET", `/api/forms/${formId}`, { as: teacher });
    expect(read.status).toBe(200);
    const version = read.headers.get("etag")!;
    const edited = await via("PUT", `/api/forms/${formId}`, {
      as: teacher,
      json: { description: "Toured through the proxy." },
      headers: { "if-match": version },
    });
    expect(edited.status, edited.text).toBe(200);
    // The same version again: the form has changed since.
    expect((await via("PUT", `/api/forms/${formId}`, { as: teacher, json: { description: "A second edit." }, headers: { "if-match": version } })).status).toBe(
      412,
    );
    // Two of the form's questions copied into a form of their own.
    const copyTarget = await via("POST", "/api/forms", { as: teacher, json: { title: unique("Toured copy") } });
    expect(copyTarget.status, copyTarget.text).toBe(201);
    const copied = await via("POST", `/api/forms/${copyTarget.body.id}/questions/copy`, {
      as: teacher,
      json: { fromFormId: formId, questionIds: (form.questions as { id: string }[]).slice(0, 2).map((question) => question.id) },
    });
    expect(copied.status, copied.text).toBe(200);
    expect((await via("GET", "/api/forms/not-a-form", { as: teacher })).status).toBe(404);
    expect((await via("GET", "/api/forms", { wrongOnPurpose: true })).status).toBe(401);

    // The instrument library: read, install, and the lock of what was installed.
    expect((await via("GET", "/api/instruments?language=es", { as: teacher })).status).toBe(200);
    const installed = await via("POST", "/api/instruments/gad-7/install", { as: teacher, json: { title: unique("Toured GAD-7") } });
    expect(installed.status, installed.text).toBe(201);
    expect((await via("PUT", `/api/forms/${installed.body.id}`, { as: teacher, json: { scoreRanges: [] } })).status).toBe(409);
    expect((await via("POST", "/api/instruments/gad-7/install", { as: teacher, json: { language: "es" }, wrongOnPurpose: true })).status).toBe(400);
    expect((await via("POST", "/api/instruments/no-such-instrument/install", { as: teacher, json: {} })).status).toBe(404);
    expect((await via("DELETE", `/api/forms/${installed.body.id}`, { as: teacher })).status).toBe(200);

    const student = await via("POST", "/api/students", { as: teacher, json: { name: unique("Toured pupil"), email: `${unique("pupil")}@tour.test` } });
    expect(student.status, student.text).toBe(201);
    studentId = student.body.id;
    expect((await via("GET", "/api/students?search=Toured", { as: teacher })).status).toBe(200);
    expect((await via("GET", `/api/students/${studentId}`, { as: teacher })).status).toBe(200);
    expect((await via("PUT", `/api/students/${studentId}`, { as: teacher, json: { grade: "5B", dateOfBirth: "2014-03-09" } })).status).toBe(200);
    expect((await via("GET", "/api/students/export?search=Toured", { as: teacher })).status).toBe(200);
    const roster = `name,email\n${unique("Imported pupil")},${unique("imported")}@tour.test\n`;
    expect((await via("POST", "/api/students/import?dryRun=true", { as: teacher, body: roster, headers: csv })).status).toBe(200);
    expect((await via("POST", "/api/students/import", { as: teacher, body: roster, headers: csv })).status).toBe(201);

    const candidate = await via("POST", "/api/candidates", { as: teacher, json: { name: unique("Toured candidate") } });
    expect(candidate.status, candidate.text).toBe(201);
    candidateId = candidate.body.id;
    expect((await via("GET", "/api/candidates", { as: teacher })).status).toBe(200);
    expect((await via("GET", `/api/candidates/${candidateId}`, { as: teacher })).status).toBe(200);
    expect((await via("PUT", `/api/candidates/${candidateId}`, { as: teacher, json: { phone: "+55 11 5555-0100" } })).status).toBe(200);
    const candidates = `name\n${unique("Imported candidate")}\n`;
    expect((await via("POST", "/api/candidates/import", { as: teacher, body: candidates, headers: csv })).status).toBe(201);
    expect((await via("GET", "/api/candidates/export?status=NEW", { as: teacher })).status).toBe(200);
    const promoted = await via("POST", "/api/candidates", { as: teacher, json: { name: unique("Promoted candidate") } });
    expect((await via("POST", `/api/candidates/${promoted.body.id}/promote`, { as: admin })).status).toBe(201);
    const leaving = await via("POST", "/api/candidates", { as: teacher, json: { name: unique("Leaving candidate") } });
    expect((await via("DELETE", `/api/candidates/${leaving.body.id}`, { as: admin })).status).toBe(200);

    const group = await via("POST", "/api/groups", { as: teacher, json: { name: unique("Toured class") } });
    expect(group.status, group.text).toBe(201);
    groupId = group.body.id;
    expect((await via("GET", "/api/groups", { as: teacher })).status).toBe(200);
    expect((await via("GET", `/api/groups/${groupId}`, { as: teacher })).status).toBe(200);
    expect((await via("PUT", `/api/groups/${groupId}`, { as: teacher, json: { description: "Toured." } })).status).toBe(200);
    expect((await via("POST", `/api/groups/${groupId}/members`, { as: teacher, json: { studentIds: [studentId], candidateIds: [candidateId] } })).status).toBe(
      200,
    );
    expect((await via("DELETE", `/api/groups/${groupId}/members`, { as: teacher, json: { candidateIds: [candidateId] } })).status).toBe(200);
    const staff = await via("GET", `/api/groups/${groupId}/staff`, { as: teacher });
    expect(staff.status, staff.text).toBe(200);
    const entries = (staff.body.staff as { userId: string; role: string }[]).map(({ userId, role }) => ({ userId, role }));
    expect((await via("PUT", `/api/groups/${groupId}/staff`, { as: teacher, json: { staff: entries } })).status).toBe(200);
  });

  it("assigns, sends, answers and reports", async () => {
    const assigned = await via("POST", "/api/submissions", { as: teacher, json: { formId, studentId } });
    expect(assigned.status, assigned.text).toBe(201);
    const { id, token } = assigned.body as { id: string; token: string };
    // An image of the form, for the staff and for the link's respondent.
    const upload = new FormData();
    const diagram = await sharp({ create: { width: 4, height: 3, channels: 3, background: { r: 26, g: 127, b: 55 } } })
      .png()
      .toBuffer();
    upload.set("file", new File([new Uint8Array(diagram)], "diagram.png", { type: "image/png" }));
    const image = await direct("POST", `/api/forms/${formId}/images`, { as: teacher, body: upload });
    expect(image.status, image.text).toBe(201);
    expect((await via("GET", `/api/forms/${formId}/images/${image.body.id}`, { as: teacher })).status).toBe(200);
    expect((await via("GET", `/api/test-link/${token}/images/${image.body.id}`)).status).toBe(200);
    expect((await via("GET", "/api/submissions", { as: teacher })).status).toBe(200);
    expect((await via("GET", `/api/submissions/${id}`, { as: teacher })).status).toBe(200);
    expect((await via("PUT", `/api/submissions/${id}`, { as: teacher, json: { expiresAt: "2099-12-31" } })).status).toBe(200);
    expect((await via("POST", `/api/submissions/${id}/send`, { as: teacher })).status).toBe(202);
    const again = await via("POST", `/api/submissions/${id}/send`, { as: teacher });
    expect(again.status).toBe(429);
    expect(again.headers.get("retry-after")).toMatch(/^\d+$/);

    const bulk = await via("POST", "/api/submissions/bulk", { as: teacher, json: { formId, groupId } });
    expect(bulk.status, bulk.text).toBe(201);
    expect((await via("POST", "/api/submissions/remind", { as: teacher, json: { formId } })).status).toBe(202);
    const other = await via("POST", "/api/submissions", { as: teacher, json: { formId, candidateId } });
    expect((await via("POST", `/api/submissions/${other.body.id}/revoke`, { as: teacher })).status).toBe(200);

    const schedule = await via("POST", "/api/schedules", {
      as: teacher,
      json: { formId, groupId, startsAt: "2099-01-05", everyDays: 7, count: 4, send: false },
    });
    expect(schedule.status, schedule.text).toBe(201);
    const scheduleId = schedule.body.schedule.id as string;
    expect((await via("GET", "/api/schedules", { as: teacher })).status).toBe(200);
    expect((await via("GET", `/api/schedules/${scheduleId}`, { as: teacher })).status).toBe(200);
    expect((await via("PUT", `/api/schedules/${scheduleId}`, { as: teacher, json: { paused: true } })).status).toBe(200);
    expect((await via("DELETE", `/api/schedules/${scheduleId}`, { as: teacher })).status).toBe(200);

    expect((await via("GET", `/api/test-link/${token}`)).status).toBe(200);
    const { answers } = mediumAnswers(form);
    expect((await via("PUT", `/api/test-link/${token}/draft`, { json: { answers: answers.slice(0, 1) } })).status).toBe(200);
    const submitted = await via("POST", `/api/test-link/${token}/submit`, { json: { answers } });
    expect(submitted.status, submitted.text).toBe(200);
    expect((await via("POST", `/api/test-link/${token}/submit`, { json: { answers } })).status).toBe(409);
    // The review: refused while the form never shows it, read once it shows it after the submit.
    expect((await via("GET", `/api/test-link/${token}/review`)).status).toBe(409);
    expect((await direct("PUT", `/api/forms/${formId}`, { as: teacher, json: { review: "AFTER_SUBMIT" } })).status).toBe(200);
    expect((await via("GET", `/api/test-link/${token}/review`)).status).toBe(200);

    expect((await via("GET", `/api/forms/${formId}/summary`, { as: teacher })).status).toBe(200);
    // Its versions, and a rescore of its results (none of them scored against an earlier version).
    expect((await via("GET", `/api/forms/${formId}/versions`, { as: teacher })).status).toBe(200);
    expect((await via("POST", `/api/forms/${formId}/rescore`, { as: teacher, json: { dryRun: true } })).status).toBe(200);
    expect((await via("POST", `/api/forms/${formId}/rescore`, { as: teacher, json: {} })).status).toBe(200);
    expect((await via("POST", `/api/forms/${formId}/rescore`, { as: teacher, json: { dryRun: 1 }, wrongOnPurpose: true })).status).toBe(400);
    expect((await via("GET", `/api/reports?formId=${formId}`, { as: teacher })).status).toBe(200);
    expect((await via("GET", `/api/reports/${id}`, { as: teacher })).status).toBe(200);
    expect((await via("GET", `/api/reports/${id}/fhir`, { as: teacher })).status).toBe(200);
    const questionnaire = await via("GET", `/api/forms/${formId}/fhir`, { as: teacher });
    expect(questionnaire.status).toBe(200);
    const fhirJson = { "content-type": "application/fhir+json" };
    const imported = await via("POST", "/api/forms/fhir", { as: teacher, json: questionnaire.body, headers: fhirJson });
    expect(imported.status, imported.text).toBe(201);
    const attachment = { ...questionnaire.body, item: [{ linkId: "scan", text: "Upload a scan", type: "attachment" }] };
    expect((await via("POST", "/api/forms/fhir", { as: teacher, json: attachment, headers: fhirJson })).status).toBe(400);
    // The mixed form has no critical answer: nothing to acknowledge.
    expect((await via("POST", `/api/submissions/${id}/acknowledge`, { as: teacher, json: { note: "Seen." } })).status).toBe(409);
    expect((await via("GET", "/api/reports?flagged=unacknowledged", { as: teacher })).status).toBe(200);
    const exported = await via("GET", `/api/reports/export?format=csv&formId=${formId}`, { as: teacher });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toMatch(/^text\/csv/);
    const pdf = await via("POST", "/api/reports/export", { as: teacher, json: { submissionId: id } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
  });

  it("reads and changes the caller's own account, tokens and assignments", async () => {
    expect((await via("GET", "/api/user/profile", { cookie: user.cookie })).status).toBe(200);
    expect((await via("PUT", "/api/user/profile", { cookie: user.cookie, json: { name: unique("Toured teacher") } })).status).toBe(200);
    expect((await via("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(200);
    expect((await via("GET", "/api/user/assignments", { as: "student@demo.test" })).status).toBe(200);
    const token = await via("POST", "/api/user/tokens", { cookie: user.cookie, json: { name: "Tour" } });
    expect(token.status, token.text).toBe(201);
    expect((await via("GET", "/api/user/tokens", { cookie: user.cookie })).status).toBe(200);
    expect((await via("DELETE", `/api/user/tokens/${token.body.id}`, { cookie: user.cookie })).status).toBe(200);
    // Last: the change ends the user's other sessions and gives this one a new cookie.
    const changed = await via("POST", "/api/user/password", {
      cookie: user.cookie,
      json: { currentPassword: user.password, newPassword: `${user.password}-new` },
    });
    expect(changed.status, changed.text).toBe(200);
  });

  it("administers users, the organization and webhooks", async () => {
    const created = await via("POST", "/api/users", {
      as: admin,
      json: { email: `${unique("toured")}@tour.test`, name: unique("Toured user"), role: "TEACHER", password: `pw-${unique("secret")}` },
    });
    expect(created.status, created.text).toBe(201);
    const userId = created.body.id as string;
    expect((await via("GET", "/api/users", { as: admin })).status).toBe(200);
    expect((await via("GET", "/api/users", { as: teacher })).status).toBe(403);
    expect((await via("PATCH", `/api/users/${userId}`, { as: admin, json: { name: unique("Renamed user") } })).status).toBe(200);
    expect([200, 404]).toContain((await via("GET", `/api/users/${userId}/avatar`, { as: admin })).status);
    expect((await via("POST", `/api/users/${userId}/sessions/revoke`, { as: admin })).status).toBe(200);
    expect((await via("GET", `/api/users/${userId}/tokens`, { as: admin })).status).toBe(200);

    const organization = await via("GET", "/api/organization", { as: admin });
    expect(organization.status).toBe(200);
    expect((await via("PUT", "/api/organization", { as: admin, json: { name: organization.body.name } })).status).toBe(200);
    // What the retention policy would touch now; reading it changes nothing.
    const preview = await via("GET", "/api/organization/retention/preview", { as: admin });
    expect(preview.status, preview.text).toBe(200);
    // Who did what: the log, and the same as a file (the one action keeps it short).
    expect((await via("GET", "/api/audit?action=organization.updated", { as: admin })).status).toBe(200);
    expect((await via("GET", "/api/audit?action=organization.updated", { as: teacher })).status).toBe(403);
    expect((await via("GET", "/api/audit/export?action=organization.updated", { as: admin })).status).toBe(200);

    const hook = await via("POST", "/api/webhooks", { as: admin, json: { url: receiverUrl, events: ["student.created"] } });
    expect(hook.status, hook.text).toBe(201);
    const hookId = hook.body.id as string;
    try {
      expect((await via("GET", "/api/webhooks", { as: admin })).status).toBe(200);
      expect((await via("GET", `/api/webhooks/${hookId}`, { as: admin })).status).toBe(200);
      expect((await via("PUT", `/api/webhooks/${hookId}`, { as: admin, json: { events: ["student.created", "student.updated"], formIds: [] } })).status).toBe(
        200,
      );
      const tried = await via("POST", `/api/webhooks/${hookId}/test`, { as: admin });
      expect(tried.status, tried.text).toBe(200);
      expect(tried.body.delivered).toBe(true);
      expect((await via("POST", "/api/students", { as: admin, json: { name: unique("Announced pupil") } })).status).toBe(201);
      const deliveries = await via("GET", `/api/webhooks/${hookId}/deliveries`, { as: admin });
      expect(deliveries.status).toBe(200);
      const deliveryId = (deliveries.body.deliveries as { id: string }[])[0]!.id;
      expect((await via("POST", `/api/webhooks/${hookId}/deliveries/${deliveryId}/resend`, { as: admin })).status).toBe(202);
    } finally {
      expect((await via("DELETE", `/api/webhooks/${hookId}`, { as: admin })).status).toBe(200);
    }
  });

  it("removes what it made, and serves the document", async () => {
    expect((await via("GET", "/api/openapi")).status).toBe(200);
    const leaving = await via("POST", "/api/students", { as: teacher, json: { name: unique("Leaving pupil") } });
    expect((await via("DELETE", `/api/students/${leaving.body.id}`, { as: admin })).status).toBe(200);
    // A person's data handed over, then erased: a student anonymised, a candidate deleted.
    const erased = await via("POST", "/api/students", { as: teacher, json: { name: unique("Erased pupil") } });
    expect((await via("GET", `/api/students/${erased.body.id}/export`, { as: admin })).status).toBe(200);
    const anonymised = await via("POST", `/api/students/${erased.body.id}/erase`, { as: admin, json: { mode: "ANONYMISE", confirm: erased.body.name } });
    expect(anonymised.status, anonymised.text).toBe(200);
    const applicant = await via("POST", "/api/candidates", { as: teacher, json: { name: unique("Erased applicant") } });
    expect((await via("GET", `/api/candidates/${applicant.body.id}/export`, { as: admin })).status).toBe(200);
    expect((await via("POST", `/api/candidates/${applicant.body.id}/erase`, { as: admin, json: { mode: "DELETE", confirm: "Someone else" } })).status).toBe(
      400,
    );
    const deleted = await via("POST", `/api/candidates/${applicant.body.id}/erase`, { as: admin, json: { mode: "DELETE", confirm: applicant.body.name } });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await via("DELETE", `/api/groups/${groupId}`, { as: teacher })).status).toBe(200);
    expect((await via("DELETE", `/api/forms/${formId}`, { as: teacher })).status).toBe(200);
  });

  it("has called every operation of the document, and the proxy found no difference", async () => {
    const served = await api("GET", "/api/openapi?format=json");
    const operations = Object.values(served.body.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) =>
      Object.values(item).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    expect(operations.filter((operationId) => !called.has(operationId))).toEqual([]);
    expect(mismatches).toEqual([]);
  });
});
