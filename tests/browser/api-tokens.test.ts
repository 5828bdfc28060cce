import { describe, expect, it } from "vitest";
import { baseUrl } from "../support/api.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * The API tokens page in Chromium, JavaScript off and on: a token is created and shown once, works
 * as a bearer token, is listed with its scope and when it was last used, and stops working once
 * deleted; one made read only reads and is refused writes.
 */
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
    // Read and write unless chosen otherwise.
    expect(await page.getByRole("radio", { name: "Read and write" }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Create a token" }).click();
    await page.getByText("Your new token. Copy it now: it is not shown again.").waitFor();
    const token = await page.getByLabel(/^New API token/).inputValue();
    expect(token).toMatch(/^as_[\w-]{43}$/);
    if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `api-tokens-js-${javaScriptEnabled}.png`);

    const used = await fetch(`${baseUrl()}/api/forms`, { headers: { authorization: `Bearer ${token}` } });
    expect(used.status).toBe(200);
    await page.goto(`${baseUrl()}/en/profile/tokens`);
    const item = page.locator("li", { hasText: "Grade book sync" });
    expect(await item.textContent()).toContain("last used");
    expect(await item.textContent()).toContain("Read and write");
    expect(await page.content()).not.toContain(token);

    await item.getByRole("button", { name: "Delete the token “Grade book sync”" }).click();
    await page.getByText("The token was deleted: it no longer works.").waitFor();
    expect((await fetch(`${baseUrl()}/api/forms`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await context.close();
  });

  it.each([false, true])(
    "given a teacher choosing read only (JavaScript %s), should create a token listed as read only that reads and may not write",
    async (javaScriptEnabled) => {
      const teacher = await createSignedInUser("TEACHER");
      const context = await signedInContext(browser(), teacher.cookie, { javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/profile/tokens`);
      await page.getByLabel("What it is for").fill("Report reader");
      await page.getByRole("group", { name: "What it may do" }).getByRole("radio", { name: "Read only" }).check();
      await page.getByRole("button", { name: "Create a token" }).click();
      await page.getByText("Your new token. Copy it now: it is not shown again.").waitFor();
      const token = await page.getByLabel(/^New API token/).inputValue();
      const item = page.locator("li", { hasText: "Report reader" });
      expect(await item.textContent()).toContain("Read only");
      expect(await item.textContent()).not.toContain("Read and write");

      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      expect((await fetch(`${baseUrl()}/api/forms`, { headers })).status).toBe(200);
      const write = await fetch(`${baseUrl()}/api/students`, { method: "POST", headers, body: JSON.stringify({ name: "Not made" }) });
      expect(write.status).toBe(403);
      expect(((await write.json()) as { code: string }).code).toBe("TOKEN_SCOPE");
      await context.close();
    },
  );
});
