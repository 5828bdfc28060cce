import { describe, expect, it } from "vitest";
import { baseUrl, sessionOf, unique } from "../support/api.ts";
import { assign, createForm, createStudent, mixedForm } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { PHONE, sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { testDatabase } from "../support/database.ts";

/**
 * A signed-in student on a phone (docs/api-contract.md §12): their home page lists the tests to answer, opens
 * one, and lists it as answered once sent; another student's test is not there. Chromium with
 * JavaScript off and on; screenshots go to $SCREENSHOT_DIR.
 */
const browser = sharedBrowser();

describe("the student's home page", () => {
  it.each([false, true])("given a pending test (JavaScript %s), should open it from home, complete it and list it as answered", async (javaScriptEnabled) => {
    const { id: studentId } = await testDatabase().student.findFirstOrThrow({ where: { user: { email: "student@demo.test" } }, select: { id: true } });
    const form = await createForm("teacher@demo.test", mixedForm(unique("Homework check")));
    await assign("teacher@demo.test", { formId: form.id, studentId });
    const someoneElse = await createStudent("teacher@demo.test", unique("Another pupil"));
    const othersForm = await createForm("teacher@demo.test", mixedForm(unique("Not for Mateo")));
    await assign("teacher@demo.test", { formId: othersForm.id, studentId: someoneElse.id });

    // bypassCSP only so axe can be injected.
    const context = await signedInContext(browser(), sessionOf("student@demo.test"), { viewport: PHONE, javaScriptEnabled, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/home`);
    const item = page.locator("li", { hasText: form.title });
    await item.waitFor();
    expect(await page.getByText(othersForm.title).count()).toBe(0);
    if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `student-home-js-${javaScriptEnabled}.png`);

    await item.getByRole("link", { name: /Open the test/ }).click();
    await page.getByRole("heading", { name: form.title }).waitFor();
    await page.getByRole("radio", { name: "B" }).check();
    await page.getByRole("checkbox", { name: "two" }).check();
    await page.getByRole("radio", { name: "2", exact: true }).check();
    await page.getByRole("button", { name: "Send answers" }).click();
    await page.getByText("Your answers have been received").waitFor();

    await page.goto(`${baseUrl()}/en/home`);
    const done = page.locator("li", { hasText: form.title });
    await done.getByText("Answered").waitFor();
    expect(await done.getByRole("link", { name: /Open the test/ }).count()).toBe(0);
    await context.close();
  });
});
