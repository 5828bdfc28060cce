import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes.ts";
import { LOCALES, type Locale } from "../../app/lib/i18n.ts";
import { type ApiResponse, api, baseUrl, freshIp, sessionOf, signIn, unique, withCsrf } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { mailTo, type ReceivedMail, waitForMail } from "../support/mail.ts";
import { readableText, schoolWordsIn } from "../support/school-words.ts";

/**
 * A clinic says patients, never pupils (docs/api-contract.md §18, ADR 81), over real HTTP: an
 * organization made a clinic on its settings page, with patients, a candidate, a group, a form, a
 * schedule, links and completed results, whose every staff page (each page route of
 * app/routes.ts under the signed-in layout), its patient's own pages, the respondent's test page,
 * the report PDF and every e-mail it sends are read in English, Spanish and Portuguese for the
 * words a school says. The names and texts the test writes itself say none of them.
 */
type Clinician = { id: string; email: string; cookie: string; locale: Locale };
type Link = { id: string; token: string };

let clinic: { id: string; admin: string };
const ids: Record<string, string> = {};
const clinicians = {} as Record<Locale, Clinician>;
const completed = {} as Record<Locale, Link>;
const pending = {} as Record<Locale, Link>;
const inbox = {} as Record<Locale, { link: string; reminder: string; invitation: string }>;
let patientLogin: string;
const scratch = mkdtempSync(path.join(tmpdir(), "clinic-words-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FREQUENCY = ["Not at all", "Some days", "Most days", "Every day"];

/** A short questionnaire whose last item flags the result when answered above "Not at all". */
const moodForm = () => ({
  title: unique("Mood and sleep"),
  description: "Five questions about the last two weeks.",
  isPublished: true,
  // A template: every clinician of the organization may assign it.
  isTemplate: true,
  criticalMessage: "If you feel unsafe, call 024 now.",
  // The answered page shows the review below its message: its words are read too.
  review: "AFTER_SUBMIT",
  scoreRanges: [
    { min: 0, max: 4, label: "Mild", color: "#1A7F37" },
    { min: 5, max: 15, label: "Moderate or more", color: "#B42318" },
  ],
  questions: ["Trouble sleeping", "Feeling tired", "Poor appetite", "Feeling down", "Thoughts of harming yourself"].map((text, item) => ({
    key: `mood${item + 1}`,
    text,
    type: "SINGLE_CHOICE",
    options: FREQUENCY.map((option, score) => ({ text: option, score, ...(item === 4 && score > 0 ? { critical: true } : {}) })),
  })),
});

/** A page form posted as a browser without JavaScript posts it, with the session's CSRF token. */
function postPage(session: string, pathname: string, fields: Record<string, string>) {
  const { cookie, "x-csrf-token": csrfToken } = withCsrf(session);
  return fetch(`${baseUrl()}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie!, origin: baseUrl() },
    body: new URLSearchParams({ ...fields, csrfToken: csrfToken! }),
  });
}

async function created(response: Promise<ApiResponse>, status = 201) {
  const answer = await response;
  expect(answer.status, answer.text).toBe(status);
  return answer.body;
}

/** A user of the clinic with a password, signed in. */
async function userOf(role: "TEACHER" | "STUDENT", locale: Locale, name: string) {
  const email = `${unique(role === "STUDENT" ? "patient" : "clinician")}@harbour.test`;
  const password = `pw-${unique("secret")}`;
  const user = await created(api("POST", "/api/users", { cookie: clinic.admin, json: { email, name, role, password, locale } }));
  return { id: user.id as string, email, cookie: await signIn(email, password), locale };
}

beforeAll(async () => {
  // The organization's own administrator, named as the clinic would name them (the shared
  // fixtures name their users after their role).
  const organization = await testDatabase().organization.create({ data: { name: unique("Harbour Health") } });
  const adminEmail = `${unique("admin")}@harbour.test`;
  const adminPassword = `pw-${unique("secret")}`;
  await created(
    api("POST", "/api/users", {
      as: "superadmin@demo.test",
      json: { email: adminEmail, name: "Inês Faria", role: "ADMIN", password: adminPassword, organizationId: organization.id },
    }),
  );
  clinic = { id: organization.id, admin: await signIn(adminEmail, adminPassword) };
  // The administrator makes it a clinic on its settings page.
  const saved = await postPage(clinic.admin, "/en/admin/organization", { name: unique("Harbour Health"), timeZone: "Europe/Lisbon", kind: "CLINIC" });
  expect(saved.status).toBe(302);
  expect((await api("GET", "/api/organization", { cookie: clinic.admin })).body).toMatchObject({ kind: "CLINIC", timeZone: "Europe/Lisbon" });

  const form = await created(api("POST", "/api/forms", { cookie: clinic.admin, json: moodForm() }));
  ids.formId = form.id;
  const patient = await created(
    api("POST", "/api/students", {
      cookie: clinic.admin,
      json: {
        name: "Rui Tavares",
        externalId: unique("MRN"),
        dateOfBirth: "1988-05-17",
        grade: "Outpatients",
        age: 37,
        email: `${unique("rui")}@harbour.test`,
      },
    }),
  );
  ids.studentId = patient.id;
  ids.candidateId = (
    await created(api("POST", "/api/candidates", { cookie: clinic.admin, json: { name: "Lia Moreno", externalId: unique("REF"), dateOfBirth: "1999-01-02" } }))
  ).id;
  ids.groupId = (
    await created(api("POST", "/api/groups", { cookie: clinic.admin, json: { name: "Tuesday caseload", description: "Adults seen on Tuesdays." } }))
  ).id;
  await created(
    api("POST", `/api/groups/${ids.groupId}/members`, { cookie: clinic.admin, json: { studentIds: [ids.studentId], candidateIds: [ids.candidateId] } }),
    200,
  );
  const today = new Date().toISOString().slice(0, 10);
  ids.scheduleId = (
    await created(
      api("POST", "/api/schedules", { cookie: clinic.admin, json: { formId: ids.formId, groupId: ids.groupId, startsAt: today, everyDays: 28, send: false } }),
    )
  ).schedule.id;
  patientLogin = (await userOf("STUDENT", "en", "Ana Ribeiro")).cookie;

  // In each language: a clinician (who is e-mailed in it) e-mails one link, which is answered with
  // a flag, and leaves another waiting, which is reminded; a new colleague is invited.
  for (const locale of LOCALES) {
    const clinician = (clinicians[locale] = { ...(await userOf("TEACHER", locale, `Dra. Marta Lobo ${locale}`)), locale });
    const person = async (name: string) =>
      (await created(
        api("POST", "/api/students", {
          cookie: clinician.cookie,
          json: { name, email: `${unique("person")}@harbour.test`, externalId: unique("MRN"), dateOfBirth: "1990-07-04", grade: "Sleep clinic" },
        }),
      )) as { id: string; email: string; externalId: string };
    const answering = await person(`Ivo Salgado ${locale}`);
    const sent = await created(api("POST", "/api/submissions", { cookie: clinician.cookie, json: { formId: ids.formId, studentId: answering.id } }));
    expect((await api("POST", `/api/submissions/${sent.id}/send`, { cookie: clinician.cookie })).status).toBeLessThan(300);
    completed[locale] = { id: sent.id, token: sent.token };
    const waiting = await person(`Noa Prates ${locale}`);
    const left = await created(api("POST", "/api/submissions", { cookie: clinician.cookie, json: { formId: ids.formId, studentId: waiting.id } }));
    pending[locale] = { id: left.id, token: left.token };
    const invited = `${unique("invited")}@harbour.test`;
    await created(api("POST", "/api/users", { cookie: clinic.admin, json: { email: invited, name: `Teo Vaz ${locale}`, role: "TEACHER", locale } }));
    inbox[locale] = { link: answering.email, reminder: waiting.email, invitation: invited };
    if (locale === "en") ids.recordNumber = answering.externalId;
  }
  for (const locale of LOCALES) {
    // The link e-mail first: a reminder waits while a link's own message is still queued.
    await waitForMail(inbox[locale].link);
    const answers = form.questions.map((question: { id: string; options: { id: string; score: number }[] }) => ({
      questionId: question.id,
      optionIds: [question.options.find((option) => option.score === 1)!.id],
    }));
    await created(api("POST", `/api/test-link/${completed[locale].token}/submit`, { json: { answers }, headers: { "x-forwarded-for": freshIp() } }), 200);
    await created(api("POST", "/api/submissions/remind", { cookie: clinicians[locale].cookie, json: { formId: ids.formId } }), 202);
    await created(api("POST", "/api/auth/forgot-password", { json: { email: clinicians[locale].email }, headers: { "x-forwarded-for": freshIp() } }), 200);
  }
  ids.submissionId = completed.en.id;
}, 120_000);

type Page = { path: string; file: string };

/** Every page route of app/routes.ts, with its path under the locale. */
function pages(entries: readonly RouteConfigEntry[], prefix = ""): Page[] {
  return entries.flatMap((entry) => {
    const here = entry.index ? prefix : entry.path ? [prefix, entry.path].filter(Boolean).join("/") : prefix;
    return [...(entry.path !== undefined || entry.index ? [{ path: here, file: entry.file }] : []), ...pages(entry.children ?? [], here)];
  });
}

const localeRoute = (routes as RouteConfigEntry[]).find((entry) => entry.path === ":locale")!;
const signedInLayout = localeRoute.children!.find((entry) => entry.file === "routes/signed-in.tsx")!;
/** The staff pages: every page of the signed-in layout but the PDF download (read below as a PDF). */
const staffPages = pages(signedInLayout.children!).filter((page) => !page.path.endsWith("/pdf"));

/** The page's address with its parameters filled from this test's records. */
function address(locale: Locale, pattern: string): string {
  const filled = pattern.replace(/^(\w+)\/:(\w+)/, (_, section: string, name: string) => {
    const id =
      name === "key"
        ? "phq-9"
        : name === "submissionId"
          ? ids.submissionId
          : (
              {
                students: ids.studentId,
                candidates: ids.candidateId,
                groups: ids.groupId,
                forms: ids.formId,
                assignments: ids.submissionId,
                schedules: ids.scheduleId,
              } as Record<string, string>
            )[section];
    if (!id) throw new Error(`No record for the parameter of ${pattern}: fill it in this test.`);
    return `${section}/${id}`;
  });
  if (filled.includes(":")) throw new Error(`A parameter of ${pattern} is not filled in.`);
  return `/${locale}/${filled}`;
}

async function readPage(pathname: string, cookie?: string) {
  const response = await fetch(`${baseUrl()}${pathname}`, { headers: { ...(cookie ? { cookie } : {}), "x-forwarded-for": freshIp() }, redirect: "manual" });
  return { status: response.status, text: readableText(await response.text()) };
}

function pdfText(bytes: Uint8Array): string {
  const file = path.join(scratch, `${unique("report")}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
}

const mailText = (mail: ReceivedMail) => `${mail.subject}\n${mail.text}\n${readableText(mail.html)}`;

describe.each(LOCALES)("a clinic's words in %s", (locale) => {
  it("given every staff page, should answer it and say no school word", async () => {
    expect(staffPages.length).toBeGreaterThan(40);
    const found: string[] = [];
    for (const page of staffPages) {
      const pathname = address(locale, page.path);
      const { status, text } = await readPage(pathname, clinic.admin);
      expect(status, pathname).toBe(200);
      found.push(...schoolWordsIn(text, locale).map((words) => `${pathname}: ${words}`));
    }
    expect(found).toEqual([]);
  });

  it("given a school's list of students, should find its words: the check reads what a page says", async () => {
    const { text } = await readPage(`/${locale}/students`, sessionOf("admin@demo.test"));
    expect(schoolWordsIn(text, locale).length).toBeGreaterThan(0);
  });

  it("given the patient's own pages, should say no school word", async () => {
    const found: string[] = [];
    for (const pathname of [`/${locale}/home`, `/${locale}/profile`]) {
      const { status, text } = await readPage(pathname, patientLogin);
      expect(status, pathname).toBe(200);
      found.push(...schoolWordsIn(text, locale).map((words) => `${pathname}: ${words}`));
    }
    expect(found).toEqual([]);
  });

  it("given the respondent's test page, open and answered, should say no school word", async () => {
    const open = await readPage(`/${locale}/test/${pending[locale].token}`);
    expect(open.status).toBe(200);
    expect(open.text).toContain("Trouble sleeping");
    const answered = await readPage(`/${locale}/test/${completed[locale].token}`);
    expect(answered.status).toBe(200);
    expect(answered.text).toContain("Thoughts of harming yourself");
    expect([...schoolWordsIn(open.text, locale), ...schoolWordsIn(answered.text, locale)]).toEqual([]);
  });

  it("given the report's PDF, should name the patient with their record number and date of birth, and say no school word", async () => {
    const response = await fetch(`${baseUrl()}/${locale}/reports/${ids.submissionId}/pdf`, { headers: { cookie: clinic.admin } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const text = pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(text).toContain("Ivo Salgado en");
    // A long record number may wrap in its column, and pdftotext drops a hyphen it finds at a
    // line's end as a word broken there.
    const unbroken = (value: string) => value.replace(/[\s-]+/g, "");
    expect(unbroken(text)).toContain(unbroken(ids.recordNumber!));
    expect(schoolWordsIn(text, locale)).toEqual([]);
    const report = await api("GET", `/api/reports/${ids.submissionId}`, { cookie: clinic.admin });
    expect(report.body.respondent).toMatchObject({ name: "Ivo Salgado en", externalId: ids.recordNumber, dateOfBirth: "1990-07-04" });
  });

  it("given every e-mail the clinic sends (a link, a reminder, a flagged result, an invitation, a password reset), should say no school word", async () => {
    const mails = await Promise.all([waitForMail(inbox[locale].link), waitForMail(inbox[locale].reminder), waitForMail(inbox[locale].invitation)]);
    // The clinician's two: the flagged result and the reset link, in either order.
    await waitForMail(clinicians[locale].email, 1);
    const toClinician = await mailTo(clinicians[locale].email);
    expect(toClinician).toHaveLength(2);
    const all = [...mails, ...toClinician];
    expect(all.flatMap((mail) => schoolWordsIn(mailText(mail), locale).map((words) => `${mail.subject}: ${words}`))).toEqual([]);
  });
});
