import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, sessionOf, unique, type DemoUser } from "../support/api.ts";
import { assign, createForm, highAnswers, mediumAnswers, type CreatedForm } from "../support/assessment.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, launchBrowser, PHONE, signedInContext, screenshot } from "../support/browser.ts";

/**
 * The students and candidates pages in real Chromium: the whole journey with JavaScript off (plain
 * forms, post/redirect/get), once more with it on, admin-only actions, the results chart, and
 * axe-core at desktop and phone widths. Screenshots go to $SCREENSHOT_DIR.
 */
const ADMIN: DemoUser = "admin@demo.test";
const TEACHER: DemoUser = "teacher@demo.test";

let browser: Browser;
let form: CreatedForm;

beforeAll(async () => {
  browser = await launchBrowser();
  form = await createForm(ADMIN);
});

afterAll(async () => {
  await browser?.close();
});

const signedIn = (user: DemoUser, options: BrowserContextOptions = {}) => signedInContext(browser, sessionOf(user), options);

async function open(context: BrowserContext, pathname: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl()}${pathname}`);
  return page;
}

const idFromUrl = (page: Page) => new URL(page.url()).pathname.split("/")[3]!;
const flash = (page: Page) => page.locator("main [role=status], main [role=alert]").first().textContent();

async function completeFor(studentId: string, answers: unknown) {
  const assignment = await assign(ADMIN, { formId: form.id, studentId });
  const submitted = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: answers });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
}

/** Create (with an error first), edit, search, filter: the journey every teacher makes. */
async function createEditSearch(page: Page, name: string, shots: string | null) {
  await page.goto(`${baseUrl()}/en/students`);
  await page.getByRole("link", { name: "New student" }).click();
  await page.waitForURL(`${baseUrl()}/en/students/new`);
  await page.getByLabel(/^Name/).fill(name);
  await page.getByLabel("E-mail", { exact: true }).fill(`${unique("e")}@example.test`);
  await page.getByLabel("Phone", { exact: true }).fill("+34 600 000 000");
  await page.getByLabel("Age", { exact: true }).fill("200");
  await page.getByLabel("Grade", { exact: true }).fill("5th");
  await page.getByLabel("Gender", { exact: true }).fill("female");
  await page.getByLabel("Status", { exact: true }).selectOption("ACTIVE");
  await page.getByRole("button", { name: "Create student" }).click();

  // The error by its field, and everything typed kept.
  const age = page.getByLabel("Age", { exact: true });
  await page.getByText("Enter an age from 0 to 150.", { exact: true }).waitFor();
  expect(await age.getAttribute("aria-invalid")).toBe("true");
  const describedBy = (await age.getAttribute("aria-describedby"))!;
  expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe("Enter an age from 0 to 150.");
  expect(await page.getByLabel(/^Name/).inputValue()).toBe(name);
  expect(await age.inputValue()).toBe("200");
  expect(await page.getByLabel("Grade", { exact: true }).inputValue()).toBe("5th");
  if (shots) await screenshot(page, `${shots}-form-error`);

  await age.fill("12");
  await page.getByRole("button", { name: "Create student" }).click();
  await page.waitForURL(/\/en\/students\/[^/]+$/);
  await page.getByText("Created.").waitFor();
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(name);
  const id = idFromUrl(page);

  await page.getByRole("link", { name: "Edit" }).click();
  await page.waitForURL(`${baseUrl()}/en/students/${id}/edit`);
  expect(await page.getByLabel("Age", { exact: true }).inputValue()).toBe("12");
  await page.getByLabel("Grade", { exact: true }).fill("6th");
  await page.getByLabel("Phone", { exact: true }).fill("");
  await page.getByLabel("Status", { exact: true }).selectOption("INACTIVE");
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL(`${baseUrl()}/en/students/${id}`);
  await page.getByText("Saved.").waitFor();
  const profile = page.locator("section#profile");
  expect(
    await profile
      .locator("div", { has: page.locator("dt", { hasText: "Grade" }) })
      .locator("dd")
      .textContent(),
  ).toBe("6th");
  expect(
    await profile
      .locator("div", { has: page.locator("dt", { hasText: "Phone" }) })
      .locator("dd")
      .textContent(),
  ).toBe("—");
  expect(await page.locator("main").getByText("Inactive", { exact: true }).count()).toBeGreaterThan(0);

  // Reload after the redirect never resubmits: the flash is gone and nothing changes.
  await page.reload();
  expect(await page.getByText("Saved.").count()).toBe(0);

  // Accent-insensitive search plus the status filter, as a GET form.
  await page.goto(`${baseUrl()}/en/students`);
  const plain = name
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
  await page.getByRole("searchbox", { name: "Search by name" }).fill(plain);
  await page.getByLabel("Status", { exact: true }).selectOption("INACTIVE");
  await page.getByRole("button", { name: "Search" }).click();
  await page.waitForURL(/status=INACTIVE/);
  const row = page.locator("tbody tr", { hasText: name });
  expect(await row.count()).toBe(1);
  expect(await row.getByText("Inactive").count()).toBe(1);
  if (shots) await screenshot(page, `${shots}-list`);
  await page.getByLabel("Status", { exact: true }).selectOption("ACTIVE");
  await page.getByRole("button", { name: "Search" }).click();
  await page.waitForURL(/status=ACTIVE/);
  await page.locator("tbody tr", { hasText: name }).waitFor({ state: "detached" });
  expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("ACTIVE");
  return id;
}

describe("the students and candidates pages", () => {
  it("given JavaScript off, should create, validate, edit, search, chart the results, and delete a student", async () => {
    const context = await signedIn(ADMIN, { javaScriptEnabled: false });
    const page = await context.newPage();
    const name = `Émilie Brontë-Ñúñez ${unique("s")}`;
    const id = await createEditSearch(page, name, "students-nojs");

    // No results yet: the history says so.
    await page.goto(`${baseUrl()}/en/students/${id}`);
    expect(await page.locator("section#history").textContent()).toContain("No tests taken yet.");

    await completeFor(id, mediumAnswers(form));
    await completeFor(id, highAnswers(form));
    await page.reload();
    const chart = page.getByTestId("history-chart-wide");
    expect(await chart.getAttribute("role")).toBe("img");
    const fills = await chart.locator("circle").evaluateAll((circles) => circles.map((c) => c.getAttribute("fill")));
    expect(fills).toEqual(["#B54708", "#1A7F37"]);
    expect(await page.getByTestId("history-chart-phone").locator("circle").count()).toBe(2);
    // One chart for the one form, named by it, in the form's score (0 to 9.5 → ticks 0 to 10).
    expect(await page.locator("figcaption").textContent()).toContain(`Scores on ${form.title} over time: 2 results`);
    expect(await chart.locator("text").allTextContents()).toEqual(expect.arrayContaining(["0", "5", "10", "Score", "Completion date"]));
    const history = page.locator("section#history tbody tr");
    expect(await history.count()).toBe(2);
    expect(await history.first().textContent()).toContain("9.5 of 9.5");
    expect(await history.first().getByText("High").count()).toBe(1);
    expect(await history.last().getByText("Medium").count()).toBe(1);
    await screenshot(page, "student-detail-desktop");

    // Delete asks first, then leaves for the list with a message.
    await page.getByRole("link", { name: "Delete" }).click();
    await page.getByText(`Delete ${name}?`).waitFor();
    await screenshot(page, "student-delete-confirm");
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForURL(`${baseUrl()}/en/students`);
    await page.getByText("Deleted.").waitFor();
    expect(await page.locator("tbody tr", { hasText: name }).count()).toBe(0);
    expect((await api("GET", `/api/students/${id}`, { as: ADMIN })).status).toBe(404);
    await context.close();
  }, 120_000);

  it("given JavaScript on, should make the same journey", async () => {
    const context = await signedIn(ADMIN);
    const page = await context.newPage();
    const name = `Søren Ærø Çelik ${unique("js")}`;
    const id = await createEditSearch(page, name, "students-js");
    await page.goto(`${baseUrl()}/en/students/${id}`);
    await page.getByRole("link", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForURL(`${baseUrl()}/en/students`);
    await page.getByText("Deleted.").waitFor();
    await context.close();
  }, 120_000);

  it("given a candidate, should let an admin promote it after confirming, and show a teacher no admin buttons", async () => {
    const name = `Iñès Müller ${unique("cand")}`;
    const created = await api("POST", "/api/candidates", { as: ADMIN, json: { name, age: 15, grade: "4th" } });
    expect(created.status).toBe(201);
    const candidateId = created.body.id as string;

    // The teacher sees the page, without Promote or Delete, and a forged POST is refused.
    const teacherContext = await signedIn(TEACHER, { javaScriptEnabled: false });
    const teacherPage = await open(teacherContext, `/en/candidates/${candidateId}`);
    expect(await teacherPage.getByRole("heading", { level: 1 }).textContent()).toBe(name);
    expect(await teacherPage.getByRole("link", { name: "Promote to student" }).count()).toBe(0);
    expect(await teacherPage.getByRole("link", { name: "Delete" }).count()).toBe(0);
    await teacherPage.goto(`${baseUrl()}/en/candidates/${candidateId}?confirm=promote`);
    expect(await teacherPage.getByRole("button", { name: "Yes, promote" }).count()).toBe(0);
    await teacherContext.close();
    const session = sessionOf(TEACHER);
    const csrf = inject("csrf")[session]!;
    const forged = await api("POST", `/en/candidates/${candidateId}`, {
      cookie: `${session}; ${csrf.cookie}`,
      body: new URLSearchParams({ intent: "promote", csrfToken: csrf.token }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
    });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("Not allowed");

    // The admin, without JavaScript: list, filter, promote with a confirmation step.
    const context = await signedIn(ADMIN, { javaScriptEnabled: false });
    const page = await open(context, `/en/candidates?status=NEW`);
    await page.locator("tbody tr", { hasText: name }).getByRole("link", { name }).click();
    await page.waitForURL(`${baseUrl()}/en/candidates/${candidateId}`);
    await page.getByRole("link", { name: "Promote to student" }).click();
    await page.getByText(`Promote ${name} to student?`).waitFor();
    await screenshot(page, "candidate-promote-confirm");
    await page.getByRole("button", { name: "Yes, promote" }).click();
    await page.waitForURL(/\/en\/students\/[^/]+$/);
    await page.getByText("Promoted to student.").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(name);
    const studentId = idFromUrl(page);
    expect((await api("GET", `/api/candidates/${candidateId}`, { as: ADMIN })).body.promotedStudentId).toBe(studentId);

    // The candidate's page now says where it went, and offers no second promotion.
    await page.goto(`${baseUrl()}/en/candidates/${candidateId}`);
    expect(await page.getByRole("link", { name: "Promote to student" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Open the student" }).getAttribute("href")).toBe(`/en/students/${studentId}`);
    await context.close();
  }, 120_000);

  it("given the pages in Spanish and Portuguese, should show them translated", async () => {
    const context = await signedIn(TEACHER, { javaScriptEnabled: false });
    const page = await open(context, "/es/students");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Estudiantes");
    await page.goto(`${baseUrl()}/pt-BR/candidates/new`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Novo candidato");
    expect(await page.getByRole("button", { name: "Criar candidato" }).count()).toBe(1);
    await context.close();
  }, 120_000);

  it(
    "given the list, form and detail pages on a desktop and a phone, should have no serious accessibility violations",
    async () => {
      const student = await api("POST", "/api/students", {
        as: ADMIN,
        json: { name: `Zoë Axe ${unique("a11y")}`, age: 11, grade: "5th", email: `${unique("a")}@example.test` },
      });
      const studentId = student.body.id as string;
      await completeFor(studentId, mediumAnswers(form));
      const candidate = await api("POST", "/api/candidates", { as: ADMIN, json: { name: `Ana Axe ${unique("a11y")}` } });
      for (const viewport of [DESKTOP, PHONE]) {
        const context = await signedIn(ADMIN, { viewport, bypassCSP: true });
        const label = viewport === DESKTOP ? "desktop" : "phone";
        for (const [pathname, shot] of [
          ["/en/students", "students-list"],
          ["/en/students/new", "student-form"],
          [`/en/students/${studentId}`, "student-detail-one-point"],
          [`/en/students/${studentId}/edit`, "student-edit"],
          ["/en/candidates", "candidates-list"],
          [`/en/candidates/${candidate.body.id}`, "candidate-detail"],
          [`/en/candidates/${candidate.body.id}?confirm=delete`, "candidate-delete-confirm"],
        ] as const) {
          const page = await open(context, pathname);
          expect(await seriousAccessibilityViolations(page), `${pathname} ${label}`).toEqual([]);
          await screenshot(page, `${shot}-${label}`);
          if (viewport === PHONE) {
            const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
            expect(scrollWidth, `${pathname} fits a phone`).toBeLessThanOrEqual(PHONE.width);
          }
          await page.close();
        }
        // The form with its errors showing.
        const page = await open(context, "/en/students/new");
        await page.getByLabel("Age", { exact: true }).fill("200");
        await page.getByRole("button", { name: "Create student" }).click();
        await page.getByText("Enter an age from 0 to 150.", { exact: true }).waitFor();
        expect(await seriousAccessibilityViolations(page), `form errors ${label}`).toEqual([]);
        await screenshot(page, `student-form-errors-${label}`);
        await context.close();
      }
    },
    ACCESSIBILITY_SCAN_TIMEOUT,
  );
});
