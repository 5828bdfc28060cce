import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ApiResponse, api, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { mailTo, waitForMail } from "../support/mail.ts";
import { startInstance, type Instance } from "../support/instance.ts";

/**
 * The e-mail quotas (docs/api-contract.md §23, ADR 45) on an instance of their own with small limits (3 an hour
 * per user, 5 a day per organization), for an organization made for this file, so that the e-mail
 * the other files send does not count here. A call that would pass a limit answers 429 MAIL_QUOTA
 * with Retry-After and leaves nothing behind; the page shows what is left and the refusal in its
 * language; a password reset still goes out.
 */
type Session = { cookie: string; csrfCookie: string; csrfToken: string };
type Answer = Omit<ApiResponse, "text">;

let instance: Instance;
let organizationId: string;

beforeAll(async () => {
  instance = await startInstance({
    env: { MAIL_QUOTA_USER_PER_HOUR: "3", MAIL_QUOTA_ORGANIZATION_PER_DAY: "5", SMTP_URL: inject("smtpUrl"), JOB_POLL_MS: "100" },
  });
  organizationId = (await testDatabase().organization.create({ data: { name: `Quota School ${unique("q")}` } })).id;
}, 120_000);

afterAll(async () => {
  await instance?.stop();
});

/** A teacher of the file's organization (made by the super administrator), signed in on the instance. */
async function teacher(): Promise<Session & { email: string }> {
  const email = `${unique("quota").toLowerCase()}@fixtures.test`;
  const password = `pw-${unique("secret")}`;
  const created = await api("POST", "/api/users", {
    as: "superadmin@demo.test",
    json: { email, name: `Quota teacher ${unique("n")}`, role: "TEACHER", password, organizationId },
  });
  expect(created.status, created.text).toBe(201);
  const csrf = await fetch(`${instance.baseUrl}/api/auth/csrf`);
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signedIn = await fetch(`${instance.baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie },
    body: JSON.stringify({ email, password, csrfToken }),
  });
  expect(signedIn.status).toBe(200);
  return { email, cookie: signedIn.headers.getSetCookie()[0]!.split(";")[0]!, csrfCookie, csrfToken };
}

async function call(session: Session, method: string, path: string, json?: unknown): Promise<Answer> {
  const response = await fetch(`${instance.baseUrl}${path}`, {
    method,
    headers: {
      cookie: `${session.cookie}; ${session.csrfCookie}`,
      "x-csrf-token": session.csrfToken,
      ...(json === undefined ? {} : { "content-type": "application/json" }),
    },
    body: json === undefined ? null : JSON.stringify(json),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text && (response.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text,
  };
}

async function pupils(session: Session, count: number) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const email = `${unique("q").toLowerCase()}@pupils.test`;
      const created = await call(session, "POST", "/api/students", { name: unique("Pupil"), email });
      expect(created.status).toBe(201);
      return { id: created.body.id as string, email };
    }),
  );
}

async function publishedForm(session: Session) {
  const form = await call(session, "POST", "/api/forms", mixedForm());
  expect(form.status).toBe(201);
  return form.body as { id: string; title: string };
}

function expectMailQuota(answer: Answer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ status: 429, code: "MAIL_QUOTA", detail: expect.stringContaining("Nothing was assigned or queued") });
  const retryAfter = Number(answer.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  return retryAfter;
}

const linksOfForm = (formId: string) => testDatabase().submission.count({ where: { formId } });
const jobsOfForm = async (formId: string) => {
  const ids = (await testDatabase().submission.findMany({ where: { formId }, select: { id: true } })).map((row) => row.id);
  return testDatabase().job.count({ where: { submissionId: { in: ids } } });
};

describe("e-mail quotas", () => {
  it("given a bulk send past the user's hourly quota, should answer 429 MAIL_QUOTA and create and queue nothing; within it, send; then refuse more", async () => {
    const ana = await teacher();
    const form = await publishedForm(ana);
    const four = await pupils(ana, 4);

    const tooMany = await call(ana, "POST", "/api/submissions/bulk", { formId: form.id, studentIds: four.map((p) => p.id), send: true });
    expect(expectMailQuota(tooMany)).toBeLessThanOrEqual(3600);
    expect(await linksOfForm(form.id)).toBe(0);

    // A link and its reminder count as two: three links with reminders pass the limit of three.
    const withReminders = await call(ana, "POST", "/api/submissions/bulk", {
      formId: form.id,
      studentIds: four.slice(0, 3).map((p) => p.id),
      send: true,
      remindAfterDays: 2,
    });
    expectMailQuota(withReminders);
    expect(await linksOfForm(form.id)).toBe(0);

    const three = await call(ana, "POST", "/api/submissions/bulk", { formId: form.id, studentIds: four.slice(0, 3).map((p) => p.id), send: true });
    expect(three.status).toBe(201);
    for (const pupil of four.slice(0, 3)) await waitForMail(pupil.email);
    expect(await mailTo(four[3]!.email)).toEqual([]);

    // The hour's three are used: one more link by e-mail is refused, and nothing is left behind.
    const single = await call(ana, "POST", "/api/submissions/bulk", { formId: form.id, studentIds: [four[3]!.id], send: true });
    expectMailQuota(single);
    expect(await linksOfForm(form.id)).toBe(3);
    expect(await jobsOfForm(form.id)).toBe(3);
    // Without e-mail the assignment is not limited.
    expect((await call(ana, "POST", "/api/submissions/bulk", { formId: form.id, studentIds: [four[3]!.id] })).status).toBe(201);
    const lastLink = (await testDatabase().submission.findFirstOrThrow({ where: { formId: form.id, studentId: four[3]!.id } })).id;
    expectMailQuota(await call(ana, "POST", `/api/submissions/${lastLink}/send`));
    expectMailQuota(await call(ana, "POST", "/api/submissions/remind", { formId: form.id }));
    expect(await jobsOfForm(form.id)).toBe(3);

    // The assignment page's "E-mail the link" button says why, in the page's language.
    const sendPage = await fetch(`${instance.baseUrl}/es/assignments/${lastLink}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${ana.cookie}; ${ana.csrfCookie}`, origin: instance.baseUrl },
      body: new URLSearchParams({ csrfToken: ana.csrfToken, intent: "send" }),
      redirect: "manual",
    });
    expect([302, 303]).toContain(sendPage.status);
    const flash = sendPage.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    const shown = await fetch(new URL(sendPage.headers.get("location")!, instance.baseUrl), { headers: { cookie: `${ana.cookie}; ${flash}` } });
    expect(await shown.text()).toContain("Esto superaría tu límite de correos o el de tu organización, así que no se ha enviado nada: inténtalo más tarde.");
    expect(await jobsOfForm(form.id)).toBe(3);

    // Sign-in codes, reset links and invitations are not the teacher's to use up.
    const reset = await fetch(`${instance.baseUrl}/api/auth/forgot-password`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: ana.csrfCookie,
        "x-csrf-token": ana.csrfToken,
        "x-forwarded-for": `10.77.${Math.floor(Math.random() * 250)}.9`,
      },
      body: JSON.stringify({ email: ana.email }),
    });
    expect(reset.status).toBe(200);
    expect((await waitForMail(ana.email)).text).toContain("/reset-password");
  });

  it("given a colleague past the organization's daily quota, should refuse on the page in its language, and say how many e-mails are left", async () => {
    // The first test used three of the organization's five; a colleague has their own hour's three.
    const bea = await teacher();
    const form = await publishedForm(bea);
    const three = await pupils(bea, 3);
    const group = await call(bea, "POST", "/api/groups", { name: `Quota class ${unique("g")}` });
    expect((await call(bea, "POST", `/api/groups/${group.body.id}/members`, { studentIds: three.map((p) => p.id) })).status).toBeLessThan(300);

    const page = await (await fetch(`${instance.baseUrl}/es/assignments/new`, { headers: { cookie: bea.cookie } })).text();
    expect(page.replace(/<[^>]+>/g, "")).toContain("Correos que quedan: 3 para ti en esta hora y 2 para tu organización hoy.");

    const refused = await fetch(`${instance.baseUrl}/pt-BR/assignments/new`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${bea.cookie}; ${bea.csrfCookie}`, origin: instance.baseUrl },
      body: new URLSearchParams({ csrfToken: bea.csrfToken, formId: form.id, respondent: `group:${group.body.id}`, send: "on" }),
      redirect: "manual",
    });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(
      /Isso passaria do seu limite de e-mails ou do da sua organização, então nada foi feito\. Tente novamente em \d+ minutos/,
    );
    expect(await linksOfForm(form.id)).toBe(0);

    const two = await call(bea, "POST", "/api/submissions/bulk", { formId: form.id, studentIds: three.slice(0, 2).map((p) => p.id), send: true });
    expect(two.status).toBe(201);
    const after = await (await fetch(`${instance.baseUrl}/en/assignments/new`, { headers: { cookie: bea.cookie } })).text();
    expect(after.replace(/<[^>]+>/g, "")).toContain("E-mails left: 1 for you this hour, 0 for your organization today.");

    // Remind now past the quota, from the group's page: nothing queued, the card says why. (The
    // third member's link, given without e-mail, is the one due a reminder.)
    expect((await call(bea, "POST", "/api/submissions/bulk", { formId: form.id, studentIds: [three[2]!.id] })).status).toBe(201);
    const remind = await fetch(`${instance.baseUrl}/es/groups/${group.body.id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${bea.cookie}; ${bea.csrfCookie}`, origin: instance.baseUrl },
      body: new URLSearchParams({ csrfToken: bea.csrfToken, intent: "remind", formId: form.id, groupId: group.body.id }),
      redirect: "manual",
    });
    expect(await remind.text()).toMatch(/Esto superaría tu límite de correos o el de tu organización, así que no se ha hecho nada\./);
    expect(await jobsOfForm(form.id)).toBe(2);
  });

  it("given two bulk sends at once that each fit but not together, should let one through and refuse the other", async () => {
    // A new organization, so its five a day are all left; two teachers, three e-mails each.
    organizationId = (await testDatabase().organization.create({ data: { name: `Quota School ${unique("q")}` } })).id;
    const [cy, di] = await Promise.all([teacher(), teacher()]);
    const [cyForm, diForm] = await Promise.all([publishedForm(cy), publishedForm(di)]);
    const [cyPupils, diPupils] = await Promise.all([pupils(cy, 3), pupils(di, 3)]);
    const answers = await Promise.all([
      call(cy, "POST", "/api/submissions/bulk", { formId: cyForm.id, studentIds: cyPupils.map((p) => p.id), send: true }),
      call(di, "POST", "/api/submissions/bulk", { formId: diForm.id, studentIds: diPupils.map((p) => p.id), send: true }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 429]);
    expect(answers.find((answer) => answer.status === 429)!.body.code).toBe("MAIL_QUOTA");
    expect((await linksOfForm(cyForm.id)) + (await linksOfForm(diForm.id))).toBe(3);
  });

  it("given one person assigned from the page with the link and a reminder, should write the link and both e-mails together, and past the quota none of them", async () => {
    // A new organization again, so its five a day are all left; the teacher's hour has three.
    organizationId = (await testDatabase().organization.create({ data: { name: `Quota School ${unique("q")}` } })).id;
    const eve = await teacher();
    const form = await publishedForm(eve);
    const [first, second] = await pupils(eve, 2);
    const assignOnPage = (pupilId: string) =>
      fetch(`${instance.baseUrl}/en/assignments/new`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${eve.cookie}; ${eve.csrfCookie}`, origin: instance.baseUrl },
        body: new URLSearchParams({ csrfToken: eve.csrfToken, formId: form.id, respondent: `student:${pupilId}`, send: "on", remindAfterDays: "3" }),
        redirect: "manual",
      });

    const within = await assignOnPage(first!.id);
    expect(within.status).toBe(302);
    expect(await linksOfForm(form.id)).toBe(1);
    // The link's e-mail and its reminder, queued in the transaction that wrote the link.
    expect(await jobsOfForm(form.id)).toBe(2);

    // Two more would pass the hour's three: the page says so, and neither the link nor an e-mail is kept.
    const past = await assignOnPage(second!.id);
    expect(past.status).toBe(429);
    expect(await past.text()).toMatch(/so nothing was done/);
    expect(await linksOfForm(form.id)).toBe(1);
    expect(await jobsOfForm(form.id)).toBe(2);
  });
});
