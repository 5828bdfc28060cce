import AxeBuilder from "axe-core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { launchBrowser } from "../support/browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function newAssignment() {
  const form = await createForm("teacher@demo.test");
  const student = await createStudent("teacher@demo.test", "Łukasz Wójcik");
  return assign("teacher@demo.test", { formId: form.id, studentId: student.id });
}

/** Answers the mixed form the way a person does: by the labels they read. */
async function answerMediumByLabel(page: Page) {
  await page.getByRole("radio", { name: "B" }).check();
  await page.getByRole("checkbox", { name: "two" }).check();
  await page.getByRole("checkbox", { name: "minus one" }).check();
  await page.getByRole("radio", { name: "2" }).check();
  await page.getByLabel(/Say something/).fill("Tudo bem, obrigado.");
}

async function seriousAccessibilityViolations(page: Page) {
  await page.addScriptTag({ content: AxeBuilder.source });
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }
    ).axe;
    return axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
  });
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

describe("the public test link in a real browser", () => {
  for (const javaScriptEnabled of [false, true]) {
    it(`given JavaScript ${javaScriptEnabled ? "on" : "off"} on a phone, should show errors by the question, keep answers, then complete once`, async () => {
      const assignment = await newAssignment();
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 390, height: 844 }, locale: "pt-BR" });
      const page = await context.newPage();
      await page.goto(assignment.url);
      expect(await page.textContent("body")).toContain("Hello, Łukasz Wójcik");

      // Leave the required scale question out: the error appears by it, the other answers stay.
      await page.getByRole("radio", { name: "B" }).check();
      await page.getByRole("checkbox", { name: "two" }).check();
      await page.getByRole("button", { name: "Send answers" }).click();
      await page.waitForSelector('[role="alert"]');
      expect(await page.getByRole("radio", { name: "B" }).isChecked()).toBe(true);
      expect(await page.getByRole("checkbox", { name: "two" }).isChecked()).toBe(true);
      const scaleGroup = page.getByRole("group", { name: /Rate it/ });
      expect(await scaleGroup.textContent()).toContain("This question needs an answer.");

      await answerMediumByLabel(page);
      await page.getByRole("button", { name: "Send answers" }).click();
      await page.getByRole("heading", { name: "Thank you" }).waitFor();
      // Reloading the end page never submits again.
      await page.reload();
      await page.getByRole("heading", { name: "Thank you" }).waitFor();
      await context.close();

      const report = await api("GET", `/api/reports/${assignment.id}`, { as: "teacher@demo.test" });
      expect(report.body).toMatchObject({ totalScore: 1, maxScore: 9.5, scoreLabel: "Medium" });
      expect(report.body.answers[3].text).toBe("Tudo bem, obrigado.");
    });
  }

  it("given the page and its error state, should have no serious or critical accessibility violations", async () => {
    const assignment = await newAssignment();
    // axe is injected as an inline script, which our Content-Security-Policy rightly forbids.
    const context = await browser.newContext({ javaScriptEnabled: true, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(assignment.url);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Send answers" }).click();
    await page.waitForSelector('[role="alert"]');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});
