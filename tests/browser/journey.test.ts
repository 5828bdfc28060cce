import { readFileSync } from "node:fs";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, freshIp, sessionOf, unique } from "../support/api.ts";
import { completeMedium, mixedForm } from "../support/assessment.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, launchBrowser, PHONE, signedInContext, screenshot } from "../support/browser.ts";
import { edit, field, fillOptions, intent } from "../support/form-editor.ts";
import { createSignedInUser } from "../support/fixtures.ts";
import { mailTo, waitForMail } from "../support/mail.ts";
import { enableTotp, totpCode } from "../support/two-factor.ts";

/**
 * The whole day of a teacher in real Chromium, end to end through the pages: sign in with TOTP,
 * build a form with every question type and three coloured bands, publish it, create a student,
 * assign the test, the respondent completes the link (a separate context, JavaScript off), the
 * result with its band on the student's page and in reports, the PDF; then an administrator
 * promotes a candidate and deletes the student after confirming. Once with the teacher's
 * JavaScript on, once off. With JavaScript on, axe-core also checks every page on the way.
 * Then the pages no other browser test runs axe on (the code step, password pages' other states,
 * 403/404, the OpenID error page, confirmations). Screenshots (desktop and phone) go to
 * $SCREENSHOT_DIR/journey-* (default <tmp>/assessment-screenshots), never the repository.
 */
/** Whole journeys through a real browser on a busy machine. */
const LONG = 180_000;
const BANDS = [
  { label: "Low", min: "-5", max: "0.5", color: "#b42318" },
  { label: "Medium", min: "0.75", max: "5", color: "#b54708" },
  { label: "High", min: "5.5", max: "9.5", color: "#1a7f37" },
] as const;
const MEDIUM = "#b54708";

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const withCookie = (cookie: string, options: BrowserContextOptions = {}) => signedInContext(browser, cookie, options);

const today = () => new Date().toISOString().slice(0, 10);
const idFromUrl = (page: Page) => new URL(page.url()).pathname.split("/")[3]!;

/** The page at desktop and phone widths, full length, as journey-<name>-<mode>-{desktop,phone}.png. */
async function shots(page: Page, name: string) {
  const original = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `journey-${name}-desktop`);
  await page.setViewportSize(PHONE);
  await screenshot(page, `journey-${name}-phone`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} fits a phone`).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize(original);
}

/** axe on the page as it is, when the context runs scripts (and bypasses the CSP for the injection). */
async function axe(page: Page, enabled: boolean, what: string) {
  if (enabled) expect(await seriousAccessibilityViolations(page), what).toEqual([]);
}

/** Single choice {3, -2}, multiple choice {2, -1, 1.5}, scale 0–3, text; max 9.5; three bands. */
async function buildForm(page: Page, title: string) {
  await field(page, "title").fill(title);
  await field(page, "description").fill("Five minutes about reading at home.");
  await field(page, "category").fill("Screening");
  await field(page, "type").fill("Questionnaire");
  await field(page, "targetAudience").fill("Grade 5");
  await field(page, "questions[0].text").fill("Pick one");
  await field(page, "questions[0].type").selectOption("SINGLE_CHOICE");
  await fillOptions(page, 0, [
    ["A", "3"],
    ["B", "-2"],
  ]);
  await field(page, "questions[0].required").check();

  await edit(page, "add-question", "questions[1].text");
  await field(page, "questions[1].text").fill("Pick any");
  await field(page, "questions[1].type").selectOption("MULTIPLE_CHOICE");
  await edit(page, "add-option:1", "questions[1].options[2].text");
  await fillOptions(page, 1, [
    ["two", "2"],
    ["minus one", "-1"],
    ["one and a half", "1.5"],
  ]);

  await edit(page, "add-question", "questions[2].text");
  await field(page, "questions[2].text").fill("Rate it");
  await field(page, "questions[2].type").selectOption("SCALE");
  // A scale by its range: its points are numbered and scored 0 to 3 without typing each one.
  await field(page, "questions[2].scale.min").fill("0");
  await field(page, "questions[2].scale.max").fill("3");
  await field(page, "questions[2].required").check();

  await edit(page, "add-question", "questions[3].text");
  await field(page, "questions[3].text").fill("Say something");
  await field(page, "questions[3].type").selectOption("TEXT");

  for (let i = 0; i < BANDS.length; i++) await edit(page, "add-range", `scoreRanges[${i}].label`);
  for (const [i, band] of BANDS.entries()) {
    await field(page, `scoreRanges[${i}].label`).fill(band.label);
    await field(page, `scoreRanges[${i}].min`).fill(band.min);
    await field(page, `scoreRanges[${i}].max`).fill(band.max);
    await field(page, `scoreRanges[${i}].color`).fill(band.color);
  }
}

/** The band's badge: its label on a rectangle of the band's colour, with white text. */
async function expectBadge(scope: ReturnType<Page["locator"]>, label: string, color: string) {
  const badge = scope.getByText(label, { exact: true }).first();
  expect((await badge.locator("rect").getAttribute("fill"))?.toLowerCase()).toBe(color);
  expect(await badge.evaluate((element) => getComputedStyle(element).color)).toBe("rgb(255, 255, 255)");
}

describe("the teacher's and the administrator's journey", () => {
  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? "js" : "nojs";
    it(`given JavaScript ${javaScriptEnabled ? "on" : "off"} for the teacher, should sign in with TOTP, build, assign, see the result and its PDF; an admin promotes and deletes`, {
      timeout: LONG,
    }, async () => {
      // A fresh teacher with an authenticator app.
      const teacher = await createSignedInUser("TEACHER");
      const otpauth = await enableTotp(teacher);
      // axe needs scripts and a CSP bypass; without JavaScript the context stays as a person's would.
      const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled, bypassCSP: javaScriptEnabled });
      const page = await context.newPage();

      // 1. Sign in: e-mail and password, then the code step.
      await page.goto(`${baseUrl()}/en/login`);
      await axe(page, javaScriptEnabled, "login");
      await shots(page, `login-${mode}`);
      await page.getByLabel("E-mail").fill(teacher.email);
      await page.getByLabel("Password").fill(teacher.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Enter your code" }).waitFor();
      expect(await page.locator("main, body").first().textContent()).toContain(`Signing in as ${teacher.email}`);
      // The password never reaches the second step's HTML.
      expect(await page.content()).not.toContain(teacher.password);
      await axe(page, javaScriptEnabled, "login code step");
      await shots(page, `login-code-${mode}`);
      await page.getByLabel("Authenticator code").fill(await totpCode(otpauth));
      await page.getByRole("button", { name: "Verify and sign in" }).click();
      await page.waitForURL(`${baseUrl()}/en/home`);
      // With JavaScript the URL changes before the new page renders: wait for its heading.
      await page.getByRole("heading", { level: 1, name: `Welcome, ${teacher.profile.name}` }).waitFor();
      expect((await context.cookies(baseUrl())).map((c) => c.name)).toContain("remix-auth.session-token");
      await axe(page, javaScriptEnabled, "home");
      await shots(page, `home-${mode}`);

      // 2. A form with every question type and three coloured bands, through the editor.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Forms" }).click();
      await page.waitForURL(`${baseUrl()}/en/forms`);
      await axe(page, javaScriptEnabled, "forms");
      await page.getByRole("link", { name: "New form" }).first().click();
      await page.waitForURL(`${baseUrl()}/en/forms/new`);
      const title = `Reading screening ${unique(mode)}`;
      await buildForm(page, title);
      if (!javaScriptEnabled) await intent(page, "preview").click();
      const preview = page.getByTestId("band-preview");
      await preview.getByText("High").waitFor();
      expect(await preview.locator("rect").evaluateAll((rects) => rects.map((r) => r.getAttribute("fill")?.toLowerCase()))).toEqual(BANDS.map((b) => b.color));
      await axe(page, javaScriptEnabled, "forms editor (new)");
      await shots(page, `form-editor-${mode}`);
      await page.getByRole("button", { name: "Create the form" }).click();
      await page.waitForURL(/\/en\/forms\/[a-z0-9]+$/);
      await page.getByText("The form is created.").waitFor();
      const formId = idFromUrl(page);
      await page.getByRole("button", { name: "Publish" }).click();
      await page.getByText("The form is published.").waitFor();
      await page.getByRole("button", { name: "Unpublish" }).waitFor();
      await axe(page, javaScriptEnabled, "forms editor (saved)");
      await shots(page, `form-published-${mode}`);
      const saved = await api("GET", `/api/forms/${formId}`, { cookie: teacher.cookie });
      expect(saved.body).toMatchObject({ isPublished: true, category: "Screening", type: "Questionnaire", targetAudience: "Grade 5" });
      expect(saved.body.questions.map((q: any) => [q.text, q.type, q.options.length])).toEqual([
        ["Pick one", "SINGLE_CHOICE", 2],
        ["Pick any", "MULTIPLE_CHOICE", 3],
        ["Rate it", "SCALE", 4],
        ["Say something", "TEXT", 0],
      ]);
      expect(saved.body.scoreRanges.map((r: any) => [r.label, r.min, r.max, r.color.toLowerCase()])).toEqual(
        BANDS.map((b) => [b.label, Number(b.min), Number(b.max), b.color]),
      );

      // 3. A student with an accented name, then the assignment and its private link.
      const suffix = unique(mode).toLowerCase();
      const name = `Ágata Núñez ${suffix}`;
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Students" }).click();
      await page.waitForURL(`${baseUrl()}/en/students`);
      await page.getByRole("link", { name: "New student" }).click();
      await page.waitForURL(`${baseUrl()}/en/students/new`);
      await page.getByLabel(/^Name/).fill(name);
      await page.getByLabel("Age", { exact: true }).fill("11");
      await page.getByLabel("Grade", { exact: true }).fill("5th");
      await axe(page, javaScriptEnabled, "student form");
      await page.getByRole("button", { name: "Create student" }).click();
      await page.waitForURL(/\/en\/students\/[^/]+$/);
      await page.getByText("Created.").waitFor();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(name);
      const studentId = idFromUrl(page);
      expect(await page.locator("section#history").textContent()).toContain("No tests taken yet.");

      await page.goto(`${baseUrl()}/en/assignments/new`);
      await page.getByRole("heading", { level: 1, name: "Assign a test" }).waitFor();
      await page.getByLabel("Find a student or candidate").fill(`agata nunez ${suffix}`);
      await page.getByRole("search").getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/\/en\/assignments\/new\?q=/);
      await page.waitForFunction(() => document.querySelectorAll("#respondent option").length === 2);
      await page.getByLabel(/^Form/).selectOption({ label: title });
      await page.getByLabel(/^Respondent/).selectOption({ label: name });
      await axe(page, javaScriptEnabled, "assign");
      await shots(page, `assign-${mode}`);
      await page.getByRole("button", { name: "Assign", exact: true }).click();
      await page.waitForURL(/\/en\/assignments\/(?!new)[^/?]+$/);
      const assignmentId = page.url().split("/").pop()!;
      await page.getByRole("heading", { level: 1, name: "Test assigned" }).waitFor();
      const link = await page.getByRole("textbox", { name: `Test link for ${name}` }).inputValue();
      expect(link).toMatch(/\/en\/test\/[A-Za-z0-9_-]{43}$/);
      await axe(page, javaScriptEnabled, "assignment confirmation");
      await shots(page, `assigned-${mode}`);

      // 4. The respondent: another browser context, no JavaScript, no session.
      const respondent = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
      const answerPage = await respondent.newPage();
      await answerPage.goto(link);
      expect(await answerPage.textContent("body")).toContain(`Hello, ${name}`);
      expect(await answerPage.getByRole("heading", { level: 1 }).textContent()).toBe(title);
      await shots(answerPage, `test-link-${mode}`);
      await answerPage.getByRole("radio", { name: "B" }).check();
      await answerPage.getByRole("checkbox", { name: "two" }).check();
      await answerPage.getByRole("checkbox", { name: "minus one" }).check();
      await answerPage.getByRole("radio", { name: "2" }).check();
      await answerPage.getByLabel(/Say something/).fill("Leo con mi abuela, ¡y me encanta!");
      await answerPage.getByRole("button", { name: "Send answers" }).click();
      await answerPage.getByRole("heading", { name: "Thank you" }).waitFor();
      await shots(answerPage, `test-done-${mode}`);
      await respondent.close();

      // 5. The result: on the student's page (table and chart), in reports, the detail, the PDF.
      await page.goto(`${baseUrl()}/en/students/${studentId}`);
      const history = page.locator("section#history tbody tr");
      expect(await history.count()).toBe(1);
      expect(await page.locator("section#history h3").first().textContent()).toContain(title);
      expect(await history.first().textContent()).toContain("1 of 9.5");
      await expectBadge(history.first(), "Medium", MEDIUM);
      const chart = page.getByTestId("history-chart-wide");
      expect(await chart.locator("circle").evaluateAll((circles) => circles.map((c) => c.getAttribute("fill")?.toLowerCase()))).toEqual([MEDIUM]);
      expect(await page.locator("figcaption").textContent()).toContain("One result");
      // A close-up of the chart, which a full-page phone shot shrinks too far to judge.
      await screenshot(chart, `journey-student-chart-${mode}.png`, { fullPage: false });
      await axe(page, javaScriptEnabled, "student detail");
      await shots(page, `student-${mode}`);

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
      await page.waitForURL(`${baseUrl()}/en/reports`);
      await page.getByLabel("Search by respondent or form").fill(`AGATA NUNEZ ${suffix}`);
      await page.getByLabel("From").fill(today());
      await page.getByLabel("To").fill(today());
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/\/en\/reports\?.*from=/);
      await page.waitForFunction(() => document.querySelectorAll("table tbody tr").length === 1);
      const reportRow = page.locator("table tbody tr", { hasText: name });
      expect(await reportRow.textContent()).toContain(title);
      expect(await reportRow.textContent()).toContain("1 of 9.5");
      await expectBadge(reportRow, "Medium", MEDIUM);
      await axe(page, javaScriptEnabled, "reports");
      await shots(page, `reports-${mode}`);

      await reportRow.getByRole("link", { name }).click();
      await page.waitForURL(`${baseUrl()}/en/reports/${assignmentId}`);
      await page.getByRole("heading", { level: 1, name }).waitFor();
      await expectBadge(page.locator("section#summary"), "Medium", MEDIUM);
      expect(await page.locator("section#bands svg[role=img] rect").evaluateAll((rects) => rects.map((r) => r.getAttribute("fill")?.toLowerCase()))).toEqual(
        BANDS.map((b) => b.color),
      );
      const answers = page.locator("section#answers li");
      expect(await answers.count()).toBe(4);
      expect(await answers.nth(3).textContent()).toContain("Leo con mi abuela, ¡y me encanta!");
      await axe(page, javaScriptEnabled, "report detail");
      await shots(page, `report-detail-${mode}`);
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^report-ágata-núñez-${suffix}-${today()}\\.pdf$`));
      expect(
        readFileSync((await download.path())!)
          .subarray(0, 5)
          .toString("latin1"),
      ).toBe("%PDF-");

      // Signing out ends the teacher's session.
      await page.goto(`${baseUrl()}/en/home`);
      await page.locator("header details:has(button:text-is('Sign out')) > summary >> visible=true").first().click();
      await page.locator("header button:text-is('Sign out') >> visible=true").first().click();
      await page.waitForURL(`${baseUrl()}/en/login`);
      await context.close();

      // 6. The administrator: promote a candidate, then delete the student after confirming.
      const candidateName = `Iñès Gonçalves ${suffix}`;
      const candidate = await api("POST", "/api/candidates", { as: "admin@demo.test", json: { name: candidateName, age: 14 } });
      expect(candidate.status, candidate.text).toBe(201);
      const admin = await withCookie(sessionOf("admin@demo.test"), { javaScriptEnabled, bypassCSP: javaScriptEnabled });
      const adminPage = await admin.newPage();
      await adminPage.goto(`${baseUrl()}/en/candidates`);
      await adminPage.getByRole("searchbox", { name: "Search by name" }).fill(candidateName);
      await adminPage.getByLabel("Status", { exact: true }).selectOption("NEW");
      await adminPage.getByRole("button", { name: "Search" }).click();
      await adminPage.waitForURL(/status=NEW/);
      await adminPage.locator("tbody tr", { hasText: candidateName }).getByRole("link", { name: candidateName }).click();
      await adminPage.waitForURL(`${baseUrl()}/en/candidates/${candidate.body.id}`);
      await adminPage.getByRole("link", { name: "Promote to student" }).click();
      await adminPage.getByText(`Promote ${candidateName} to student?`).waitFor();
      await axe(adminPage, javaScriptEnabled, "promote confirmation");
      await shots(adminPage, `promote-confirm-${mode}`);
      await adminPage.getByRole("button", { name: "Yes, promote" }).click();
      await adminPage.waitForURL(/\/en\/students\/[^/]+$/);
      await adminPage.getByText("Promoted to student.").waitFor();
      expect(await adminPage.getByRole("heading", { level: 1 }).textContent()).toBe(candidateName);
      expect((await api("GET", `/api/candidates/${candidate.body.id}`, { as: "admin@demo.test" })).body.promotedStudentId).toBe(idFromUrl(adminPage));

      await adminPage.goto(`${baseUrl()}/en/students/${studentId}`);
      await adminPage.getByRole("link", { name: "Delete" }).click();
      await adminPage.getByText(`Delete ${name}?`).waitFor();
      await axe(adminPage, javaScriptEnabled, "student delete confirmation");
      await shots(adminPage, `delete-confirm-${mode}`);
      await adminPage.getByRole("button", { name: "Yes, delete" }).click();
      await adminPage.waitForURL(`${baseUrl()}/en/students`);
      await adminPage.getByText("Deleted.").waitFor();
      expect((await api("GET", `/api/students/${studentId}`, { as: "admin@demo.test" })).status).toBe(404);
      await admin.close();
    });
  }
});

describe("accessibility of the pages the other browser tests do not check", () => {
  it("given the second-factor step, the password pages' other states, 403, 404 and the OpenID error page, should have no serious violations", {
    timeout: ACCESSIBILITY_SCAN_TIMEOUT,
  }, async () => {
    const user = await createSignedInUser("TEACHER");
    await enableTotp(user);
    for (const [label, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      // A fresh client address per run: the password pages limit requests per address.
      const anonymous = await browser.newContext({ viewport, bypassCSP: true, extraHTTPHeaders: { "x-forwarded-for": freshIp() } });
      const page = await anonymous.newPage();

      await page.goto(`${baseUrl()}/en/login`);
      await page.getByLabel("E-mail").fill(user.email);
      await page.getByLabel("Password").fill(user.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Enter your code" }).waitFor();
      expect(await seriousAccessibilityViolations(page), `code step ${label}`).toEqual([]);
      // A wrong code: the error by the field.
      await page.getByLabel("Authenticator code").fill("12");
      await page.getByRole("button", { name: "Verify and sign in" }).click();
      await page.locator("#code[aria-invalid=true]").waitFor();
      expect(await seriousAccessibilityViolations(page), `code step error ${label}`).toEqual([]);
      await screenshot(page, `journey-a11y-code-error-${label}.png`);

      // Forgot password, sent; then the reset page with a real link.
      await page.goto(`${baseUrl()}/en/forgot-password`);
      await page.getByLabel("E-mail").fill(user.email);
      const seen = (await mailTo(user.email)).length;
      await page.getByRole("button", { name: "Send me a link" }).click();
      await page.getByText("If an account uses this address").waitFor();
      expect(await seriousAccessibilityViolations(page), `forgot password sent ${label}`).toEqual([]);
      const mail = await waitForMail(user.email, seen);
      const resetLink = /https?:\/\/\S*reset-password\?token=[^\s"<>)]+/.exec(mail.text)?.[0];
      expect(resetLink, mail.text).toBeTruthy();
      const resetPath = new URL(resetLink!).pathname + new URL(resetLink!).search;
      const reset = await page.goto(`${baseUrl()}${resetPath}`);
      expect(reset?.status()).toBe(200);
      await page.getByRole("button", { name: "Save the new password" }).waitFor();
      expect(await seriousAccessibilityViolations(page), `reset password form ${label}`).toEqual([]);
      await page.getByRole("button", { name: "Save the new password" }).click();
      await page.locator("[aria-invalid=true]").first().waitFor();
      expect(await seriousAccessibilityViolations(page), `reset password errors ${label}`).toEqual([]);
      await screenshot(page, `journey-a11y-reset-${label}.png`);

      // The OpenID error page, the friendly 404 (with and without a locale), the test link once
      // answered ("Thank you") and an unknown one.
      const answered = await completeMedium("teacher@demo.test", `Łukasz Axe ${unique("t")}`);
      for (const [pathname, status] of [
        [new URL(answered.assignment.url).pathname, 200],
        ["/en/login/oidc-error?reason=state", 400],
        ["/en/login/oidc-error?reason=no-account", 403],
        ["/en/no-such-page", 404],
        ["/no-such-page", 404],
        ["/en/test/not-a-real-token", 404],
      ] as const) {
        const response = await page.goto(`${baseUrl()}${pathname}`);
        expect(response?.status(), pathname).toBe(status);
        expect(await page.textContent("body"), pathname).not.toMatch(/^\s*[{[]/);
        if (status === 200) await page.getByRole("heading", { name: "Thank you" }).waitFor();
        expect(await seriousAccessibilityViolations(page), `${pathname} ${label}`).toEqual([]);
        await screenshot(page, `journey-a11y-${status === 200 ? "test-done" : pathname.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}-${label}.png`);
      }
      await anonymous.close();

      // Signed in: 403, 404 inside the shell, and the confirmations and forms no other test checks.
      const form = await api("POST", "/api/forms", { as: "admin@demo.test", json: mixedForm(unique("Axe delete")) });
      const candidate = await api("POST", "/api/candidates", { as: "admin@demo.test", json: { name: `Ana Axe ${unique("c")}` } });
      const student = await api("POST", "/api/students", { as: "admin@demo.test", json: { name: `Zoë Axe ${unique("s")}` } });
      const teacher = await withCookie(sessionOf("teacher@demo.test"), { viewport, bypassCSP: true });
      const teacherPage = await teacher.newPage();
      for (const [pathname, status] of [
        ["/en/admin/users", 403],
        ["/en/forms/not-a-form-id", 404],
      ] as const) {
        const response = await teacherPage.goto(`${baseUrl()}${pathname}`);
        expect(response?.status(), pathname).toBe(status);
        expect(await teacherPage.getByRole("heading", { level: 1 }).textContent()).toBe(status === 403 ? "Not allowed" : "Page not found");
        expect(await seriousAccessibilityViolations(teacherPage), `${pathname} ${label}`).toEqual([]);
        await screenshot(teacherPage, `journey-a11y-${status}-${label}.png`);
      }
      await teacher.close();
      const admin = await withCookie(sessionOf("admin@demo.test"), { viewport, bypassCSP: true });
      const adminPage = await admin.newPage();
      for (const pathname of [
        `/en/forms/${form.body.id}/delete`,
        "/en/candidates/new",
        `/en/candidates/${candidate.body.id}/edit`,
        `/en/candidates/${candidate.body.id}?confirm=promote`,
        `/en/students/${student.body.id}?confirm=delete`,
      ]) {
        const response = await adminPage.goto(`${baseUrl()}${pathname}`);
        expect(response?.status(), pathname).toBe(200);
        expect(await seriousAccessibilityViolations(adminPage), `${pathname} ${label}`).toEqual([]);
      }
      await admin.close();
    }
  });
});
