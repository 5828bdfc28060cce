import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { launchBrowser } from "../support/browser.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * After signing out, nothing the signed-in pages showed can be seen again from the browser's
 * history: the pages carry `Cache-Control: no-store` and sign-out sends `Clear-Site-Data`.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("signing out on a shared computer", () => {
  it.each([true, false])("given JavaScript %s, Back after signing out should show no personal data", async (javaScriptEnabled) => {
    const teacher = await createSignedInUser("TEACHER");
    const name = `Zoë Privada ${unique("back")}`;
    const student = await api("POST", "/api/students", { cookie: teacher.cookie, json: { name } });
    expect(student.status, student.text).toBe(201);

    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/login`);
    await page.getByLabel("E-mail").fill(teacher.email);
    await page.getByLabel("Password").fill(teacher.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${baseUrl()}/en/home`);

    const shown = await page.goto(`${baseUrl()}/en/students/${student.body.id}`);
    expect(shown!.headers()["cache-control"]).toBe("no-store");
    expect(await page.locator("main").textContent()).toContain(name);

    await page.locator("header details:has(button:text-is('Sign out')) > summary >> visible=true").first().click();
    const [signOut] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith("/api/auth/signout")),
      page.locator("header button:text-is('Sign out') >> visible=true").first().click(),
    ]);
    expect((await signOut.allHeaders())["clear-site-data"]).toBe('"cache"');
    await page.waitForURL(`${baseUrl()}/en/login`);

    // The page is asked for again (not taken from the cache), and the server sends the sign-in page.
    // With JavaScript the router may handle Back itself (goBack then has no document response to
    // answer), so the test waits for where the browser ends up rather than for a response.
    await page.goBack();
    await page.waitForURL(`${baseUrl()}/en/login`);
    await page.getByLabel("E-mail").waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.content()).not.toContain(name);
    await context.close();
  });
});
