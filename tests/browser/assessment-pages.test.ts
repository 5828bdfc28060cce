import { readFileSync } from "node:fs";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { mediumAnswers, mixedForm, type CreatedForm } from "../support/assessment.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, launchBrowser, PHONE, signedInContext, screenshot } from "../support/browser.ts";
import { createSignedInUser, type CreatedUser } from "../support/fixtures.ts";

/**
 * The Assignments and Reports pages in real Chromium: a teacher assigns a test through the UI,
 * the respondent completes the link in a separate context without JavaScript, then the teacher
 * finds the result in assignments and reports, opens it and downloads the PDF. Once with the
 * teacher's JavaScript off, once on. Screenshots go to $SCREENSHOT_DIR.
 */
const MEDIUM_COLOR = "#B54708";

let browser: Browser;
let teacher: CreatedUser;
let form: CreatedForm;
const completed: { id: string; name: string }[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  teacher = await createSignedInUser("TEACHER");
  const created = await api("POST", "/api/forms", { cookie: teacher.cookie, json: mixedForm(`Reading screening ${unique("f")}`) });
  expect(created.status, created.text).toBe(201);
  form = created.body;
});

afterAll(async () => {
  await browser?.close();
});

const signedIn = (cookie: string, options: BrowserContextOptions = {}) => signedInContext(browser, cookie, options);

const today = () => new Date().toISOString().slice(0, 10);

async function createStudent(name: string) {
  const response = await api("POST", "/api/students", { cookie: teacher.cookie, json: { name } });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; name: string };
}

/** Answers the mixed form by its labels: B, {two, minus one}, 2, a text → 1 of 9.5, Medium. */
async function answerMedium(page: Page) {
  await page.getByRole("radio", { name: "B" }).check();
  await page.getByRole("checkbox", { name: "two" }).check();
  await page.getByRole("checkbox", { name: "minus one" }).check();
  await page.getByRole("radio", { name: "2" }).check();
  await page.getByLabel(/Say something/).fill("Tudo bem, obrigado.");
}

async function expectMediumBadge(scope: ReturnType<Page["locator"]>) {
  const badge = scope.getByText("Medium", { exact: true }).first();
  expect(await badge.locator("rect").getAttribute("fill")).toBe(MEDIUM_COLOR);
  expect(await badge.evaluate((element) => getComputedStyle(element).color)).toBe("rgb(255, 255, 255)");
}

describe("assignments and reports in a real browser", () => {
  for (const javaScriptEnabled of [false, true]) {
    const mode = javaScriptEnabled ? "js" : "nojs";
    it(`given JavaScript ${javaScriptEnabled ? "on" : "off"}, should assign, complete, list, report and download the PDF`, { timeout: 90_000 }, async () => {
      const suffix = unique(mode);
      const student = await createStudent(`Zoë Ørsted ${suffix}`);
      const context = await signedIn(teacher.cookie, { javaScriptEnabled });
      if (javaScriptEnabled) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
      const page = await context.newPage();

      // Assign: search the respondent first (accent-insensitive), then choose form and person.
      await page.goto(`${baseUrl()}/en/assignments/new`);
      await page.getByRole("heading", { level: 1, name: "Assign a test" }).waitFor();
      await page.getByLabel("Find a student or candidate").fill(`zoe orsted ${suffix}`);
      await page.getByRole("search").getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/\/en\/assignments\/new\?q=/);
      const respondentSelect = page.getByLabel(/^Respondent/);
      await page.waitForFunction((n) => document.querySelectorAll("#respondent option").length === n, 2);
      if (!javaScriptEnabled) {
        // Sent empty: the errors appear by the fields, and nothing is assigned.
        await page.getByRole("button", { name: "Assign", exact: true }).click();
        await page.getByText("Choose a form.", { exact: true }).waitFor();
        expect(await page.getByText("Choose a student or candidate.", { exact: true }).isVisible()).toBe(true);
        expect(await page.getByLabel(/^Form/).getAttribute("aria-invalid")).toBe("true");
        await screenshot(page, "assignment-new-errors");
      }
      await page.getByLabel(/^Form/).selectOption({ label: form.title });
      await respondentSelect.selectOption({ label: student.name });
      await screenshot(page, `assignment-new-${mode}`);
      await page.getByRole("button", { name: "Assign", exact: true }).click();

      await page.waitForURL(/\/en\/assignments\/(?!new)[^/?]+$/);
      const assignmentId = page.url().split("/").pop()!;
      await page.getByRole("heading", { level: 1, name: "Test assigned" }).waitFor();
      expect(await page.getByRole("status").filter({ hasText: "Test assigned." }).count()).toBeGreaterThan(0);
      expect(await page.locator("main").textContent()).toContain(student.name);
      const linkBox = page.getByRole("textbox", { name: `Test link for ${student.name}` });
      const link = await linkBox.inputValue();
      expect(link).toMatch(/\/en\/test\/[A-Za-z0-9_-]{43}$/);
      if (javaScriptEnabled) {
        await page.getByRole("button", { name: /^Copy/ }).click();
        await page.getByRole("button", { name: /^Copied/ }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
      } else {
        expect(await page.getByRole("button", { name: /^Copy/ }).count()).toBe(0);
      }
      await screenshot(page, `assignment-created-${mode}`);

      // Reloading the confirmation does not assign again.
      await page.reload();
      const pendingList = await api("GET", `/api/submissions?studentId=${student.id}`, { cookie: teacher.cookie });
      expect(pendingList.body.total).toBe(1);

      // The pending assignment in the list, with its link.
      await page.goto(`${baseUrl()}/en/assignments?state=pending`);
      const pendingRow = page.locator("li[data-state=pending]", { hasText: student.name });
      expect(await pendingRow.getByRole("textbox").inputValue()).toBe(link);

      // The respondent, in a separate context without JavaScript.
      const respondent = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
      const answerPage = await respondent.newPage();
      await answerPage.goto(link);
      await answerMedium(answerPage);
      await answerPage.getByRole("button", { name: "Send answers" }).click();
      await answerPage.getByRole("heading", { name: "Thank you" }).waitFor();
      await respondent.close();

      // Assignments: completed, with its band.
      await page.goto(`${baseUrl()}/en/assignments`);
      await page.getByLabel("State").selectOption("completed");
      await page.getByLabel(/^Form/).selectOption({ label: form.title });
      await page.getByRole("button", { name: "Filter" }).click();
      await page.waitForURL(/state=completed/);
      const row = page.locator("li[data-state=completed]", { hasText: student.name });
      expect(await row.getByText("Completed", { exact: true }).count()).toBe(1);
      await expectMediumBadge(row);
      expect(await row.getByRole("textbox").count()).toBe(0);
      await screenshot(page, `assignments-${mode}`);

      // Reports: search (no accents, other case) and today's date range.
      await page.goto(`${baseUrl()}/en/reports`);
      await page.getByLabel("Search by respondent or form").fill(`ZOE ORSTED ${suffix}`);
      await page.getByLabel("From").fill(today());
      await page.getByLabel("To").fill(today());
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/\/en\/reports\?.*from=/);
      // With JavaScript the URL changes before the new list renders: wait for it.
      await page.waitForFunction(() => document.querySelectorAll("table tbody tr").length === 1);
      const table = page.locator("table");
      expect(await table.locator("tbody tr").count()).toBe(1);
      const reportRow = table.locator("tbody tr", { hasText: student.name });
      expect(await reportRow.textContent()).toContain(form.title);
      expect(await reportRow.textContent()).toContain("1 of 9.5");
      expect(await reportRow.textContent()).toContain("10.5%");
      expect(await reportRow.textContent()).toContain(teacher.profile.name);
      await expectMediumBadge(reportRow);
      await screenshot(page, `reports-${mode}`);

      // The detail.
      await reportRow.getByRole("link", { name: student.name }).click();
      await page.waitForURL(`${baseUrl()}/en/reports/${assignmentId}`);
      await page.getByRole("heading", { level: 1, name: student.name }).waitFor();
      const summary = page.locator("section#summary");
      await expectMediumBadge(summary);
      expect(await summary.textContent()).toContain("1 of 9.5");
      const bands = page.locator("section#bands");
      expect(await bands.locator("svg[role=img] rect").evaluateAll((rects) => rects.map((r) => r.getAttribute("fill")))).toEqual([
        "#B42318",
        MEDIUM_COLOR,
        "#1A7F37",
      ]);
      expect(await bands.locator("li", { hasText: "Respondent's band" }).textContent()).toContain("Medium");
      const answers = page.locator("section#answers li");
      expect(await answers.count()).toBe(4);
      expect(await answers.nth(0).textContent()).toContain("Pick one");
      expect(await answers.nth(0).textContent()).toContain("-2 of 3 points");
      expect(await answers.nth(3).textContent()).toContain("Tudo bem, obrigado.");
      await screenshot(page, `report-detail-${mode}`);

      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
      // The browser takes the UTF-8 name (filename*), written as the name is; the ASCII one is for older clients.
      expect(download.suggestedFilename()).toMatch(new RegExp(`^report-zoë-ørsted-${suffix.toLowerCase()}-${today()}\\.pdf$`));
      const bytes = readFileSync((await download.path())!);
      expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

      completed.push({ id: assignmentId, name: student.name });
      await context.close();
    });
  }

  it("given the new pages on a desktop and a phone, should have no serious or critical accessibility violations", {
    timeout: ACCESSIBILITY_SCAN_TIMEOUT,
  }, async () => {
    const student = await createStudent(`Ana Núñez ${unique("a11y")}`);
    const pending = await api("POST", "/api/submissions", { cookie: teacher.cookie, json: { formId: form.id, studentId: student.id } });
    expect(pending.status).toBe(201);
    const done = completed[0] ?? { id: pending.body.id };
    const pages = [
      ["assignment-new", `/en/assignments/new?studentId=${student.id}`],
      ["assignment-confirmation", `/en/assignments/${pending.body.id}`],
      ["assignments", "/en/assignments"],
      ["reports", "/en/reports"],
      ["reports-range-error", "/en/reports?from=2026-12-01&to=2026-01-01"],
      ["report-detail", `/en/reports/${done.id}`],
      ["reports-es", "/es/reports"],
      ["report-detail-pt", `/pt-BR/reports/${done.id}`],
    ] as const;
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await signedIn(teacher.cookie, { viewport, bypassCSP: true });
      const page = await context.newPage();
      for (const [name, pathname] of pages) {
        const response = await page.goto(`${baseUrl()}${pathname}`);
        expect(response?.status(), pathname).toBe(200);
        if (name === "assignment-new") expect(await page.locator("#respondent").inputValue()).toBe(`student:${student.id}`);
        expect(await seriousAccessibilityViolations(page), `${pathname} at ${viewport.width}px`).toEqual([]);
        if (viewport === PHONE) {
          await screenshot(page, `${name}-phone`);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(width, `${pathname} fits the phone`).toBeLessThanOrEqual(390);
        } else if (!name.endsWith("-es") && !name.endsWith("-pt")) {
          await screenshot(page, `${name}-desktop-a11y`);
        }
      }
      await context.close();
    }
  });
});

describe("the report pages over plain HTTP", () => {
  const get = (pathname: string, cookie: string) => fetch(`${baseUrl()}${pathname}`, { headers: { cookie }, redirect: "manual" });

  it("given another teacher, should answer the friendly 404 for the report and its PDF", async () => {
    const student = await createStudent(`Other scope ${unique("s")}`);
    const assigned = await api("POST", "/api/submissions", { cookie: teacher.cookie, json: { formId: form.id, studentId: student.id } });
    const submit = await api("POST", `/api/test-link/${assigned.body.token}/submit`, { json: mediumAnswers(form) });
    expect(submit.status).toBe(200);

    const own = await get(`/es/reports/${assigned.body.id}/pdf`, teacher.cookie);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("application/pdf");
    expect(own.headers.get("content-disposition")).toMatch(
      /^attachment; filename="(report-other-scope-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.pdf)"; filename\*=UTF-8''\1$/,
    );
    expect(own.headers.get("cache-control")).toBe("no-store");
    expect(
      Buffer.from(await own.arrayBuffer())
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");

    const other = await createSignedInUser("TEACHER");
    for (const pathname of [`/en/reports/${assigned.body.id}`, `/en/reports/${assigned.body.id}/pdf`, `/en/assignments/${assigned.body.id}`]) {
      const response = await get(pathname, other.cookie);
      expect(response.status, pathname).toBe(404);
      expect(response.headers.get("content-type"), pathname).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html, pathname).toContain("Page not found");
      expect(html, pathname).not.toContain(student.name);
    }

    // A pending test has no report yet: the same 404.
    const pending = await api("POST", "/api/submissions", { cookie: teacher.cookie, json: { formId: form.id, studentId: student.id } });
    expect((await get(`/en/reports/${pending.body.id}/pdf`, teacher.cookie)).status).toBe(404);
  });

  it("given an inverted or invalid date range, should show the error on the page rather than a 400", async () => {
    const inverted = await get("/en/reports?from=2026-12-01&to=2026-01-01", teacher.cookie);
    expect(inverted.status).toBe(200);
    expect(await inverted.text()).toContain("The start date is after the end date.");
    const invalid = await get("/es/reports?from=2026-02-30", teacher.cookie);
    expect(invalid.status).toBe(200);
    expect(await invalid.text()).toContain("Escribe una fecha válida.");
  });

  it("given ?candidateId= and ?formId=, should preselect them in the assign form", async () => {
    const candidate = await api("POST", "/api/candidates", { cookie: teacher.cookie, json: { name: `Candidata Ñandú ${unique("c")}` } });
    expect(candidate.status, candidate.text).toBe(201);
    const response = await get(`/pt-BR/assignments/new?candidateId=${candidate.body.id}&formId=${form.id}`, teacher.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Atribuir um teste");
    expect(html).toMatch(new RegExp(`<option value="candidate:${candidate.body.id}" selected="">`));
    expect(html).toMatch(new RegExp(`<option value="${form.id}" selected="">`));
  });

  it("given a student's login, should answer the 403 page", async () => {
    const student = await createSignedInUser("STUDENT");
    for (const pathname of ["/en/reports", "/en/assignments", "/en/assignments/new"]) {
      expect((await get(pathname, student.cookie)).status, pathname).toBe(403);
    }
  });
});
