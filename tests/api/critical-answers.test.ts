import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFormat } from "../../app/i18n/format.ts";
import { api, baseUrl, freshIp, signIn, unique, withCsrf } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, type CreatedUser, errorPaths, expectProblem } from "../support/fixtures.ts";
import { mailTo, waitForMail } from "../support/mail.ts";
import { checkWebhookBody } from "../support/response-contract.ts";
import { waitFor } from "../support/wait.ts";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";

/**
 * Critical answers (docs/api-contract.md §16, ADR 71) over real HTTP: a PHQ-9-like form whose
 * item 9 flags the result for any answer above "Not at all", answered through the respondent's
 * page without JavaScript and through the API; the confirmation page's critical message; one
 * e-mail to the assigner in their language and one signed `submission.flagged` delivery per
 * flagged result; the acknowledgement and its refusals; the reports' `flagged` filter; the home
 * page's "Needs attention"; and the marks on the report, the group's results and the person's
 * history. The file makes its own organizations, so other files' results never meet these.
 */
type Organization = { id: string; admin: string };
type Form = { id: string; title: string; questions: { id: string; key: string; text: string; options: { id: string; text: string; score: number }[] }[] };

const FREQUENCY = ["Not at all", "Several days", "More than half the days", "Nearly every day"];
const ITEMS = [
  "Little interest in doing things",
  "Feeling down or hopeless",
  "Trouble sleeping",
  "Feeling tired",
  "Poor appetite",
  "Feeling bad about yourself",
  "Trouble concentrating",
  "Moving or speaking slowly",
  "Thoughts that you would be better off dead",
];
const CRISIS = "If you are thinking about harming yourself, call 024 now: someone answers day and night.";

/** Nine items scored 0–3, none required; item 9's three options above "Not at all" are critical. */
function moodForm(title: string) {
  return {
    title,
    isPublished: true,
    isTemplate: true,
    criticalMessage: CRISIS,
    scoreRanges: [
      { min: 0, max: 4, label: "Minimal", color: "#1A7F37" },
      { min: 5, max: 9, label: "Mild", color: "#B54708" },
      { min: 10, max: 27, label: "Moderate or more", color: "#B42318" },
    ],
    questions: ITEMS.map((text, item) => ({
      key: `phq${item + 1}`,
      text,
      type: "SINGLE_CHOICE",
      options: FREQUENCY.map((option, score) => ({ text: option, score, ...(item === 8 && score > 0 ? { critical: true } : {}) })),
    })),
  };
}

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let clinic: Organization;
let elsewhere: Organization;
let teacher: CreatedUser;
let colleague: CreatedUser;
let form: Form;
let hook: { id: string; secret: string };

async function newOrganization(label: string): Promise<Organization> {
  const organization = await testDatabase().organization.create({ data: { name: unique(label) } });
  const admin = await createSignedInUser("ADMIN", { as: "superadmin@demo.test", organizationId: organization.id });
  return { id: organization.id, admin: admin.cookie };
}

/** A teacher of `organization` whose e-mails are written in `locale`. */
async function teacherOf(organization: Organization, locale: string): Promise<CreatedUser> {
  const email = `${unique("assigner")}@clinic.test`;
  const password = `pw-${unique("secret")}`;
  const name = `Assigner ${unique("n")}`;
  const created = await api("POST", "/api/users", { cookie: organization.admin, json: { email, name, role: "TEACHER", password, locale } });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.id, email, password, cookie: await signIn(email, password), profile: created.body };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  [clinic, elsewhere] = await Promise.all([newOrganization("Critical Clinic"), newOrganization("Critical Elsewhere")]);
  [teacher, colleague] = await Promise.all([teacherOf(clinic, "en"), teacherOf(clinic, "es")]);
  const created = await api("POST", "/api/forms", { cookie: clinic.admin, json: moodForm(unique("Mood check")) });
  expect(created.status, created.text).toBe(201);
  form = created.body;
  const webhook = await api("POST", "/api/webhooks", {
    cookie: clinic.admin,
    json: { url: receiver.url, events: ["submission.completed", "submission.flagged"], formIds: [form.id] },
  });
  expect(webhook.status, webhook.text).toBe(201);
  hook = webhook.body;
});

afterAll(() => receiver.close());

type Link = { id: string; token: string; studentId: string; respondent: string };

/** A link of the form assigned by `by` to a new student. */
async function linkFor(by: CreatedUser = teacher): Promise<Link> {
  const respondent = unique("Respondent");
  const student = await api("POST", "/api/students", { cookie: by.cookie, json: { name: respondent } });
  expect(student.status, student.text).toBe(201);
  const link = await api("POST", "/api/submissions", { cookie: by.cookie, json: { formId: form.id, studentId: student.body.id } });
  expect(link.status, link.text).toBe(201);
  return { id: link.body.id, token: link.body.token, studentId: student.body.id, respondent };
}

const option = (item: number, score: number) => {
  const question = form.questions[item - 1]!;
  return { question, option: question.options.find((candidate) => candidate.score === score)! };
};

/** Submits `scores` (item number → score) through the API. */
async function submit(link: Link, scores: Record<number, number>) {
  const answers = Object.entries(scores).map(([item, score]) => {
    const chosen = option(Number(item), score);
    return { questionId: chosen.question.id, optionIds: [chosen.option.id] };
  });
  const submitted = await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers }, headers: { "x-forwarded-for": freshIp() } });
  expect(submitted.status, submitted.text).toBe(200);
  return submitted.body as { completedAt: string; criticalMessage: string | null };
}

/** The respondent's page, as a browser without JavaScript asks for it. */
const page = (link: Link) => fetch(`${baseUrl()}/en/test/${link.token}`, { headers: { "x-forwarded-for": freshIp() } });

/** A signed-in page as a browser asks for it. */
async function html(path: string, cookie: string) {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie } });
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The deliveries the receiver has about submission `id`, by type. */
const deliveriesAbout = (id: string) =>
  receiver.received
    .filter((delivery) => (JSON.parse(delivery.body) as { data: { id?: string } }).data.id === id)
    .map((delivery) => ({
      ...delivery,
      type: (JSON.parse(delivery.body) as { type: string }).type,
    }));

/** The flag e-mail jobs of submission `id`, once every one of them is done. */
const doneAlertJobs = (id: string) =>
  waitFor(
    () => testDatabase().job.findMany({ where: { kind: "flagAlert", submissionId: id } }),
    (jobs) => jobs.length > 0 && jobs.every((job) => job.doneAt !== null),
    `the flag e-mail of ${id}`,
  );

describe("a flagged completion", () => {
  let flagged: Link;

  beforeAll(async () => {
    // Only item 9, "Nearly every day": a total of 3 (Minimal), flagged by its option. Through the
    // page, as a browser without JavaScript sends it.
    flagged = await linkFor();
    const { question, option: chosen } = option(9, 3);
    const posted = await fetch(`${baseUrl()}/en/test/${flagged.token}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": freshIp() },
      body: new URLSearchParams([[`q_${question.id}`, chosen.id]]),
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(`/en/test/${flagged.token}`);
  });

  it("given only item 9 answered 'Nearly every day' without JavaScript, should show the form's critical message on the confirmation page", async () => {
    const response = await page(flagged);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain("Thank you");
    expect(body).toContain('data-testid="critical-message"');
    expect(body).toContain(CRISIS);
    // Nothing else tells the respondent: not the answer that raised the flag, nor the score's band.
    for (const told of ["Nearly every day", "Minimal", "phq9"]) expect(body).not.toContain(told);

    const report = await api("GET", `/api/reports/${flagged.id}`, { cookie: teacher.cookie });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      totalScore: 3,
      scoreLabel: "Minimal",
      flags: [{ kind: "OPTION", questionKey: "phq9", text: "Thoughts that you would be better off dead — Nearly every day" }],
      flaggedAt: report.body.completedAt,
      acknowledgedAt: null,
      acknowledgedBy: null,
      acknowledgementNote: null,
    });
  });

  it("given the message captured at completion, should keep showing it after the form's message changes, and the submit's answer should carry it", async () => {
    const viaApi = await linkFor();
    expect((await submit(viaApi, { 9: 1 })).criticalMessage).toBe(CRISIS);
    const changed = await api("PUT", `/api/forms/${form.id}`, { cookie: clinic.admin, json: { criticalMessage: "Another message." } });
    expect(changed.status, changed.text).toBe(200);
    try {
      expect(await (await page(viaApi)).text()).toContain(CRISIS);
    } finally {
      const restored = await api("PUT", `/api/forms/${form.id}`, { cookie: clinic.admin, json: { criticalMessage: CRISIS } });
      expect(restored.status, restored.text).toBe(200);
    }
  });

  it("given a completion without a critical answer, should show no message and fire no submission.flagged", async () => {
    const calm = await linkFor();
    const submitted = await submit(calm, { 1: 3, 2: 3, 9: 0 });
    expect(submitted.criticalMessage).toBeNull();
    const body = await (await page(calm)).text();
    expect(body).toContain("Thank you");
    expect(body).not.toContain(CRISIS);
    expect(await testDatabase().webhookDelivery.count({ where: { webhookId: hook.id, event: "submission.flagged", payload: { contains: calm.id } } })).toBe(0);
    expect(await testDatabase().job.count({ where: { kind: "flagAlert", submissionId: calm.id } })).toBe(0);
  });

  it("given the flag, should e-mail the assigner exactly once, naming the form, the respondent and the time, never the answers", async () => {
    const mail = await waitForMail(teacher.email);
    const report = await api("GET", `/api/reports/${flagged.id}`, { cookie: teacher.cookie });
    const about = async () => (await mailTo(teacher.email)).filter((received) => received.text.includes(flagged.respondent));
    const [first] = await waitFor(about, (mails) => mails.length > 0, "the flag e-mail");
    expect(mail.to).toEqual([teacher.email]);
    expect(first!.subject).toBe(`A result needs your attention: ${form.title}`);
    expect(first!.text).toContain(`Hello ${teacher.profile.name},`);
    expect(first!.text).toContain(`${flagged.respondent} completed “${form.title}” on ${createFormat("en", "UTC").dateTime(new Date(report.body.flaggedAt))}`);
    expect(first!.text).toContain(`/en/reports/${flagged.id}`);
    for (const answer of [...FREQUENCY, ITEMS[8]!, "phq9"]) expect(first!.text).not.toContain(answer);
    // One job, run once, and one message.
    const jobs = await doneAlertJobs(flagged.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ attempts: 1, failedAt: null, payload: { submissionId: flagged.id, userId: teacher.id } });
    expect(await about()).toHaveLength(1);
  });

  it("given an assigner who reads Spanish, should write their e-mail in Spanish", async () => {
    const theirs = await linkFor(colleague);
    await submit(theirs, { 9: 2 });
    await doneAlertJobs(theirs.id);
    const [mail] = (await mailTo(colleague.email)).filter((received) => received.text.includes(theirs.respondent));
    expect(mail!.subject).toBe(`Un resultado requiere tu atención: ${form.title}`);
    expect(mail!.text).toContain(`Hola, ${colleague.profile.name}:`);
    expect(mail!.text).toContain(`/es/reports/${theirs.id}`);
  });

  it("given a webhook for both events, should deliver one submission.flagged beside submission.completed, signed as Standard Webhooks has it", async () => {
    const deliveries = await waitFor(
      () => deliveriesAbout(flagged.id),
      (found) => found.length >= 2,
      "both deliveries",
      { timeoutMs: 20_000 },
    );
    expect(deliveries.map((delivery) => delivery.type).sort()).toEqual(["submission.completed", "submission.flagged"]);
    const delivery = deliveries.find((candidate) => candidate.type === "submission.flagged")!;
    const body = new Webhook(hook.secret).verify(delivery.body, delivery.headers as Record<string, string>) as { data: Record<string, unknown> };
    expect(body.data).toMatchObject({
      id: flagged.id,
      formId: form.id,
      totalScore: 3,
      flags: [expect.objectContaining({ kind: "OPTION", questionKey: "phq9" })],
      flaggedAt: expect.any(String),
      acknowledgedAt: null,
      acknowledgedBy: null,
      acknowledgementNote: null,
      respondent: { kind: "student", id: flagged.studentId },
    });
    await checkWebhookBody(delivery.body);
    expect(await testDatabase().webhookDelivery.count({ where: { webhookId: hook.id, event: "submission.flagged", payload: { contains: flagged.id } } })).toBe(
      1,
    );
  });
});

describe("acknowledging a flagged result", () => {
  let first: Link;
  let second: Link;
  let calm: Link;

  beforeAll(async () => {
    [first, second, calm] = await Promise.all([linkFor(), linkFor(), linkFor()]);
    await Promise.all([submit(first, { 9: 1 }), submit(second, { 1: 3, 9: 3 }), submit(calm, { 1: 1 })]);
  });

  const acknowledge = (id: string, json: unknown, cookie = teacher.cookie) => api("POST", `/api/submissions/${id}/acknowledge`, { cookie, json });

  it("given a note over 2,000 characters, another organization, a result without a flag or a pending link, should refuse it", async () => {
    const long = await acknowledge(first.id, { note: "x".repeat(2001) });
    expectProblem(long, 400);
    expect(errorPaths(long)).toEqual(["note"]);
    expectProblem(await acknowledge(first.id, {}, elsewhere.admin), 404);
    const notFlagged = await acknowledge(calm.id, {});
    expectProblem(notFlagged, 409, "NOT_FLAGGED");
    expect(notFlagged.body.type).toBe("urn:assessment-service:problem:not-flagged");
    const pending = await linkFor();
    expectProblem(await acknowledge(pending.id, {}), 409, "NOT_COMPLETED");
    // Nothing was recorded.
    expect((await api("GET", `/api/reports/${first.id}`, { cookie: teacher.cookie })).body.acknowledgedAt).toBeNull();
  });

  it("given the assigner, should record who, when and the note once; a second acknowledgement is 409 and changes nothing", async () => {
    const note = "Spoke with her and her parents; follow-up booked for Monday.";
    const done = await acknowledge(first.id, { note: `  ${note}  ` });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({
      submissionId: first.id,
      acknowledgedAt: expect.any(String),
      acknowledgedBy: { id: teacher.id, name: teacher.profile.name },
      acknowledgementNote: note,
    });
    const again = await acknowledge(first.id, { note: "Again." }, clinic.admin);
    expectProblem(again, 409, "ALREADY_ACKNOWLEDGED");
    expect(again.body.type).toBe("urn:assessment-service:problem:already-acknowledged");
    const detail = await api("GET", `/api/reports/${first.id}`, { cookie: clinic.admin });
    expect(detail.body).toMatchObject({ acknowledgedAt: done.body.acknowledgedAt, acknowledgedBy: done.body.acknowledgedBy, acknowledgementNote: note });
    const listed = await api("GET", `/api/reports?formId=${form.id}&limit=100`, { cookie: teacher.cookie });
    expect(listed.body.reports.find((report: { id: string }) => report.id === first.id)).toMatchObject({
      acknowledgedAt: done.body.acknowledgedAt,
      acknowledgedBy: { id: teacher.id },
      acknowledgementNote: note,
      updatedAt: done.body.acknowledgedAt,
    });
  });

  it("given flagged=true and flagged=unacknowledged, should list the flagged results and those not acknowledged yet, with their totals", async () => {
    const ids = async (flagged: string) => {
      const listed = await api("GET", `/api/reports?formId=${form.id}&flagged=${flagged}&limit=100`, { cookie: clinic.admin });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.total).toBe(listed.body.reports.length);
      return (listed.body.reports as { id: string; flaggedAt: string | null; acknowledgedAt: string | null }[]).map((report) => {
        expect(report.flaggedAt).not.toBeNull();
        if (flagged === "unacknowledged") expect(report.acknowledgedAt).toBeNull();
        return report.id;
      });
    };
    const all = await ids("true");
    expect(all).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(all).not.toContain(calm.id);
    const waiting = await ids("unacknowledged");
    expect(waiting).toContain(second.id);
    expect(waiting).not.toContain(first.id);
    expect(waiting.length).toBe(all.length - (await testDatabase().submission.count({ where: { formId: form.id, acknowledgedAt: { not: null } } })));
    expectProblem(await api("GET", "/api/reports?flagged=yes", { cookie: clinic.admin }), 400);
    // The export takes the same filter.
    const csv = await api("GET", `/api/reports/export?format=csv&formId=${form.id}&flagged=unacknowledged`, { cookie: clinic.admin });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.text).toContain(second.id);
    expect(csv.text).not.toContain(first.id);
  });

  it("given the home page, should list the flagged results not acknowledged first under Needs attention, until acknowledged on the report page without JavaScript", async () => {
    /** The home page's "Needs attention" section, first on the page; empty when it has none. */
    const attentionOf = (home: string) => {
      const start = home.indexOf('id="needs-attention"');
      if (start === -1) return "";
      expect(start).toBeLessThan(home.indexOf('id="at-a-glance-title"'));
      return home.slice(start, home.indexOf("</section>", start));
    };
    const attention = attentionOf(await html("/en/home", teacher.cookie));
    expect(attention).toContain("Needs attention");
    expect(attention).toContain(`href="/en/reports/${second.id}"`);
    expect(attention).not.toContain(`href="/en/reports/${first.id}"`);

    // The report page: the mark, what raised the flag, and the form.
    const report = await html(`/en/reports/${second.id}`, teacher.cookie);
    expect(report).toContain("Needs attention");
    expect(report).toContain("Flagged");
    expect(report).toContain("Thoughts that you would be better off dead — Nearly every day");
    expect(report).toContain('name="note"');
    const { cookie, "x-csrf-token": token } = withCsrf(teacher.cookie);
    const post = (note: string) =>
      fetch(`${baseUrl()}/en/reports/${second.id}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie!, origin: baseUrl() },
        body: new URLSearchParams({ note, csrfToken: token! }),
      });
    const tooLong = await post("y".repeat(2001));
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("Use at most 2,000 characters.");
    const posted = await post("Seen at the clinic.");
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(`/en/reports/${second.id}`);
    const after = await html(`/en/reports/${second.id}`, teacher.cookie);
    expect(after).toContain("Flagged, acknowledged");
    expect(after).toContain(`Acknowledged by ${teacher.profile.name}`);
    expect(after).toContain("Seen at the clinic.");
    expect(after).not.toContain('name="note"');

    expect(attentionOf(await html("/en/home", teacher.cookie))).not.toContain(`href="/en/reports/${second.id}"`);
  });
});

describe("the marks of a flagged result", () => {
  it("given the group's results and the person's history, should mark a flagged result in words, and say when it is acknowledged", async () => {
    const link = await linkFor();
    await submit(link, { 9: 2 });
    const group = await api("POST", "/api/groups", { cookie: clinic.admin, json: { name: unique("Critical group") } });
    expect(group.status, group.text).toBe(201);
    expect((await api("POST", `/api/groups/${group.body.id}/members`, { cookie: clinic.admin, json: { studentIds: [link.studentId] } })).status).toBe(200);

    const grade = (text: string) => text.slice(text.indexOf("<table"), text.indexOf("</table>"));
    expect(grade(await html(`/en/groups/${group.body.id}`, clinic.admin))).toContain(">Flagged<");
    const history = await html(`/en/students/${link.studentId}`, teacher.cookie);
    expect(history).toContain(">Flagged<");

    expect((await api("POST", `/api/submissions/${link.id}/acknowledge`, { cookie: clinic.admin, json: {} })).status).toBe(200);
    expect(grade(await html(`/en/groups/${group.body.id}`, clinic.admin))).toContain("Flagged, acknowledged");
    expect(await html(`/en/students/${link.studentId}`, teacher.cookie)).toContain("Flagged, acknowledged");
    expect(await html(`/es/students/${link.studentId}`, teacher.cookie)).toContain("Marcado, revisado");
  });
});

describe("a flagged completion of a link given to a group", () => {
  it("given a colleague among the group's staff, should e-mail the assigner and the colleague once each, and nobody else", async () => {
    const respondent = unique("Group respondent");
    const student = await api("POST", "/api/students", { cookie: teacher.cookie, json: { name: respondent } });
    expect(student.status, student.text).toBe(201);
    const group = await api("POST", "/api/groups", { cookie: teacher.cookie, json: { name: unique("Shared caseload") } });
    expect(group.status, group.text).toBe(201);
    expect((await api("POST", `/api/groups/${group.body.id}/members`, { cookie: teacher.cookie, json: { studentIds: [student.body.id] } })).status).toBe(200);
    const staff = await api("PUT", `/api/groups/${group.body.id}/staff`, {
      cookie: teacher.cookie,
      json: {
        staff: [
          { userId: teacher.id, role: "OWNER" },
          { userId: colleague.id, role: "VIEWER" },
        ],
      },
    });
    expect(staff.status, staff.text).toBe(200);
    const bulk = await api("POST", "/api/submissions/bulk", { cookie: teacher.cookie, json: { formId: form.id, groupId: group.body.id } });
    expect(bulk.status, bulk.text).toBe(201);
    const [link] = bulk.body.created as { id: string; token: string }[];
    await submit({ id: link!.id, token: link!.token, studentId: student.body.id, respondent }, { 9: 1 });

    const jobs = await doneAlertJobs(link!.id);
    expect(jobs.map((job) => (job.payload as { userId: string }).userId).sort()).toEqual([teacher.id, colleague.id].sort());
    const about = async (email: string) => (await mailTo(email)).filter((received) => received.text.includes(respondent));
    expect(await about(teacher.email)).toHaveLength(1);
    // The colleague reads Spanish: their copy is in their language, and they may open the report.
    const [theirs, ...more] = await about(colleague.email);
    expect(more).toHaveLength(0);
    expect(theirs!.text).toContain(`/es/reports/${link!.id}`);
    expect((await api("GET", `/api/reports/${link!.id}`, { cookie: colleague.cookie })).status).toBe(200);
  });
});
