import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, signIn, unique } from "../support/api.ts";
import { mediumAnswers, mixedForm, type CreatedForm } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, launchBrowser, PHONE, screenshot } from "../support/browser.ts";
import { createSignedInUser, type CreatedUser } from "../support/fixtures.ts";

/**
 * The signed-in shell and the home page in real Chromium, with and without JavaScript, on a
 * desktop and a phone. A teacher of its own keeps the numbers exact while other files run.
 * Screenshots go to $SCREENSHOT_DIR (default: <tmp>/assessment-screenshots), never the repository.
 */

let browser: Browser;
let teacher: CreatedUser;
let form: CreatedForm;
let pending: { id: string; url: string };
const pendingName = `Łukasz Wójcik ${unique("p")}`;
const completedName = `Zoë Ørsted ${unique("c")}`;

beforeAll(async () => {
  browser = await launchBrowser();
  teacher = await createSignedInUser("TEACHER");
  const as = { cookie: teacher.cookie };
  form = (await api("POST", "/api/forms", { ...as, json: mixedForm(`Reading screening ${unique("f")}`) })).body;
  const respondent = async (name: string) => (await api("POST", "/api/students", { ...as, json: { name } })).body.id as string;
  const assign = async (studentId: string) => (await api("POST", "/api/submissions", { ...as, json: { formId: form.id, studentId } })).body;
  pending = await assign(await respondent(pendingName));
  const done = await assign(await respondent(completedName));
  const submitted = await api("POST", `/api/test-link/${done.token}/submit`, { json: mediumAnswers(form) });
  expect(submitted.status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
});

/** A browser context signed in with `cookie` (set directly, as the sign-in page would). */
async function signedIn(cookie: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const [name, ...value] = cookie.split("=");
  await context.addCookies([{ name: name!, value: value.join("="), url: baseUrl() }]);
  return context;
}

async function open(context: BrowserContext, pathname: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl()}${pathname}`);
  return page;
}

const countOf = async (page: Page, label: string) => (await page.locator(`dl > div:has(dt:text-is("${label}")) dd`).textContent())?.trim();

describe("the app shell and the home page", () => {
  it("given a teacher, should show the pending assignments, recent results, counts and quick actions", async () => {
    const context = await signedIn(teacher.cookie);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    const page = await open(context, "/en/home");

    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Welcome, ${teacher.profile.name}`);
    for (const name of ["Quick actions", "Pending assignments", "Recent results"]) {
      expect(await page.getByRole("heading", { level: 2, name }).isVisible(), name).toBe(true);
    }
    expect(await countOf(page, "Pending tests")).toBe("1");
    expect(await countOf(page, "Completed this month")).toBe("1");
    // Counts are formatted ("1,024" once the suite's other files have added a thousand students).
    const asNumber = (text: string | undefined) => Number(text?.replace(/\D/g, ""));
    expect(asNumber(await countOf(page, "Forms"))).toBeGreaterThanOrEqual(1);
    expect(asNumber(await countOf(page, "Students"))).toBeGreaterThanOrEqual(2);

    // The pending assignment, with its link ready to copy.
    const pendingSection = page.locator("section#pending");
    expect(await pendingSection.textContent()).toContain(pendingName);
    expect(await pendingSection.textContent()).toContain(form.title);
    const link = pendingSection.getByRole("textbox", { name: new RegExp(`Test link for ${pendingName}`) });
    expect(await link.inputValue()).toBe(pending.url);
    expect(await link.getAttribute("readonly")).not.toBeNull();
    await pendingSection.getByRole("button", { name: /^Copy/ }).click();
    await pendingSection.getByRole("button", { name: /^Copied/ }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pending.url);

    // The completed one, with its band label on the band's colour.
    const recent = page.locator("section#recent");
    expect(await recent.textContent()).toContain(completedName);
    const badge = recent.locator("li", { hasText: completedName }).getByText("Medium", { exact: true });
    expect(await badge.locator("rect").getAttribute("fill")).toBe("#B54708");
    expect(await badge.evaluate((element) => getComputedStyle(element).color)).toBe("rgb(255, 255, 255)");

    const quick = page.locator("section", { has: page.getByRole("heading", { name: "Quick actions" }) });
    const quickLinks = await quick.getByRole("link").evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute("href")]));
    expect(quickLinks).toEqual([
      ["Assign a test", "/en/assignments/new"],
      ["New form", "/en/forms/new"],
      ["New student", "/en/students/new"],
      ["Reports", "/en/reports"],
    ]);

    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link").allTextContents()).toEqual([
      "Home",
      "Forms",
      "Library",
      "Students",
      "Candidates",
      "Groups",
      "Assignments",
      "Schedules",
      "Reports",
    ]);
    expect(await nav.getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBe("page");

    await screenshot(page, "home-desktop");
    await context.close();
  });

  it("given the language switcher, should move to Spanish and remember the choice", async () => {
    const context = await signedIn(teacher.cookie);
    const page = await open(context, "/en/home");
    await page.locator("summary", { hasText: "Language: English" }).click();
    await page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "Español" }).click();
    await page.waitForURL(`${baseUrl()}/es/home`);
    await page.getByRole("heading", { level: 1, name: `Hola, ${teacher.profile.name}` }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    expect(await page.getByRole("navigation", { name: "Principal" }).getByRole("link").first().textContent()).toBe("Inicio");
    expect(await page.locator("section#pending h2").textContent()).toBe("Asignaciones pendientes");
    expect(await countOf(page, "Pruebas pendientes")).toBe("1");
    expect((await context.cookies()).find((cookie) => cookie.name === "locale")?.value).toBe("es");
    await screenshot(page, "home-es-desktop");

    // Next time, the start page opens in Spanish.
    await page.goto(`${baseUrl()}/`);
    expect(page.url()).toBe(`${baseUrl()}/es/home`);
    await context.close();
  });

  it("given JavaScript off on a phone, should open the menu, navigate, switch language and sign out", async () => {
    const session = await signIn(teacher.email, teacher.password);
    const context = await signedIn(session, { javaScriptEnabled: false, viewport: PHONE });
    const page = await open(context, "/en/home");
    const menu = page.locator("details", { has: page.locator("summary", { hasText: "Menu" }) });
    const phoneNav = menu.getByRole("navigation", { name: "Main" });
    expect(await page.locator("header nav[aria-label=Main]").first().isVisible()).toBe(false);
    expect(await phoneNav.isVisible()).toBe(false);

    await menu.locator("summary").click();
    expect(await phoneNav.isVisible()).toBe(true);
    await screenshot(page, "home-phone-menu");
    await phoneNav.getByRole("link", { name: "Reports" }).click();
    await page.waitForURL(`${baseUrl()}/en/reports`);

    await page.goto(`${baseUrl()}/en/home`);
    await menu.locator("summary").click();
    await menu.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "Português (Brasil)" }).click();
    await page.waitForURL(`${baseUrl()}/pt-BR/home`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Olá, ${teacher.profile.name}`);

    await menu.locator("summary").click();
    await menu.getByRole("button", { name: "Sair" }).click();
    await page.waitForURL(`${baseUrl()}/pt-BR/login`);
    await page.goto(`${baseUrl()}/pt-BR/home`);
    expect(page.url()).toBe(`${baseUrl()}/pt-BR/login`);
    await context.close();
  });

  it("given JavaScript off on a desktop, should navigate with the header links", async () => {
    const context = await signedIn(teacher.cookie, { javaScriptEnabled: false });
    const page = await open(context, "/en/home");
    expect(await page.locator("summary", { hasText: "Menu" }).isVisible()).toBe(false);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Students" }).click();
    await page.waitForURL(`${baseUrl()}/en/students`);
    await page.goBack();
    // The first Tab reaches the skip link, which shows itself and jumps to the main content.
    await page.keyboard.press("Tab");
    const skip = page.locator(":focus");
    expect(await skip.textContent()).toBe("Skip to content");
    expect((await skip.boundingBox())!.width).toBeGreaterThan(50);
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main-content");
    await context.close();
  });

  it("given the home page on a desktop and a phone, should have no serious or critical accessibility violations", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await signedIn(teacher.cookie, { viewport, bypassCSP: true });
      const page = await open(context, "/en/home");
      expect(await seriousAccessibilityViolations(page), `${viewport.width}px`).toEqual([]);
      if (viewport === PHONE) {
        await screenshot(page, "home-phone");
        await page.locator("summary", { hasText: "Menu" }).click();
        expect(await seriousAccessibilityViolations(page), "phone menu open").toEqual([]);
      }
      await context.close();
    }
  });

  it("given the narrowest phone (360 px), should fit the page without sideways scrolling", async () => {
    const context = await signedIn(teacher.cookie, { viewport: { width: 360, height: 740 } });
    const page = await open(context, "/en/home");
    // Named in the failure message: whatever sticks out on the right.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("main *, header *")]
        .filter((element) => element.checkVisibility() && element.getBoundingClientRect().right > 360.5)
        .map((element) => `${element.tagName.toLowerCase()}.${(element.getAttribute("class") ?? "").split(" ").join(".")}`),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth), wide.join("\n")).toBeLessThanOrEqual(360);
    await screenshot(page, "home-phone-360");
    await context.close();
  });
});
