import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique, type DemoUser } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, launchBrowser, PHONE, signedInContext } from "../support/browser.ts";

/**
 * Where the focus goes, in real Chromium with JavaScript on: after a refused submit to
 * the error summary, in view, whose links take it to the field; into a confirmation when it opens
 * and back to what opened it when it closes. Without JavaScript, the page a refused post answers
 * starts at its summary.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const signedIn = (user: DemoUser, options: BrowserContextOptions = {}) => signedInContext(browser, sessionOf(user), { bypassCSP: true, ...options });

/** The focused element, described: its tag, id, name and whether it is the error summary. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const rect = element?.getBoundingClientRect();
    return {
      tag: element?.tagName.toLowerCase(),
      id: element?.id ?? "",
      name: element?.getAttribute("name") ?? "",
      summary: !!element?.matches('[role="alert"][tabindex="-1"]'),
      text: element?.textContent ?? "",
      inView: !!rect && rect.top >= 0 && rect.bottom <= window.innerHeight && rect.height > 0,
    };
  });

const hydrated = (page: Page) => page.waitForLoadState("networkidle");

describe("focus after a refused submit", () => {
  it("given the test page on a phone, should focus the error summary in view, and its link the unanswered question", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const { url } = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const required = form.questions.find((question) => question.required)!;
    const context = await browser.newContext({ viewport: PHONE, locale: "en", bypassCSP: true });
    const page = await context.newPage();
    await page.goto(url);
    await hydrated(page);
    // Scrolled to the button at the end of a long page: the summary above is out of view.
    await page.getByRole("button", { name: "Send answers" }).click();
    await expect.poll(async () => (await focused(page)).summary).toBe(true);
    const summary = await focused(page);
    expect(summary.text).toContain("Some answers need attention:");
    expect(summary.text).toContain("This question needs an answer.");
    expect(summary.inView).toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    const link = page.getByRole("alert").getByRole("link").first();
    expect(await link.getAttribute("href")).toBe(`#question-${required.id}`);
    await link.click();
    await expect.poll(() => page.evaluate((id) => !!document.activeElement?.closest(`#question-${id}`), required.id)).toBe(true);
    expect((await focused(page)).inView).toBe(true);
    await context.close();
  });

  it("given a new student with no name, should focus the summary, link to the name and focus it; without JavaScript the answer starts at the summary", async () => {
    const context = await signedIn("teacher@demo.test");
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/students/new`);
    await hydrated(page);
    await page.getByRole("button", { name: "Create student" }).click();
    await expect.poll(async () => (await focused(page)).summary).toBe(true);
    const summary = await focused(page);
    expect(summary.text).toContain("Name: Enter a name.");
    expect(summary.inView).toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Name: Enter a name." }).click();
    await expect.poll(async () => (await focused(page)).id).toBe("name");
    await context.close();

    const plain = await signedIn("teacher@demo.test", { javaScriptEnabled: false });
    const noScript = await plain.newPage();
    await noScript.goto(`${baseUrl()}/en/students/new`);
    await noScript.getByRole("button", { name: "Create student" }).click();
    await noScript.waitForLoadState();
    const alert = noScript.getByRole("alert");
    expect(await alert.getByRole("heading").textContent()).toBe("Some fields need attention.");
    expect(await alert.getByRole("link", { name: "Name: Enter a name." }).getAttribute("href")).toBe("#name");
    // The summary comes before the first field, and the page opens on it.
    expect(await noScript.evaluate(() => document.querySelector('[role="alert"]')!.compareDocumentPosition(document.getElementById("name")!))).toBe(4);
    await expect.poll(async () => (await focused(noScript)).summary).toBe(true);
    await plain.close();
  });
});

describe("focus in confirmations", () => {
  it("given a group's delete step, should move the focus into it when opened and back to its summary on Escape", async () => {
    const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Focus class") } });
    const context = await signedIn("teacher@demo.test");
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/groups/${group.body.id}`);
    await hydrated(page);
    const summary = page.locator("summary", { hasText: "Delete this group" });
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest("details[open]") && document.activeElement?.tagName !== "SUMMARY"))
      .toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("Yes, delete the group");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Delete this group");
    expect(await page.locator("details", { has: summary }).getAttribute("open")).toBeNull();
    await context.close();
  });

  it("given a student's delete confirmation, should take the focus when it opens and give it back to the Delete button on Escape", async () => {
    const student = await createStudent("admin@demo.test");
    const context = await signedIn("admin@demo.test");
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/students/${student.id}`);
    await hydrated(page);
    await page.getByRole("link", { name: "Delete", exact: true }).click();
    await page.waitForURL(/confirm=delete/);
    await expect.poll(async () => (await focused(page)).tag).toBe("section");
    expect((await focused(page)).text).toContain(`Delete ${student.name}?`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.waitForURL((url) => !url.search.includes("confirm"));
    await expect.poll(async () => (await focused(page)).id).toBe("delete-button");
    await context.close();
  });

  it("given a form's delete page, should open with the focus on its question", async () => {
    const form = await createForm("teacher@demo.test");
    const context = await signedIn("teacher@demo.test", { viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/forms/${form.id}/delete`);
    await hydrated(page);
    await expect.poll(async () => (await focused(page)).tag).toBe("section");
    expect((await focused(page)).text).toContain("Yes, delete");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});
