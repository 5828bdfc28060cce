import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../support/api.ts";
import { launchBrowser } from "../support/browser.ts";
import { testDatabase } from "../support/database.ts";
import { OIDC_PROVIDER_NAME } from "../support/oidc-provider.ts";

/**
 * The OpenID Connect sign-in in Chromium, from the sign-in page's button. The provider runs on
 * localhost and the service on 127.0.0.1, so the way back is a cross-site navigation: the state
 * cookie (SameSite=Lax) must still arrive, with JavaScript on or off.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("signing in with the identity provider in a real browser", () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`given JavaScript ${javaScriptEnabled ? "on" : "off"}, should go to the provider and come back signed in`, async () => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/login`);
      await page.getByRole("link", { name: `Sign in with ${OIDC_PROVIDER_NAME}` }).click();

      // The provider's development login and consent pages.
      await page.locator('input[name="login"]').fill("teacher2");
      await page.locator('input[name="password"]').fill("any password");
      await page.getByRole("button", { name: "Sign-in" }).click();
      await page.getByRole("button", { name: "Continue" }).click();

      await page.waitForURL(`${baseUrl()}/en/home`);
      const teacher = await testDatabase().user.findUniqueOrThrow({ where: { email: "teacher2@demo.test" } });
      expect(await page.textContent("h1")).toContain(teacher.name);
      const cookies = await context.cookies(baseUrl());
      expect(cookies.map((c) => c.name)).toContain("remix-auth.session-token");
      expect(cookies.map((c) => c.name)).not.toContain("remix-auth.oidc-state");
      await context.close();
    });
  }

  it("given the callback opened in a browser that never started the sign-in, should show the error page with a way back", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl()}/api/auth/oidc/callback?code=stolen&state=stolen`);
    expect(response?.status()).toBe(400);
    expect(page.url()).toBe(`${baseUrl()}/en/login/oidc-error?reason=state`);
    await page.getByRole("link", { name: "Back to the sign-in page" }).click();
    await page.waitForURL(`${baseUrl()}/en/login`);
    await context.close();
  });
});
