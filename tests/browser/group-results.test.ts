import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, PHONE, sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * A group's results on its page: each member's latest result per form in its band, the
 * spread of those latest results, and the way to the form's summary for the group. In Chromium on
 * a desktop and a phone; screenshots go to $SCREENSHOT_DIR.
 */
const browser = sharedBrowser();

describe("a group's results", () => {
  it("given members with results, one twice, should show each one's latest in its band and link to the form's summary for the group", async () => {
    const teacher = await createSignedInUser("TEACHER");
    const as = (method: string, url: string, json?: unknown) => api(method, url, { cookie: teacher.cookie, ...(json === undefined ? {} : { json }) });
    const form = (await as("POST", "/api/forms", mixedForm(unique("Weekly check")))).body;
    const group = (await as("POST", "/api/groups", { name: unique("Class 2A") })).body;
    const [ana, ben, cai] = await Promise.all(["Ana", "Ben", "Cai"].map(async (name) => (await as("POST", "/api/students", { name: unique(name) })).body));
    await as("POST", `/api/groups/${group.id}/members`, { studentIds: [ana.id, ben.id, cai.id] });
    const [q1, , q3] = form.questions;
    async function result(studentId: string, option: number, scale: number) {
      const link = (await as("POST", "/api/submissions", { formId: form.id, studentId })).body;
      const answers = [
        { questionId: q1.id, optionIds: [q1.options[option].id] },
        { questionId: q3.id, optionIds: [q3.options[scale].id] },
      ];
      expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers } })).status).toBe(200);
    }
    await result(ana.id, 1, 0); // -2: Low, then
    await result(ana.id, 0, 3); // 6: High, her latest
    await result(ben.id, 1, 2); // 0: Low
    await as("POST", "/api/submissions", { formId: form.id, studentId: cai.id }); // still waiting

    for (const viewport of [DESKTOP, PHONE]) {
      // bypassCSP only so axe can be injected.
      const context = await signedInContext(browser(), teacher.cookie, { viewport, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/groups/${group.id}`);
      const table = page.getByRole("table", { name: "Latest result of each member on each form" });
      expect(await table.getByRole("row", { name: new RegExp(`^${ana.name}`) }).textContent()).toContain("High");
      expect(await table.getByRole("row", { name: new RegExp(`^${ben.name}`) }).textContent()).toContain("Low");
      expect(await table.getByRole("row", { name: new RegExp(`^${cai.name}`) }).textContent()).toContain("No result yet");
      expect(await page.getByRole("img", { name: `Latest results on ${form.title} by band: Low 1, High 1.` }).count()).toBe(1);
      expect(await page.getByText("2 of 3 members have a result.").count()).toBe(1);
      expect(await seriousAccessibilityViolations(page), `at ${viewport.width}px`).toEqual([]);
      await screenshot(page, `group-results-${viewport === PHONE ? "phone" : "desktop"}.png`);
      if (viewport === DESKTOP) {
        await page.getByRole("link", { name: `Summary of ${form.title} for this group` }).click();
        await page.getByRole("img", { name: "Links by state: 3 completed, 1 waiting, 0 expired, 0 withdrawn." }).waitFor();
        expect(page.url()).toContain(`groupId=${group.id}`);
      }
      await context.close();
    }
  });
});
