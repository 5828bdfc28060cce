import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, baseUrl } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { PHONE, screenshot, sharedBrowser, signedInContext } from "../support/browser.ts";
import { createOrganization } from "../support/fixtures.ts";

/**
 * The retention policy and the privacy notice in Chromium (docs/api-contract.md §21, ADR 89): an
 * administrator sets both on the settings page with JavaScript, and a respondent reads the notice
 * folded at the foot of the test on a phone. The page without JavaScript is tests/pages/privacy-notice.test.ts.
 */
const browser = sharedBrowser();

const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor({ state: "attached" });

describe("data protection in the browser", () => {
  it("given an administrator with JavaScript, should refuse a policy without months, then save the policy and the notice", async () => {
    const organization = await createOrganization("Careful academy");
    // bypassCSP only so axe can be injected.
    const context = await signedInContext(browser(), organization.admin, { bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/admin/organization`);
    await hydrated(page);
    await page.getByLabel("After that time").selectOption("DELETE");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Give a number of months for results, for inactive people, or both.").first().waitFor();
    await page.getByLabel("Results, in months").fill("24");
    await page.getByLabel("Español").fill("Guardamos tus respuestas dos años.");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("The settings are saved.").waitFor();
    expect(await page.getByLabel("Results, in months").inputValue()).toBe("24");
    expect(await page.getByLabel("After that time").inputValue()).toBe("DELETE");
    await page.getByTestId("retention-preview").waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, "settings-data-protection");
    expect((await api("GET", "/api/organization", { cookie: organization.admin })).body).toMatchObject({
      retention: { resultsMonths: 24, inactivePeopleMonths: null, action: "DELETE" },
      privacyNotice: { es: "Guardamos tus respuestas dos años." },
    });
    await context.close();
  });

  it("given a respondent on a phone, should show the notice folded under its title in their language, and open it", async () => {
    const organization = await createOrganization("Noticing academy");
    await api("PUT", "/api/organization", { cookie: organization.admin, json: { privacyNotice: { es: "Guardamos tus respuestas dos años." } } });
    const form = (await api("POST", "/api/forms", { cookie: organization.teacher, json: mixedForm() })).body;
    const student = (await api("POST", "/api/students", { cookie: organization.teacher, json: { name: "Lucía" } })).body;
    const link = (await api("POST", "/api/submissions", { cookie: organization.teacher, json: { formId: form.id, studentId: student.id } })).body;
    const context = await browser().newContext({ viewport: PHONE, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/es/test/${link.token}`);
    await hydrated(page);
    const notice = page.getByTestId("privacy-notice");
    const text = notice.getByText("Guardamos tus respuestas dos años.");
    expect(await text.isVisible()).toBe(false);
    await notice.getByText("Aviso de privacidad").click();
    await text.waitFor();
    // Never wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, "test-page-privacy-notice-phone");
    await context.close();
  });
});
