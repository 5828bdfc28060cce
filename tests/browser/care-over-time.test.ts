import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, signIn, unique } from "../support/api.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, keepToLookAt, PHONE, screenshot, sharedBrowser, signedInContext } from "../support/browser.ts";
import { inTestProcess, testDatabase } from "../support/database.ts";
import { waitForMail } from "../support/mail.ts";
import { readableText, schoolWordsIn } from "../support/school-words.ts";

/**
 * Care over time in a clinic (docs/api-contract.md §18; ADR 76, 80, 81), through the pages in real
 * Chromium, once with JavaScript on and once off: a clinician repeats the PHQ-9 every 14 days for a
 * patient from the patient's page; three occurrences e-mail three links, which the patient answers
 * on a phone with totals of 20, 12 and 3; the patient's history then says the change since the
 * previous and the first result, the reliable improvement, the response and the remission, its
 * chart draws the baseline and the remission threshold, and the newest result's PDF says the same.
 * No page, e-mail or PDF of it says a school's words.
 *
 * Time is moved, never waited for (ADR 60): the schedule's days lie decades ahead, so the suite's
 * server (whose clock is the real one) never runs them; this process runs each occurrence with the
 * queue's own runner and a clock set to the start of its day, and the server sends the e-mails it
 * queues. The answers are sent over HTTP, which no request can date: each result's completion is
 * then written as the morning of its link's day, as if the patient had answered then.
 */
const browser = sharedBrowser();

/** The clinic's zone: a day starts at 00:00 there, 23:00 UTC the night before in summer time. */
const ZONE = "Europe/Lisbon";
const FIRST_DAY = "2097-03-02";
const EVERY_DAYS = 14;
/** The patient answers on the morning of each link's day. */
const ANSWERED_AFTER_MS = 10 * 3_600_000;

const FREQUENCY = ["Not at all", "Several days", "More than half the days", "Nearly every day"];
/** Each item's answer (its score) for the three totals; item 9 stays "Not at all", so no result is flagged. */
const ANSWERS: [total: number, items: number[]][] = [
  [20, [3, 3, 3, 3, 3, 3, 1, 1, 0]],
  [12, [2, 2, 2, 2, 1, 1, 1, 1, 0]],
  [3, [1, 1, 1, 0, 0, 0, 0, 0, 0]],
];

const services = () =>
  inTestProcess(async () => {
    const [{ runDueJobs }, { JOB_HANDLERS }] = await Promise.all([
      import("../../app/features/jobs/jobs.server.ts"),
      import("../../app/features/jobs/job-handlers.server.ts"),
    ]);
    return { runDueJobs, JOB_HANDLERS };
  });

/** Runs the schedule's occurrences due at `at`, as a worker whose clock reads `at`; answers how many jobs ran. */
async function runSchedule(scheduleId: string, at: Date): Promise<number> {
  const { runDueJobs, JOB_HANDLERS } = await services();
  const due = await testDatabase().job.findMany({
    where: { concurrencyKey: `schedule:${scheduleId}`, doneAt: null, failedAt: null, runAt: { lte: at } },
    select: { id: true },
  });
  return due.length === 0 ? 0 : runDueJobs(JOB_HANDLERS, { now: () => at, only: due.map((job) => job.id) });
}

const hydrated = async (page: Page, javaScriptEnabled: boolean) => {
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
};

/** A school's words on the page as it is now (its text and the attributes a person reads). */
const schoolWordsOn = async (page: Page) => schoolWordsIn(readableText(await page.content()), "en");

/** The dates the clinician's pages show (medium dates in the clinic's zone, as app/i18n/format.ts). */
const shownDate = (at: Date) => new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: ZONE }).format(at);

/** The PDF the page's "Download PDF" link downloads, as pdftotext lays it out, its spaces collapsed. */
async function downloadedPdfText(page: Page, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const file = (await download.path())!;
  keepToLookAt(name, readFileSync(file));
  return execFileSync("pdftotext", ["-enc", "UTF-8", "-layout", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

/** The patient's phone in the one context of the test: none of the clinician's cookies while it is used. */
async function onThePatientsPhone<T>(context: BrowserContext, use: (phone: Page) => Promise<T>): Promise<T> {
  const cookies = await context.cookies();
  await context.clearCookies();
  const phone = await context.newPage();
  await phone.setViewportSize(PHONE);
  try {
    return await use(phone);
  } finally {
    await phone.close();
    await context.addCookies(cookies);
  }
}

/** The clinic of this file, on Lisbon time: its links dated 2097 come first on no other file's lists. */
let clinicId: string;
beforeAll(async () => {
  clinicId = (await testDatabase().organization.create({ data: { name: unique("Harbour Health"), kind: "CLINIC", timeZone: ZONE } })).id;
});

/** A clinician of the clinic, named as a clinic names its staff (the shared fixtures name users after their role). */
async function newClinician(): Promise<{ cookie: string }> {
  const email = `${unique("clinician")}@harbour.test`;
  const password = `pw-${unique("secret")}`;
  const name = `Dr. Marta Lobo ${unique("md")}`;
  const created = await api("POST", "/api/users", { as: "superadmin@demo.test", json: { email, name, role: "TEACHER", password, organizationId: clinicId } });
  expect(created.status, created.text).toBe(201);
  return { cookie: await signIn(email, password) };
}

describe("care over time in a clinic", () => {
  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? "js" : "nojs";
    it(
      `given JavaScript ${javaScriptEnabled ? "on" : "off"}, should repeat the PHQ-9 every 14 days for a patient, take three answers from a phone as time moves, and show the change, its reliable improvement, response and remission on the history, its chart and the PDF`,
      async () => {
        // Not the journey's point, through the API: the clinician, the PHQ-9 installed and published, the patient.
        const clinician = await newClinician();
        const title = unique("PHQ-9 follow-up");
        const installed = await api("POST", "/api/instruments/phq-9/install", { cookie: clinician.cookie, json: { title } });
        expect(installed.status, installed.text).toBe(201);
        const form = installed.body as { id: string };
        expect((await api("PUT", `/api/forms/${form.id}`, { cookie: clinician.cookie, json: { isPublished: true } })).status).toBe(200);
        const email = `${unique("rui").toLowerCase()}@harbour.test`;
        const patient = await api("POST", "/api/students", { cookie: clinician.cookie, json: { name: `Rui Tavares ${unique(mode)}`, email } });
        expect(patient.status, patient.text).toBe(201);
        const { id: patientId, name: patientName } = patient.body as { id: string; name: string };

        const context = await signedInContext(browser(), clinician.cookie, {
          viewport: DESKTOP,
          javaScriptEnabled,
          bypassCSP: javaScriptEnabled,
          acceptDownloads: true,
        });
        const page = await context.newPage();

        // 1. From the patient's page: the PHQ-9 every 14 days, its links e-mailed.
        await page.goto(`${baseUrl()}/en/students/${patientId}`);
        await page.getByRole("heading", { level: 1, name: patientName }).waitFor();
        await hydrated(page, javaScriptEnabled);
        await page.getByRole("link", { name: "Repeat this questionnaire" }).click();
        // Without JavaScript the page streams in: its selects are read once the whole page is there.
        await page.waitForLoadState("load");
        await page.getByRole("heading", { level: 1, name: "Repeat a questionnaire" }).waitFor();
        await hydrated(page, javaScriptEnabled);
        expect(await page.getByRole("combobox", { name: /^Respondent/ }).inputValue()).toBe(`student:${patientId}`);
        expect(await schoolWordsOn(page)).toEqual([]);
        await page.getByRole("combobox", { name: /^Form/ }).selectOption({ label: title });
        await page.getByLabel("First day").fill(FIRST_DAY);
        await page.getByLabel("Repeat every (days)").fill(String(EVERY_DAYS));
        await page.getByLabel("E-mail the links each time").check();
        await screenshot(page, `care-schedule-new-${mode}.png`);
        await page.getByRole("button", { name: "Create the schedule" }).click();
        await page.waitForURL(/\/en\/schedules\/[a-z0-9]+$/);
        await page.getByText("The schedule is made.").waitFor();
        await page.getByRole("heading", { level: 1, name: `Schedule of ${title}` }).waitFor();
        const scheduleId = new URL(page.url()).pathname.split("/").pop()!;
        const details = ((await page.locator("main").textContent()) ?? "").replace(/\s+/g, " ");
        expect(details).toContain(`Every ${EVERY_DAYS} days`);
        expect(details).toContain("The links are e-mailed");
        expect(await schoolWordsOn(page)).toEqual([]);

        // 2. Three occurrences, 14 days apart: each e-mails a link, which the patient answers on a phone.
        const answeredAt: Date[] = [];
        await onThePatientsPhone(context, async (phone) => {
          for (const [index, [total, items]] of ANSWERS.entries()) {
            const schedule = (await api("GET", `/api/schedules/${scheduleId}`, { cookie: clinician.cookie })).body;
            const next = schedule.schedule.nextOccurrence as { day: string; at: string };
            expect(next.day).toBe(new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + index * EVERY_DAYS * 86_400_000).toISOString().slice(0, 10));
            const at = new Date(next.at);
            // A moment before its day starts, nothing; at its start, the occurrence.
            expect(await runSchedule(scheduleId, new Date(at.getTime() - 1))).toBe(0);
            expect(await runSchedule(scheduleId, at)).toBe(1);

            const mail = await waitForMail(email, index);
            expect(mail.subject).toBe(`A test for you: ${title}`);
            expect(schoolWordsIn(mail.text, "en")).toEqual([]);
            const link = /https?:\/\/\S+\/test\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
            expect(link, mail.text).toBeDefined();

            await phone.goto(link!);
            await phone.getByRole("heading", { level: 1, name: title }).waitFor();
            await hydrated(phone, javaScriptEnabled);
            await phone.getByText(`Hello, ${patientName}`).waitFor();
            const questions = phone.getByRole("group");
            expect(await questions.count()).toBe(9);
            for (const [item, score] of items.entries()) {
              await questions.nth(item).getByRole("radio", { name: FREQUENCY[score]!, exact: true }).check();
            }
            if (index === 0) await screenshot(phone, `care-test-link-${mode}-phone.png`);
            await phone.getByRole("button", { name: "Send answers" }).click();
            await phone.getByRole("heading", { name: "Thank you" }).waitFor();
            expect(await schoolWordsOn(phone)).toEqual([]);

            // Answered on the morning of the link's day.
            const completedAt = new Date(at.getTime() + ANSWERED_AFTER_MS);
            const result = await testDatabase().submission.findFirstOrThrow({
              where: { formId: form.id, studentId: patientId, createdAt: at, completedAt: { not: null } },
              select: { id: true },
            });
            await testDatabase().submission.update({ where: { id: result.id }, data: { completedAt }, select: { id: true } });
            answeredAt.push(completedAt);
            expect((await api("GET", `/api/reports/${result.id}`, { cookie: clinician.cookie })).body.totalScore).toBe(total);
          }
        });
        const schedule = (await api("GET", `/api/schedules/${scheduleId}`, { cookie: clinician.cookie })).body;
        expect(schedule.occurrences.map((o: { status: string; created: number; skipped: number }) => [o.status, o.created, o.skipped])).toEqual([
          ["DONE", 1, 0],
          ["DONE", 1, 0],
          ["DONE", 1, 0],
        ]);
        expect(schedule.schedule).toMatchObject({ status: "ACTIVE", occurrencesRun: 3, nextOccurrence: { day: "2097-04-13" } });

        // 3. The patient's history: the table, newest first, and the chart with its lines.
        await page.goto(`${baseUrl()}/en/students/${patientId}`);
        await page.getByRole("heading", { level: 1, name: patientName }).waitFor();
        await hydrated(page, javaScriptEnabled);
        const history = page.getByTestId("history-form");
        await history.getByRole("heading", { level: 3, name: title }).waitFor();
        const table = history.getByRole("table", { name: `Results on ${title}, newest first` });
        // Column by column, newest first, as shown (a phone's percentage under the score is hidden at the desk's width).
        const column = async (cell: string) => (await table.locator(`tbody tr > ${cell}`).allInnerTexts()).map((text) => text.replace(/\s+/g, " ").trim());
        expect(await column("td:nth-child(1)")).toEqual(answeredAt.toReversed().map(shownDate));
        expect(await column("td:nth-child(2)")).toEqual(["3 / 27", "12 / 27", "20 / 27"]);
        expect(await column("td:nth-child(3)")).toEqual(["Minimal", "Moderate", "Severe"]);
        expect(await column('[data-change="fromPrevious"]')).toEqual(["-9", "-8", "—"]);
        expect(await column('[data-change="fromBaseline"]')).toEqual(["-17", "-8", "Baseline"]);
        expect(await column('[data-change="reliable"]')).toEqual(["Reliably improved", "Reliably improved", "—"]);
        expect(await column('[data-change="response"]')).toEqual(["Yes", "No", "—"]);
        expect(await column('[data-change="remission"]')).toEqual(["Yes", "No", "—"]);
        const headers = await table.locator("thead th").allTextContents();
        expect(headers).toEqual(expect.arrayContaining(["Since previous", "Since first", "Reliable change", "Response", "Remission"]));

        const chart = history.getByRole("img", {
          name: `Scores on ${title} over time: 3 results from ${shownDate(answeredAt[0]!)} to ${shownDate(answeredAt[2]!)}; the table below lists each one.`,
        });
        expect(await chart.isVisible()).toBe(true);
        expect(await chart.locator("line[data-line]").evaluateAll((lines) => lines.map((line) => [line.dataset.line, line.dataset.score]))).toEqual([
          ["baseline", "20"],
          ["remission", "5"],
        ]);
        expect(await chart.locator('path[data-reliable="IMPROVED"]').count()).toBe(2);
        expect(await history.getByTestId("history-change-legend").getByRole("listitem").allTextContents()).toEqual([
          "Baseline (first result): 20",
          "Remission: below 5",
          "Reliably improved",
        ]);
        expect(await schoolWordsOn(page)).toEqual([]);
        await screenshot(page, `care-history-${mode}-desk.png`);
        if (javaScriptEnabled) {
          await page.setViewportSize(PHONE);
          // The phone's drawing of the chart, the same name.
          expect(await chart.getAttribute("data-testid")).toBe("history-chart-phone");
          expect(await seriousAccessibilityViolations(page), "the history at 390 px").toEqual([]);
          await screenshot(page, `care-history-${mode}-phone.png`);
          await page.setViewportSize(DESKTOP);
        }

        // 4. The newest result's page and its PDF say the same.
        await table.getByRole("link", { name: shownDate(answeredAt[2]!) }).click();
        await page.waitForURL(/\/en\/reports\/[^/?]+$/);
        await page.getByRole("heading", { level: 1, name: patientName }).waitFor();
        await hydrated(page, javaScriptEnabled);
        const summary = page.locator("#summary dl");
        const [terms, values] = await Promise.all([summary.locator("dt").allTextContents(), summary.locator("dd").allTextContents()]);
        expect(Object.fromEntries(terms.map((term, index) => [term, values[index]]))).toMatchObject({
          "Since previous": "-9",
          "Since first": "-17",
          "Reliable change": "Reliably improved",
          Response: "Yes",
          Remission: "Yes",
        });
        expect(await schoolWordsOn(page)).toEqual([]);
        await screenshot(page, `care-report-${mode}.png`);
        const pdf = await downloadedPdfText(page, `care-report-${mode}.pdf`);
        expect(pdf).toContain("Type Patient");
        expect(pdf).toContain("3 / 27");
        expect(pdf).toContain("Minimal");
        expect(pdf).toContain("CHANGE OVER TIME");
        expect(pdf).toContain("Since previous: -9 · Since first: -17 · Reliable change: Reliably improved · Response: Yes · Remission: Yes");
        expect(schoolWordsIn(pdf, "en")).toEqual([]);
        await context.close();
      },
      ACCESSIBILITY_SCAN_TIMEOUT,
    );
  }
});
