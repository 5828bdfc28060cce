import { beforeAll, describe, expect, inject, it } from "vitest";
import { AUDIT_ACTIONS, type AuditAction, auditActions } from "../../app/features/audit/audit-actions.ts";
import { providerOf } from "../../server/database/migrations.ts";
import { api, baseUrl, freshIp, unique } from "../support/api.ts";
import { completeQuiz, type CreatedForm, highAnswers, keyedQuiz, mediumAnswers, mixedForm, rekeyedQuiz } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { type CreatedUser, createOrganization, createSignedInUser, type OwnOrganization } from "../support/fixtures.ts";
import { waitForMail } from "../support/mail.ts";
import { CookieJar, registerProviderAccount, signInWithProvider } from "../support/oidc-client.ts";
import { enableTotp, setupTotp, totpCode, usedAStepAgo, wrongTotpCode } from "../support/two-factor.ts";

/**
 * The audit log (docs/api-contract.md §20) over real HTTP: each action of the catalogue
 * (app/features/audit/audit-actions.ts), done once, leaves exactly one event in the request that
 * did it (found by its X-Request-Id), naming its target and its actor, and never a person's name or
 * e-mail address; a write refused inside its transaction leaves none; a token's write is the
 * token's; and on PostgreSQL the table refuses UPDATE and DELETE.
 */

/** The actions no request in this file makes happen, and why. */
const NOT_HERE: Partial<Record<AuditAction, string>> = {
  "person.exported": "subject access (§21) records it and tests it",
  "person.anonymised": "erasure (§21) records it and tests it",
  "person.deleted": "erasure (§21) records it and tests it",
  "retention.applied": "the retention job (§21) records it and tests it",
};

type Answer = { status: number; headers: Headers };

/** What a case did: the answer that carries the request's id, and what its one event must say. */
type Done = {
  response: Answer;
  targetId: string | null;
  actorId: string | null;
  details?: Record<string, unknown>;
  /** Names of people the request touched: none may be in the event. */
  absent?: string[];
};

const requestIdOf = (response: Answer) => {
  const id = response.headers.get("x-request-id");
  expect(id).toMatch(/\S/);
  return id!;
};

const findEvents = (requestId: string) => testDatabase().auditEvent.findMany({ where: { requestId } });

/** Every event read by this file's tests, as it was read: none may change or go (the last test). */
const recorded: Awaited<ReturnType<typeof findEvents>> = [];

/** Every event the request wrote. */
async function eventsOf(response: Answer) {
  const events = await findEvents(requestIdOf(response));
  recorded.push(...events);
  return events;
}

let org: OwnOrganization;
let adminId: string;
let teacher: { cookie: string };
let admin: { cookie: string };
let form: CreatedForm;
let respondent: { id: string; name: string };
/** A completed result of the respondent whose band is critical: flagged. */
let flaggedId: string;

async function post(caller: { cookie: string }, path: string, json: unknown, status = 201) {
  const response = await api("POST", path, { ...caller, json });
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/** A link to the organization's form for its respondent, still waiting. */
const pendingLink = async (): Promise<string> => (await post(teacher, "/api/submissions", { formId: form.id, studentId: respondent.id })).id;

/** A sign-in through the API as a script makes it, from an address of its own (the per-address limit is shared with other files). */
async function signInCall(email: string, password: string, options: { code?: string; ip?: string } = {}) {
  const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
  const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return api("POST", "/api/auth/callback/credentials", {
    cookie,
    json: { email, password, csrfToken, ...(options.code ? { code: options.code } : {}) },
    headers: { "x-forwarded-for": options.ip ?? freshIp() },
  });
}

const teacherOfOrganization = () => createSignedInUser("TEACHER", { as: "superadmin@demo.test", organizationId: org.id });

beforeAll(async () => {
  org = await createOrganization("Audit");
  teacher = { cookie: org.teacher };
  admin = { cookie: org.admin };
  adminId = (await api("GET", "/api/user/profile", admin)).body.id;
  // The mixed form with its High band critical: the high answers flag the result.
  const body = mixedForm();
  form = await post(teacher, "/api/forms", {
    ...body,
    scoreRanges: body.scoreRanges.map((range, index) => (index === 2 ? { ...range, critical: true } : range)),
  });
  respondent = await post(teacher, "/api/students", { name: unique("Audited respondent") });
  const link = await post(teacher, "/api/submissions", { formId: form.id, studentId: respondent.id });
  const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: highAnswers(form) });
  expect(submit.status, submit.text).toBe(200);
  flaggedId = link.id;
});

/** One case per action: it does the action once, as a client would. */
const cases: { action: AuditAction; run: () => Promise<Done> }[] = [
  {
    action: "auth.signed_in",
    run: async () => {
      const user = await createSignedInUser("TEACHER");
      const response = await signInCall(user.email, user.password);
      expect(response.status, response.text).toBe(200);
      return { response, targetId: user.id, actorId: user.id, details: { method: "password" } };
    },
  },
  {
    action: "auth.sign_in_failed",
    run: async () => {
      const user = await createSignedInUser("TEACHER");
      const response = await signInCall(user.email, `${user.password}-wrong`);
      expect(response.status).toBe(401);
      return { response, targetId: user.id, actorId: user.id, details: { reason: "password" }, absent: [`${user.password}-wrong`] };
    },
  },
  {
    action: "auth.password_changed",
    run: async () => {
      const user = await createSignedInUser("TEACHER");
      const response = await api("POST", "/api/user/password", {
        cookie: user.cookie,
        json: { currentPassword: user.password, newPassword: `pw-${unique("new")}` },
      });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: user.id, actorId: user.id, details: { sessionsEnded: 1 } };
    },
  },
  {
    action: "auth.password_reset",
    run: async () => {
      // A login made without a password is e-mailed a link to choose one: the reset flow.
      const email = `${unique("invited")}@audit.test`;
      const created = await post(admin, "/api/users", { email, name: unique("Invited"), role: "TEACHER" });
      const mail = await waitForMail(email);
      const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
      const response = await api("POST", "/api/auth/reset-password", { json: { token, password: `pw-${unique("chosen")}` } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: created.id, actorId: created.id };
    },
  },
  {
    action: "auth.two_factor_enabled",
    run: async () => {
      const user = await createSignedInUser("TEACHER");
      const { otpauthUrl } = await setupTotp(user);
      const response = await api("POST", "/api/auth/two-factor/enable", { cookie: user.cookie, json: { code: await totpCode(otpauthUrl) } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: user.id, actorId: user.id, details: { method: "TOTP" } };
    },
  },
  {
    action: "auth.two_factor_disabled",
    run: async () => {
      const user = await createSignedInUser("TEACHER");
      await enableTotp(user);
      const response = await api("POST", "/api/auth/two-factor/disable", { cookie: user.cookie, json: { password: user.password } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: user.id, actorId: user.id, details: { method: "TOTP" } };
    },
  },
  {
    action: "form.created",
    run: async () => {
      const response = await api("POST", "/api/forms", { ...teacher, json: mixedForm() });
      expect(response.status, response.text).toBe(201);
      return { response, targetId: response.body.id, actorId: org.teacherId, details: { questions: 4 } };
    },
  },
  {
    action: "form.updated",
    run: async () => {
      const created = await post(teacher, "/api/forms", mixedForm());
      const response = await api("PUT", `/api/forms/${created.id}`, { ...teacher, json: { title: unique("Renamed"), isPublished: false } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: created.id, actorId: org.teacherId, details: { fields: ["isPublished", "title"] } };
    },
  },
  {
    action: "form.deleted",
    run: async () => {
      const created = await post(teacher, "/api/forms", mixedForm());
      const response = await api("DELETE", `/api/forms/${created.id}`, teacher);
      expect(response.status, response.text).toBe(200);
      return { response, targetId: created.id, actorId: org.teacherId };
    },
  },
  {
    action: "student.created",
    run: async () => {
      const name = unique("Created student");
      const email = `${unique("student")}@audit.test`;
      const response = await api("POST", "/api/students", { ...teacher, json: { name, email } });
      expect(response.status, response.text).toBe(201);
      return { response, targetId: response.body.id, actorId: org.teacherId, absent: [name] };
    },
  },
  {
    action: "student.updated",
    run: async () => {
      const student = await post(teacher, "/api/students", { name: unique("Student before") });
      const name = unique("Student after");
      const response = await api("PUT", `/api/students/${student.id}`, { ...teacher, json: { name, grade: "5B" } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: student.id, actorId: org.teacherId, details: { fields: ["grade", "name"] }, absent: [student.name, name, "5B"] };
    },
  },
  {
    action: "student.deleted",
    run: async () => {
      const student = await post(teacher, "/api/students", { name: unique("Student to go") });
      const response = await api("DELETE", `/api/students/${student.id}`, admin);
      expect(response.status, response.text).toBe(200);
      return { response, targetId: student.id, actorId: adminId, absent: [student.name] };
    },
  },
  {
    action: "students.imported",
    run: async () => {
      const [first, second] = [unique("Imported one"), unique("Imported two")];
      const csv = `name,email\r\n${first},${unique("one")}@audit.test\r\n${second},\r\n`;
      const response = await api("POST", "/api/students/import", { ...teacher, body: csv, headers: { "content-type": "text/csv" } });
      expect(response.status, response.text).toBe(201);
      return {
        response,
        targetId: org.id,
        actorId: org.teacherId,
        details: { mode: "create", rows: 2, created: 2, groupsCreated: 0 },
        absent: [first, second],
      };
    },
  },
  {
    action: "candidate.created",
    run: async () => {
      const name = unique("Created candidate");
      const response = await api("POST", "/api/candidates", { ...teacher, json: { name, email: `${unique("candidate")}@audit.test` } });
      expect(response.status, response.text).toBe(201);
      return { response, targetId: response.body.id, actorId: org.teacherId, absent: [name] };
    },
  },
  {
    action: "candidate.updated",
    run: async () => {
      const candidate = await post(teacher, "/api/candidates", { name: unique("Candidate before") });
      const response = await api("PUT", `/api/candidates/${candidate.id}`, { ...teacher, json: { status: "IN_EVALUATION" } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: candidate.id, actorId: org.teacherId, details: { fields: ["status"] }, absent: [candidate.name] };
    },
  },
  {
    action: "candidate.deleted",
    run: async () => {
      const candidate = await post(teacher, "/api/candidates", { name: unique("Candidate to go") });
      const response = await api("DELETE", `/api/candidates/${candidate.id}`, admin);
      expect(response.status, response.text).toBe(200);
      return { response, targetId: candidate.id, actorId: adminId, absent: [candidate.name] };
    },
  },
  {
    action: "candidates.imported",
    run: async () => {
      const name = unique("Imported candidate");
      const response = await api("POST", "/api/candidates/import?mode=upsert", {
        ...teacher,
        body: `name\r\n${name}\r\n`,
        headers: { "content-type": "text/csv" },
      });
      expect(response.status, response.text).toBe(201);
      return { response, targetId: org.id, actorId: org.teacherId, details: { mode: "upsert", rows: 1, created: 1, updated: 0, unchanged: 0 }, absent: [name] };
    },
  },
  {
    action: "group.created",
    run: async () => {
      const response = await api("POST", "/api/groups", { ...teacher, json: { name: unique("Class") } });
      expect(response.status, response.text).toBe(201);
      return { response, targetId: response.body.id, actorId: org.teacherId };
    },
  },
  {
    action: "group.updated",
    run: async () => {
      const group = await post(teacher, "/api/groups", { name: unique("Class") });
      const response = await api("PUT", `/api/groups/${group.id}`, { ...teacher, json: { description: "Mornings" } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: group.id, actorId: org.teacherId, details: { fields: ["description"] } };
    },
  },
  {
    action: "group.deleted",
    run: async () => {
      const group = await post(teacher, "/api/groups", { name: unique("Class") });
      const response = await api("DELETE", `/api/groups/${group.id}`, teacher);
      expect(response.status, response.text).toBe(200);
      return { response, targetId: group.id, actorId: org.teacherId };
    },
  },
  {
    action: "group.staff_changed",
    run: async () => {
      const group = await post(teacher, "/api/groups", { name: unique("Shared class") });
      const staff = [
        { userId: org.teacherId, role: "OWNER" },
        { userId: adminId, role: "VIEWER" },
      ];
      const response = await api("PUT", `/api/groups/${group.id}/staff`, { ...teacher, json: { staff } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: group.id, actorId: org.teacherId, details: { staff } };
    },
  },
  {
    action: "user.created",
    run: async () => {
      const name = unique("New colleague");
      const response = await api("POST", "/api/users", {
        ...admin,
        json: { email: `${unique("colleague")}@audit.test`, name, role: "TEACHER", password: `pw-${unique("first")}` },
      });
      expect(response.status, response.text).toBe(201);
      return { response, targetId: response.body.id, actorId: adminId, details: { role: "TEACHER", invited: false }, absent: [name] };
    },
  },
  {
    action: "user.updated",
    run: async () => {
      const colleague = await teacherOfOrganization();
      const response = await api("PATCH", `/api/users/${colleague.id}`, { ...admin, json: { role: "ADMIN" } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: colleague.id, actorId: adminId, details: { fields: ["role"], role: "ADMIN" }, absent: [colleague.profile.name] };
    },
  },
  {
    action: "token.created",
    run: async () => {
      const response = await api("POST", "/api/user/tokens", { ...teacher, json: { name: unique("Sync"), scopes: ["read"] } });
      expect(response.status, response.text).toBe(201);
      return { response, targetId: response.body.id, actorId: org.teacherId, details: { scopes: ["read"] }, absent: [response.body.token] };
    },
  },
  {
    action: "token.deleted",
    run: async () => {
      const token = await post(teacher, "/api/user/tokens", { name: unique("Sync") });
      const response = await api("DELETE", `/api/user/tokens/${token.id}`, teacher);
      expect(response.status, response.text).toBe(200);
      return { response, targetId: token.id, actorId: org.teacherId, details: { ownerId: org.teacherId } };
    },
  },
  {
    action: "webhook.created",
    run: async () => {
      // Nothing listens at this address; the webhook is deleted at once.
      const response = await api("POST", "/api/webhooks", { ...admin, json: { url: "http://127.0.0.1:9/audit", events: ["form.updated"] } });
      expect(response.status, response.text).toBe(201);
      await api("DELETE", `/api/webhooks/${response.body.id}`, admin);
      return { response, targetId: response.body.id, actorId: adminId, details: { events: ["form.updated"], forms: 0 }, absent: [response.body.secret] };
    },
  },
  {
    action: "webhook.updated",
    run: async () => {
      const hook = await post(admin, "/api/webhooks", { url: "http://127.0.0.1:9/audit", events: ["form.updated"] });
      const response = await api("PUT", `/api/webhooks/${hook.id}`, { ...admin, json: { events: ["student.created"] } });
      expect(response.status, response.text).toBe(200);
      await api("DELETE", `/api/webhooks/${hook.id}`, admin);
      return { response, targetId: hook.id, actorId: adminId, details: { fields: ["events"] } };
    },
  },
  {
    action: "webhook.deleted",
    run: async () => {
      const hook = await post(admin, "/api/webhooks", { url: "http://127.0.0.1:9/audit", events: ["form.updated"] });
      const response = await api("DELETE", `/api/webhooks/${hook.id}`, admin);
      expect(response.status, response.text).toBe(200);
      return { response, targetId: hook.id, actorId: adminId };
    },
  },
  {
    action: "organization.updated",
    run: async () => {
      const response = await api("PUT", "/api/organization", { ...admin, json: { name: unique("Audit renamed") } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: org.id, actorId: adminId, details: { fields: ["name"] } };
    },
  },
  {
    action: "report.read",
    run: async () => {
      const response = await api("GET", `/api/reports/${flaggedId}`, teacher);
      expect(response.status, response.text).toBe(200);
      return { response, targetId: flaggedId, actorId: org.teacherId, absent: [respondent.name] };
    },
  },
  {
    action: "report.pdf_read",
    run: async () => {
      const response = await api("POST", "/api/reports/export", { ...teacher, json: { submissionId: flaggedId } });
      expect(response.status, response.text.slice(0, 200)).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      return { response, targetId: flaggedId, actorId: org.teacherId, absent: [respondent.name] };
    },
  },
  {
    action: "export.created",
    run: async () => {
      // Searched by the respondent's name: the event keeps that a search was made, not what it was.
      const query = new URLSearchParams({ format: "csv", search: respondent.name, formId: form.id });
      const response = await api("GET", `/api/reports/export?${query}`, teacher);
      expect(response.status, response.text).toBe(200);
      expect(response.text).toContain(respondent.name);
      return {
        response,
        targetId: org.id,
        actorId: org.teacherId,
        details: { kind: "reports", format: "csv", filters: { search: true, formId: form.id }, rowCount: 1 },
        absent: [respondent.name],
      };
    },
  },
  {
    action: "link.revoked",
    run: async () => {
      const link = await pendingLink();
      const response = await api("POST", `/api/submissions/${link}/revoke`, teacher);
      expect(response.status, response.text).toBe(200);
      return { response, targetId: link, actorId: org.teacherId, absent: [respondent.name] };
    },
  },
  {
    action: "link.extended",
    run: async () => {
      const link = await pendingLink();
      const response = await api("PUT", `/api/submissions/${link}`, { ...teacher, json: { expiresAt: "2099-01-31T12:00:00Z" } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: link, actorId: org.teacherId, details: { expiresAt: "2099-01-31T12:00:00.000Z" } };
    },
  },
  {
    action: "submission.rescored",
    run: async () => {
      const quiz = await post(teacher, "/api/forms", keyedQuiz());
      const name = unique("Rescored respondent");
      await completeQuiz(teacher, quiz, [0, [0, 1], 0], name);
      // The last question's point becomes two: the result scores 7, at version 2.
      const changed = await api("PUT", `/api/forms/${quiz.id}`, { ...teacher, json: rekeyedQuiz(quiz, (_, index) => (index === 2 ? { points: 2 } : {})) });
      expect(changed.status, changed.text).toBe(200);
      const response = await api("POST", `/api/forms/${quiz.id}/rescore`, { ...teacher, json: {} });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: quiz.id, actorId: org.teacherId, details: { version: 2, results: 1, changed: 1 }, absent: [name] };
    },
  },
  {
    action: "flag.acknowledged",
    run: async () => {
      const note = `Called ${respondent.name}'s family`;
      const response = await api("POST", `/api/submissions/${flaggedId}/acknowledge`, { ...teacher, json: { note } });
      expect(response.status, response.text).toBe(200);
      return { response, targetId: flaggedId, actorId: org.teacherId, details: { note: true }, absent: [note, respondent.name] };
    },
  },
];

describe("the audit log's actions", () => {
  it("given the catalogue, should have a case below for every action but those recorded and tested elsewhere", () => {
    const covered = [...cases.map((entry) => entry.action), ...Object.keys(NOT_HERE)].sort();
    expect(covered).toEqual([...auditActions].sort());
    expect(new Set(cases.map((entry) => entry.action)).size).toBe(cases.length);
  });

  it.each(cases)(
    "given $action done over HTTP, should record exactly one event of the request naming its target and actor, and no one's name or e-mail",
    async ({ action, run }) => {
      const done = await run();
      const events = await eventsOf(done.response);
      expect(events.map((event) => event.action)).toEqual([action]);
      const [event] = events;
      expect(event).toMatchObject({
        action,
        targetType: AUDIT_ACTIONS[action],
        targetId: done.targetId,
        actorKind: "USER",
        actorId: done.actorId,
        tokenId: null,
        requestId: requestIdOf(done.response),
      });
      if (done.details) expect(event!.details).toMatchObject(done.details);
      const stored = JSON.stringify(event);
      expect(stored, "an e-mail address").not.toContain("@");
      for (const text of done.absent ?? []) expect(stored).not.toContain(text);
    },
  );
});

describe("signing in", () => {
  it("given an e-mail no account has, should record the failure without anyone, without the e-mail, from the client's address", async () => {
    const ip = freshIp();
    const email = `${unique("nobody")}@audit.test`;
    const response = await signInCall(email, "whatever it is", { ip });
    expect(response.status).toBe(401);
    const [event, ...more] = await eventsOf(response);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ action: "auth.sign_in_failed", actorKind: "USER", actorId: null, actorName: null, targetId: null, organizationId: null, ip });
    expect(JSON.stringify(event)).not.toContain(email.split("@")[0]);
  });

  it("given a second factor, should record nothing for the password alone, a failure for a wrong code, and the sign-in after the right one", async () => {
    const user: CreatedUser = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    const asked = await signInCall(user.email, user.password);
    expect(asked.body.code).toBe("TWO_FACTOR_REQUIRED");
    expect(await eventsOf(asked)).toEqual([]);

    const wrong = await signInCall(user.email, user.password, { code: await wrongTotpCode(otpauthUrl) });
    expect(wrong.body.code).toBe("TWO_FACTOR_INVALID");
    expect(await eventsOf(wrong)).toEqual([expect.objectContaining({ action: "auth.sign_in_failed", actorId: user.id, details: { reason: "second_factor" } })]);

    await usedAStepAgo(user.id);
    const right = await signInCall(user.email, user.password, { code: await totpCode(otpauthUrl) });
    expect(right.status, right.text).toBe(200);
    expect(await eventsOf(right)).toEqual([expect.objectContaining({ action: "auth.signed_in", actorId: user.id, targetId: user.id })]);
  });

  it("given a sign-in through the OpenID provider, should record it as a sign-in by the account", async () => {
    const user = await teacherOfOrganization();
    const subject = unique("audit-subject");
    await registerProviderAccount(subject, { email: user.email, email_verified: true });
    const { response } = await signInWithProvider(new CookieJar(), subject);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/\/home$/);
    expect(await eventsOf(response)).toEqual([
      expect.objectContaining({ action: "auth.signed_in", actorId: user.id, targetId: user.id, organizationId: org.id, details: { method: "oidc" } }),
    ]);
  });
});

describe("what one request records more than once, and the pages", () => {
  it("given a promotion, should record the candidate's change and the student's creation, each naming the other", async () => {
    const candidate = await post(teacher, "/api/candidates", { name: unique("To promote") });
    const response = await api("POST", `/api/candidates/${candidate.id}/promote`, admin);
    expect(response.status, response.text).toBe(201);
    const studentId = response.body.student.id;
    const events = await eventsOf(response);
    expect(events.map((event) => [event.action, event.targetId, event.details])).toEqual(
      expect.arrayContaining([
        ["candidate.updated", candidate.id, { fields: ["promotedStudentId", "status"], promotedTo: studentId }],
        ["student.created", studentId, { promotedFrom: candidate.id }],
      ]),
    );
    expect(events).toHaveLength(2);
  });

  it("given members added and removed, should record group.updated with how many, never who", async () => {
    const group = await post(teacher, "/api/groups", { name: unique("Class") });
    const member = await post(teacher, "/api/students", { name: unique("Member") });
    const added = await api("POST", `/api/groups/${group.id}/members`, { ...teacher, json: { studentIds: [member.id] } });
    expect(added.status, added.text).toBe(200);
    const again = await api("POST", `/api/groups/${group.id}/members`, { ...teacher, json: { studentIds: [member.id] } });
    const removed = await api("DELETE", `/api/groups/${group.id}/members`, { ...teacher, json: { studentIds: [member.id] } });
    expect(removed.status, removed.text).toBe(200);
    expect(await eventsOf(added)).toEqual([
      expect.objectContaining({ action: "group.updated", targetId: group.id, details: { fields: ["members"], added: 1 } }),
    ]);
    // Already a member: nothing changed, nothing recorded.
    expect(await eventsOf(again)).toEqual([]);
    expect(await eventsOf(removed)).toEqual([
      expect.objectContaining({ action: "group.updated", targetId: group.id, details: { fields: ["members"], removed: 1 } }),
    ]);
  });

  it("given the roster exports, should record each with its filters and exact row count", async () => {
    const status = await api("GET", "/api/students/export?status=ACTIVE", teacher);
    expect(status.status, status.text).toBe(200);
    const rows = status.text.trim().split("\r\n").length - 1;
    expect(await eventsOf(status)).toEqual([
      expect.objectContaining({
        action: "export.created",
        targetId: org.id,
        details: { kind: "students", format: "csv", filters: { status: "ACTIVE" }, rowCount: rows },
      }),
    ]);
    const candidates = await api("GET", `/api/candidates/export?search=${encodeURIComponent("nobody by this name")}`, teacher);
    expect(candidates.status, candidates.text).toBe(200);
    expect(await eventsOf(candidates)).toEqual([
      expect.objectContaining({ action: "export.created", details: { kind: "candidates", format: "csv", filters: { search: true }, rowCount: 0 } }),
    ]);
  });

  it("given the report's page and its PDF page, should record a read and a PDF read", async () => {
    const page = await fetch(`${baseUrl()}/en/reports/${flaggedId}`, { headers: { cookie: org.teacher } });
    expect(page.status).toBe(200);
    expect(await eventsOf(page)).toEqual([expect.objectContaining({ action: "report.read", targetId: flaggedId, actorId: org.teacherId })]);
    const pdf = await fetch(`${baseUrl()}/en/reports/${flaggedId}/pdf`, { headers: { cookie: org.teacher } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(await eventsOf(pdf)).toEqual([expect.objectContaining({ action: "report.pdf_read", targetId: flaggedId, actorId: org.teacherId })]);
  });
});

describe("who and when", () => {
  it("given a write made with an API token, should record the token as the actor, on behalf of its owner", async () => {
    const token = await post(teacher, "/api/user/tokens", { name: unique("Roster sync") });
    const response = await api("POST", "/api/students", { headers: { authorization: `Bearer ${token.token}` }, json: { name: unique("Synced") } });
    expect(response.status, response.text).toBe(201);
    expect(await eventsOf(response)).toEqual([
      expect.objectContaining({ action: "student.created", targetId: response.body.id, actorKind: "TOKEN", actorId: org.teacherId, tokenId: token.id }),
    ]);
  });

  it("given writes refused inside their transaction (a stale If-Match, a second acknowledgement), should record nothing", async () => {
    const created = await api("POST", "/api/forms", { ...teacher, json: mixedForm() });
    const stale = created.headers.get("etag")!;
    expect((await api("PUT", `/api/forms/${created.body.id}`, { ...teacher, json: { title: unique("First") } })).status).toBe(200);
    const refused = await api("PUT", `/api/forms/${created.body.id}`, { ...teacher, json: { title: unique("Second") }, headers: { "if-match": stale } });
    expect(refused.status).toBe(412);
    expect(await eventsOf(refused)).toEqual([]);

    const link = await post(teacher, "/api/submissions", { formId: form.id, studentId: respondent.id });
    expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: highAnswers(form) })).status).toBe(200);
    expect((await api("POST", `/api/submissions/${link.id}/acknowledge`, { ...teacher, json: {} })).status).toBe(200);
    const twice = await api("POST", `/api/submissions/${link.id}/acknowledge`, { ...admin, json: {} });
    expect(twice.status).toBe(409);
    expect(await eventsOf(twice)).toEqual([]);
    // A link completed meanwhile: its revocation refused, nothing recorded.
    const completed = await post(teacher, "/api/submissions", { formId: form.id, studentId: respondent.id });
    expect((await api("POST", `/api/test-link/${completed.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
    const late = await api("POST", `/api/submissions/${completed.id}/revoke`, teacher);
    expect(late.status).toBe(409);
    expect(await eventsOf(late)).toEqual([]);
  });
});

const postgres = providerOf(inject("databaseUrl")) === "postgresql";

describe("append-only", () => {
  // SQLite has no trigger for it (ADR 87): there the log is append-only because no code changes or
  // deletes an event, which the second test checks for every event this file's requests recorded.
  if (postgres) {
    it("given PostgreSQL, should refuse UPDATE and DELETE of an event, whoever sends them", async () => {
      const [event] = await eventsOf(await api("GET", `/api/reports/${flaggedId}`, teacher));
      await expect(testDatabase().$executeRawUnsafe(`UPDATE "AuditEvent" SET "action" = 'nothing' WHERE "id" = $1`, event!.id)).rejects.toThrow(/append-only/);
      await expect(testDatabase().$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE "id" = $1`, event!.id)).rejects.toThrow(/append-only/);
    });
  } else {
    it("given SQLite, should have no trigger on the table: the log is append-only by the code alone", async () => {
      const triggers = await testDatabase().$queryRawUnsafe<{ name: string }[]>(
        `SELECT "name" FROM sqlite_master WHERE "type" = 'trigger' AND "tbl_name" = 'AuditEvent'`,
      );
      expect(triggers).toEqual([]);
    });
  }

  it("given every event this file's requests recorded, should still hold each one as it was recorded", async () => {
    expect(recorded.length).toBeGreaterThan(cases.length);
    const stored = await testDatabase().auditEvent.findMany({ where: { id: { in: recorded.map((event) => event.id) } } });
    const byId = new Map(stored.map((event) => [event.id, event]));
    for (const event of recorded) expect(byId.get(event.id)).toEqual(event);
  });
});
