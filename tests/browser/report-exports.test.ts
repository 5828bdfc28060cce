import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * The reports page's form and group filters and its downloads, in Chromium with JavaScript off
 * (plain links) and on (the download shows its progress, then is saved). Screenshots go to
 * $SCREENSHOT_DIR.
 */
const browser = sharedBrowser();

describe("the reports page's downloads", () => {
  it.each([false, true])("given a form chosen in the filters (JavaScript %s), should download its results as XLSX and CSV", async (javaScriptEnabled) => {
    const teacher = await createSignedInUser("TEACHER");
    const as = (method: string, url: string, json?: unknown) => api(method, url, { cookie: teacher.cookie, ...(json === undefined ? {} : { json }) });
    const form = (await as("POST", "/api/forms", mixedForm(unique("Spelling")))).body;
    for (const name of ["Ana", "Bruno"]) {
      const student = (await as("POST", "/api/students", { name: unique(name) })).body;
      const link = (await as("POST", "/api/submissions", { formId: form.id, studentId: student.id })).body;
      const [q1, , q3] = form.questions;
      const answers = [
        { questionId: q1.id, optionIds: [q1.options[0].id] },
        { questionId: q3.id, optionIds: [q3.options[1].id] },
      ];
      expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers } })).status).toBe(200);
    }

    // bypassCSP only so axe can be injected.
    const context = await signedInContext(browser(), teacher.cookie, { javaScriptEnabled, bypassCSP: true, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/reports`);
    await page.getByLabel("Form", { exact: true }).selectOption({ label: form.title });
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/formId=/);
    expect(await page.locator("section[aria-label='Reports'] li, section[aria-label='Reports'] tbody tr").count()).toBeGreaterThan(0);
    if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `reports-export-js-${javaScriptEnabled}.png`);

    const [xlsx] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Excel (XLSX)" }).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/^reports-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync((await xlsx.path())!) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(3);
    // The answers' columns come after the result's own, the change over time last of them.
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.indexOf("1. Pick one")).toBe(header.indexOf("remission") + 1);

    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /^CSV \(commas\)/ }).click()]);
    const rows = parse(readFileSync((await csv.path())!, "utf8"), { bom: true }) as string[][];
    expect(rows).toHaveLength(3);
    expect(new Set(rows.slice(1).map((row) => row[4]))).toEqual(new Set([form.title]));
    if (javaScriptEnabled) expect(await page.getByRole("status").textContent()).toBe("");
    await context.close();
  });
});
