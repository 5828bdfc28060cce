import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseUrl } from "../support/api.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { sharedBrowser, signedInContext } from "../support/browser.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * The API tokens page in Chromium, JavaScript off and on: a token is created and shown once, works
 * as a bearer token, is listed with when it was last used, and stops working once deleted.
 */
const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), "assessment-screenshots");
const browser = sharedBrowser();

describe("the API tokens page", () => {
  it.each([false, true])("given a teacher (JavaScript %s), should create a token shown once, list it used, and delete it", async (javaScriptEnabled) => {
    const teacher = await createSignedInUser("TEACHER");
    // bypassCSP only so axe can be injected.
    const context = await signedInContext(browser(), teacher.cookie, { javaScriptEnabled, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/profile`);
    await page.getByRole("link", { name: "API tokens" }).click();
    await page.getByText("You have no API tokens.").waitFor();

    await page.getByLabel("What it is for").fill("Grade book sync");
    await page.getByRole("button", { name: "Create a token" }).click();
    await page.getByText("Your new token. Copy it now: it is not shown again.").waitFor();
    const token = await page.getByLabel(/^New API token/).inputValue();
    expect(token).toMatch(/^as_[\w-]{43}$/);
    if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, `api-tokens-js-${javaScriptEnabled}.png`), fullPage: true });

    const used = await fetch(`${baseUrl()}/api/forms`, { headers: { authorization: `Bearer ${token}` } });
    expect(used.status).toBe(200);
    await page.goto(`${baseUrl()}/en/profile/tokens`);
    const item = page.locator("li", { hasText: "Grade book sync" });
    expect(await item.textContent()).toContain("last used");
    expect(await page.content()).not.toContain(token);

    await item.getByRole("button", { name: "Delete the token “Grade book sync”" }).click();
    await page.getByText("The token was deleted: it no longer works.").waitFor();
    expect((await fetch(`${baseUrl()}/api/forms`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await context.close();
  });
});
