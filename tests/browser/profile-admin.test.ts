import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, signIn, unique } from "../support/api.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, launchBrowser, PHONE, signedInContext, screenshot } from "../support/browser.ts";
import { createSignedInUser, png } from "../support/fixtures.ts";
import { enableTotp, totpCode, usedAStepAgo } from "../support/two-factor.ts";

/**
 * The profile's pages (details and avatar, second factor, sessions) and the users' administration in
 * real Chromium with JavaScript OFF: plain forms, post/redirect/get, flash messages. Screenshots
 * go to $SCREENSHOT_DIR (default <tmp>/assessment-screenshots).
 */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A context without JavaScript; bypassCSP only so axe can be injected. */
async function context(options: BrowserContextOptions = {}, cookie?: string): Promise<BrowserContext> {
  const settings = { javaScriptEnabled: false, bypassCSP: true, ...options };
  return cookie ? signedInContext(browser, cookie, settings) : browser.newContext({ viewport: DESKTOP, ...settings });
}

async function open(ctx: BrowserContext, pathname: string): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(`${baseUrl()}${pathname}`);
  return page;
}

const flash = (page: Page) => page.locator("[role=status], [role=alert]").allTextContents();

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto(`${baseUrl()}/en/login`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe("the profile's pages", () => {
  it("given a fresh user, should enrol TOTP from the page and then sign in with the code step", async () => {
    const user = await createSignedInUser("TEACHER");
    const ctx = await context();
    const page = await ctx.newPage();
    await signInThroughForm(page, user.email, user.password);
    await page.waitForURL(`${baseUrl()}/en/home`);

    // The profile's own navigation leads to each of its pages.
    await page.goto(`${baseUrl()}/en/profile`);
    await page.getByRole("navigation", { name: "Parts of your profile" }).getByRole("link", { name: "Second factor" }).click();
    await page.waitForURL(`${baseUrl()}/en/profile/two-factor`);
    expect(await page.getByRole("link", { name: "Second factor" }).getAttribute("aria-current")).toBe("page");
    const twoFactor = page.locator("section#two-factor");
    expect(await twoFactor.textContent()).toContain("You sign in with your password alone.");
    await twoFactor.getByRole("button", { name: "Set up an authenticator app" }).click();
    const qr = twoFactor.getByRole("img", { name: "QR code to scan with your authenticator app" });
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const secret = (await page.locator("#totp-secret").textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await screenshot(page, "profile-totp-setup-desktop");

    const otpauth = `otpauth://totp/test?secret=${secret}`;
    // A wrong code first: the error is by the field and the code step stays.
    await twoFactor.getByLabel("6-digit code").fill("12345");
    await twoFactor.getByRole("button", { name: "Turn on" }).click();
    await expect.poll(() => page.locator("section#two-factor [aria-invalid=true]").count()).toBe(1);

    await page
      .locator("section#two-factor")
      .getByLabel("6-digit code")
      .fill(await totpCode(otpauth));
    await page.locator("section#two-factor").getByRole("button", { name: "Turn on" }).click();
    await page.waitForURL(`${baseUrl()}/en/profile/two-factor`);
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("The second factor is on.");
    expect(await page.locator("section#two-factor").textContent()).toContain("A code from your authenticator app.");

    // Sign out through the account menu (a <details>, so it opens without JavaScript).
    await page.locator("header details:has(button:text-is('Sign out')) > summary >> visible=true").first().click();
    await page.locator("header button:text-is('Sign out') >> visible=true").first().click();
    await page.waitForURL(`${baseUrl()}/en/login`);

    // Sign in again: the password, then the current code, which the enrolment (moved a step into
    // the past) did not use.
    await usedAStepAgo(user.id);
    await signInThroughForm(page, user.email, user.password);
    await page.getByRole("heading", { level: 1, name: "Enter your code" }).waitFor();
    await page.getByLabel("Authenticator code").fill(await totpCode(otpauth));
    await page.getByRole("button", { name: "Verify and sign in" }).click();
    await page.waitForURL(`${baseUrl()}/en/home`);

    // Turning it off takes the password.
    await page.goto(`${baseUrl()}/en/profile/two-factor`);
    await page.locator("section#two-factor").getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Turn off the second factor" }).click();
    expect(await page.locator("section#two-factor").textContent()).toContain("The password is not correct.");
    await page.locator("section#two-factor").getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Turn off the second factor" }).click();
    await page.waitForURL(`${baseUrl()}/en/profile/two-factor`);
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("The second factor is off.");
    await ctx.close();
  }, 120_000);

  it("given new details and an avatar, should save them with a multipart form", async () => {
    const user = await createSignedInUser("TEACHER");
    const ctx = await context({}, user.cookie);
    const page = await open(ctx, "/en/profile");
    expect(await page.getByRole("img", { name: "Your current avatar" }).count()).toBe(0);

    const name = `Renée Profile ${unique("n")}`;
    const details = page.locator("section#details");
    await details.getByLabel("Name").fill(name);
    await details.getByLabel("Specialty").fill("Reading");
    await details.getByLabel("Avatar").setInputFiles({ name: "avatar.png", mimeType: "image/png", buffer: Buffer.from(png(48, 48, [79, 70, 229, 255])) });
    await details.getByRole("button", { name: "Save details" }).click();
    await page.waitForURL(`${baseUrl()}/en/profile`);
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("Your profile is saved.");
    expect(await page.locator("section#details").getByLabel("Name").inputValue()).toBe(name);
    expect(await page.locator("section#details").getByLabel("Specialty").inputValue()).toBe("Reading");
    const avatar = page.getByRole("img", { name: "Your current avatar" });
    expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);

    // Changing the e-mail address without the current password is refused by the field.
    await page
      .locator("section#details")
      .getByLabel("E-mail")
      .fill(`${unique("changed")}@fixtures.test`);
    await page.locator("section#details").getByRole("button", { name: "Save details" }).click();
    await expect.poll(() => page.locator("section#details #currentPassword-error, section#details [aria-invalid=true]").count()).toBeGreaterThan(0);

    const profile = await api("GET", "/api/user/profile", { cookie: user.cookie });
    expect(profile.body.name).toBe(name);
    expect(profile.body.email).toBe(user.email);
    await ctx.close();
  });

  it("given two other sessions, should list them and sign out everywhere else", async () => {
    const user = await createSignedInUser("TEACHER");
    const mine = await signIn(user.email, user.password);
    const other = await signIn(user.email, user.password);
    const ctx = await context({}, mine);
    const page = await open(ctx, "/en/profile/sessions");
    const sessions = page.locator("section#sessions");
    expect(await sessions.locator("li").count()).toBe(3);
    expect(await sessions.getByText("This device", { exact: true }).count()).toBe(1);
    await screenshot(page, "profile-desktop");

    await sessions.getByRole("button", { name: "Sign out everywhere else" }).click();
    await page.waitForURL(`${baseUrl()}/en/profile/sessions`);
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("You are signed out everywhere else.");
    expect(await page.locator("section#sessions li").count()).toBe(1);
    expect(await page.locator("section#sessions").textContent()).toContain("You are signed in on this device only.");

    expect((await api("GET", "/api/user/role", { cookie: other })).status).toBe(401);
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(401);
    expect((await api("GET", "/api/user/role", { cookie: mine })).status).toBe(200);
    await ctx.close();
  });
});

describe("the users' administration", () => {
  it("given an administrator, should create a user, change the role, deactivate, reactivate and reset a second factor", async () => {
    const ctx = await context({}, sessionOf("admin@demo.test"));
    const page = await open(ctx, "/en/admin/users");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Users");

    // Create a teacher with a password.
    const email = `${unique("admin-created")}@fixtures.test`;
    const create = page.locator("section#create-user");
    await create.getByLabel("Name").fill("Created By Admin");
    await create.getByLabel("E-mail").fill(email);
    await create.getByLabel("Role").selectOption("TEACHER");
    await create.getByLabel("Password").fill(`pw-${unique("s")}-long`);
    await create.getByRole("button", { name: "Add user" }).click();
    await page.waitForURL(`${baseUrl()}/en/admin/users`);
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("The user is created.");

    // Find them with the search form.
    await page.getByRole("searchbox", { name: "Search by name or e-mail" }).fill(email);
    await page.getByRole("search").getByRole("button", { name: "Search" }).click();
    // The list is read once the search's page has arrived, not while it is on its way.
    await page.waitForURL(/[?&]search=/);
    const row = () => page.locator(`li[data-user-email="${email}"]`);
    await expect.poll(() => page.locator("section#users li").count()).toBe(1);
    expect(await row().textContent()).toContain("Teacher");
    const searchUrl = page.url();

    // Change the role.
    await row().locator("summary", { hasText: "Manage" }).click();
    await row().getByLabel("Role").selectOption("ADMIN");
    await row().getByRole("button", { name: "Change role" }).click();
    await page.waitForURL(searchUrl);
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("The user is updated.");
    expect(await row().textContent()).toContain("Administrator");

    // Deactivate, then activate again.
    await row().locator("summary").click();
    await row().getByRole("button", { name: "Deactivate" }).click();
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("deactivated");
    expect(await row().textContent()).toContain("Inactive");
    await screenshot(page, "admin-users-manage-desktop");
    await row().locator("summary").click();
    await row().getByRole("button", { name: "Activate" }).click();
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("active again");
    expect(await row().textContent()).toContain("Active");

    // A user with TOTP gets it reset after a confirmation step.
    const enrolled = await createSignedInUser("TEACHER");
    await enableTotp(enrolled);
    await page.goto(`${baseUrl()}/en/admin/users?search=${encodeURIComponent(enrolled.email)}`);
    const enrolledRow = page.locator(`li[data-user-email="${enrolled.email}"]`);
    expect(await enrolledRow.textContent()).toContain("Second factor on");
    await enrolledRow.locator("summary").click();
    await enrolledRow.getByRole("link", { name: "Reset the second factor…" }).click();
    const confirm = page.getByRole("region", { name: /Reset the second factor of/ });
    await confirm.waitFor();
    await screenshot(page, "admin-users-confirm-reset-desktop");
    await confirm.getByRole("button", { name: "Yes, reset it" }).click();
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("second factor is reset");
    expect(await page.locator(`li[data-user-email="${enrolled.email}"]`).textContent()).not.toContain("Second factor on");
    const profile = await api("GET", `/api/users?search=${encodeURIComponent(enrolled.email)}`, { as: "admin@demo.test" });
    expect(profile.body.users[0].twoFactorEnabled).toBe(false);
    // Resetting ends their sessions.
    expect((await api("GET", "/api/user/role", { cookie: enrolled.cookie })).status).toBe(401);

    // Sign a user out everywhere.
    const signedIn = await createSignedInUser("TEACHER");
    await page.goto(`${baseUrl()}/en/admin/users?search=${encodeURIComponent(signedIn.email)}`);
    await page.locator(`li[data-user-email="${signedIn.email}"] summary`).click();
    await page.locator(`li[data-user-email="${signedIn.email}"]`).getByRole("button", { name: "Sign out everywhere" }).click();
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("signed out everywhere");
    expect((await api("GET", "/api/user/role", { cookie: signedIn.cookie })).status).toBe(401);

    // Without a password, an invitation goes out.
    await page.goto(`${baseUrl()}/en/admin/users`);
    await page.locator("section#create-user").getByLabel("Name").fill("Invited Person");
    await page
      .locator("section#create-user")
      .getByLabel("E-mail")
      .fill(`${unique("invited")}@fixtures.test`);
    await page.locator("section#create-user").getByRole("button", { name: "Add user" }).click();
    await expect.poll(async () => (await flash(page)).join(" ")).toContain("invitation");
    await ctx.close();
  }, 90_000);

  it("given filters, should list only matching users and show errors by the fields", async () => {
    const ctx = await context({}, sessionOf("admin@demo.test"));
    const page = await open(ctx, "/en/admin/users?role=STUDENT");
    const roles = await page.locator("section#users li").allTextContents();
    expect(roles.length).toBeGreaterThan(0);
    for (const text of roles) expect(text).toContain("Student");

    await page.locator("section#create-user").getByLabel("E-mail").fill("not-an-address");
    // Wait for the action's answer, not just for the click: the errors come with the new page.
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.locator("section#create-user").getByRole("button", { name: "Add user" }).click(),
    ]);
    expect(answer.status()).toBe(400);
    await page.waitForLoadState();
    await expect.poll(() => page.locator("section#create-user [aria-invalid=true]").count()).toBe(2);
    await ctx.close();
  });

  it("given a teacher, should answer the friendly 403", async () => {
    const ctx = await context({}, sessionOf("teacher@demo.test"));
    const page = await ctx.newPage();
    const response = await page.goto(`${baseUrl()}/en/admin/users`);
    expect(response!.status()).toBe(403);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Not allowed");
    await ctx.close();
  });
});

describe("accessibility and screenshots", () => {
  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`given the ${label} width, should have no serious violations on the sign-in, password, profile and admin pages`, {
      timeout: ACCESSIBILITY_SCAN_TIMEOUT,
    }, async () => {
      // axe runs as a script, so these contexts have JavaScript on (the pages hydrate too).
      const anonymous = await context({ viewport, javaScriptEnabled: true });
      const admin = await context({ viewport, javaScriptEnabled: true }, sessionOf("admin@demo.test"));
      const pages: [BrowserContext, string, string][] = [
        [anonymous, "/en/login", "login"],
        [anonymous, "/es/login", "login-es"],
        [anonymous, "/en/forgot-password", "forgot-password"],
        [anonymous, "/en/reset-password?token=unknown-token", "reset-password"],
        [admin, "/en/profile", "profile"],
        [admin, "/en/profile/password", "profile-password"],
        [admin, "/en/profile/two-factor", "profile-two-factor"],
        [admin, "/en/profile/sessions", "profile-sessions"],
        [admin, "/en/admin/users", "admin-users"],
        [admin, "/es/profile", "profile-es"],
      ];
      for (const [ctx, pathname, name] of pages) {
        const page = await open(ctx, pathname);
        expect(await seriousAccessibilityViolations(page), pathname).toEqual([]);
        if (name === "login-es") {
          expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Iniciar sesión");
          expect(await page.getByRole("link", { name: "¿Olvidaste tu contraseña?" }).getAttribute("href")).toBe("/es/forgot-password");
        }
        await screenshot(page, `${name}-${label}`);
        await page.close();
      }
      await anonymous.close();
      await admin.close();
    });
  }
});
