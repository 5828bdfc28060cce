import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, PHONE, sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * A form's results summary page in Chromium, JavaScript off and on, on a desktop and a phone: the
 * links by state, the bands on their colours and each question's answers, as SVG with the numbers
 * as text; the group filter; nothing but the results when printed. Screenshots go to $SCREENSHOT_DIR.
 */
const browser = sharedBrowser();

describe("the form's results summary", () => {
  it.each([false, true])("given results in and out of a group (JavaScript %s), should draw them and filter by the group", async (javaScriptEnabled) => {
    const teacher = await createSignedInUser("TEACHER");
    const as = (method: string, url: string, json?: unknown) => api(method, url, { cookie: teacher.cookie, ...(json === undefined ? {} : { json }) });
    const form = (await as("POST", "/api/forms", mixedForm(unique("Reading summary")))).body;
    const group = (await as("POST", "/api/groups", { name: unique("Class 3C") })).body;
    const [q1, q2, q3] = form.questions;
    // [Q1 option, Q3 option, in the group]: totals 6 (High), -2 (Low), 5 (Medium).
    for (const [a, c, inGroup] of [
      [0, 3, true],
      [1, 0, true],
      [0, 2, false],
    ] as const) {
      const student = (await as("POST", "/api/students", { name: unique("Reader") })).body;
      if (inGroup) await as("POST", `/api/groups/${group.id}/members`, { studentIds: [student.id] });
      const link = (await as("POST", "/api/submissions", { formId: form.id, studentId: student.id })).body;
      const answers = [
        { questionId: q1.id, optionIds: [q1.options[a].id] },
        { questionId: q2.id, optionIds: [] },
        { questionId: q3.id, optionIds: [q3.options[c].id] },
      ];
      expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers } })).status).toBe(200);
    }
    const waiting = (await as("POST", "/api/students", { name: unique("Late") })).body;
    await as("POST", "/api/submissions", { formId: form.id, studentId: waiting.id });

    for (const viewport of [DESKTOP, PHONE]) {
      // bypassCSP only so axe can be injected.
      const context = await signedInContext(browser(), teacher.cookie, { viewport, javaScriptEnabled, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/forms/${form.id}`);
      await page.getByRole("link", { name: "Results summary" }).click();
      await page.getByRole("heading", { level: 1, name: `Results: ${form.title}` }).waitFor();
      // Without JavaScript the click loads a new document, parsed as it arrives: the heading can be
      // there before the tables below it, and count() does not wait.
      await page.waitForLoadState("load");
      // Read whole, so that a difference shows what the page said.
      const imageName = (start: string) => page.getByRole("img", { name: new RegExp(`^${start}`) }).getAttribute("aria-label");
      expect(await imageName("Links by state")).toBe("Links by state: 3 completed, 1 waiting, 0 expired, 0 withdrawn.");
      expect(await imageName("Completed results by band")).toBe("Completed results by band: Low 1, Medium 1, High 1.");
      const bands = page.getByRole("table", { name: "Completed results by band" });
      expect(await bands.getByRole("row").count()).toBe(4);
      expect(await bands.getByRole("row", { name: /Low/ }).textContent()).toContain("33.3%");
      const q3Answers = page.getByRole("table", { name: /^Answers to question 3:/ });
      expect(await q3Answers.getByRole("row", { name: /^3 1/ }).count()).toBe(1);
      if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page), `at ${viewport.width}px`).toEqual([]);
      const device = viewport === PHONE ? "phone" : "desktop";
      await screenshot(page, `form-summary-${device}-js-${javaScriptEnabled}.png`);

      if (viewport === DESKTOP) {
        await page.getByLabel("Group").selectOption({ label: group.name });
        await page.getByRole("button", { name: "Show" }).click();
        await page.waitForURL(/groupId=/);
        await page.getByRole("img", { name: "Links by state: 2 completed, 0 waiting, 0 expired, 0 withdrawn." }).waitFor();
        await page.emulateMedia({ media: "print" });
        expect(await page.getByRole("button", { name: "Show" }).isVisible()).toBe(false);
        expect(await page.getByRole("navigation").first().isVisible()).toBe(false);
        expect(await page.getByRole("img", { name: /^Links by state/ }).isVisible()).toBe(true);
      }
      await context.close();
    }
  });
});
