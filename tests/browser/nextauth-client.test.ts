import { build } from "esbuild";
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl } from "../support/api.ts";
import { sharedBrowser } from "../support/browser.ts";
import { createSignedInUser } from "../support/fixtures.ts";
import { OIDC_PROVIDER_NAME } from "../support/oidc-provider.ts";
import { enableTotp, totpCode } from "../support/two-factor.ts";

/**
 * The spec's "browser client's sign-in function" is NextAuth's: the real `next-auth/react` 4 from
 * npm, bundled here with esbuild and put into one of the app's pages, signs in, reads the session
 * and signs out against the app's /api/auth (ADR 31).
 */
const browser = sharedBrowser();
let clientScript: string;

// The client's own types pull in Next.js's globals, so the few calls used are typed here.
type SignInResult = { error: string | null; status: number; ok: boolean; url: string | null };
type NextAuthClient = {
  signIn(provider: string, options: Record<string, unknown>): Promise<SignInResult | undefined>;
  signOut(options: { redirect: false; callbackUrl: string }): Promise<unknown>;
  getSession(): Promise<{ user: { email: string; role: string }; expires: string } | null>;
  getProviders(): Promise<Record<string, { id: string; name: string; type: string }> | null>;
};
declare global {
  interface Window {
    nextAuth: NextAuthClient;
  }
}

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: 'import * as client from "next-auth/react"; window.nextAuth = client;', resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    logLevel: "silent",
    // What a Next.js app would compile in: where the client finds the auth endpoints.
    define: { "process.env": JSON.stringify({ NEXTAUTH_URL: `${baseUrl()}/api/auth`, NODE_ENV: "production" }) },
  });
  clientScript = bundle.outputFiles[0]!.text;
});

/** A page of the app with NextAuth's client on it (the inline script needs the page's CSP set aside). */
async function pageWithClient(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser().newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${baseUrl()}/en/login`);
  await page.addScriptTag({ content: clientScript });
  return { context, page };
}

const signIn = (page: Page, { email, password, code }: { email: string; password: string; code?: string }) =>
  page.evaluate((options) => window.nextAuth.signIn("credentials", { ...options, redirect: false, callbackUrl: "/es/forms" }), {
    email,
    password,
    ...(code ? { code } : {}),
  });
const getSession = (page: Page) => page.evaluate(() => window.nextAuth.getSession());

const sessionCookie = async (context: BrowserContext) => {
  const cookie = (await context.cookies(baseUrl())).find((c) => c.name === "remix-auth.session-token");
  return cookie ? `${cookie.name}=${cookie.value}` : undefined;
};

describe("NextAuth's browser client against the app", () => {
  it("should sign in with credentials, read the session, and sign out so the session is gone", async () => {
    const user = await createSignedInUser("TEACHER");
    const { context, page } = await pageWithClient();

    expect(await getSession(page)).toBeNull();
    expect(await signIn(page, user)).toEqual({ error: null, status: 200, ok: true, url: `${baseUrl()}/es/forms` });
    const session = await getSession(page);
    expect(session?.user).toMatchObject({ email: user.email, role: "TEACHER" });
    expect(new Date(session!.expires).getTime()).toBeGreaterThan(Date.now());
    const cookie = await sessionCookie(context);
    expect((await api("GET", "/api/user/role", { cookie })).status).toBe(200);

    const signedOut = await page.evaluate(() => window.nextAuth.signOut({ redirect: false, callbackUrl: "/en/login" }));
    expect(signedOut).toEqual({ ok: true, url: `${baseUrl()}/en/login` });
    expect(await getSession(page)).toBeNull();
    expect(await sessionCookie(context)).toBeUndefined();
    // The row is deleted too: the old cookie no longer works anywhere.
    expect((await api("GET", "/api/user/role", { cookie })).status).toBe(401);
    await context.close();
  });

  it("given a wrong password, should give the client's error and no session", async () => {
    const user = await createSignedInUser("TEACHER");
    const { context, page } = await pageWithClient();
    expect(await signIn(page, { email: user.email, password: "not-the-password" })).toEqual({
      error: "CredentialsSignin",
      status: 401,
      ok: false,
      url: null,
    });
    expect(await getSession(page)).toBeNull();
    await context.close();
  });

  it("given a user with TOTP, should ask for the code and then sign in with it", async () => {
    const user = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    const { context, page } = await pageWithClient();
    expect(await signIn(page, user)).toMatchObject({ error: "TWO_FACTOR_REQUIRED", status: 401, ok: false });
    expect(await signIn(page, { ...user, code: await totpCode(otpauthUrl) })).toEqual({ error: null, status: 200, ok: true, url: `${baseUrl()}/es/forms` });
    expect((await getSession(page))?.user.email).toBe(user.email);
    await context.close();
  });

  it("should sign in with the OpenID provider and land in the callbackUrl's language", async () => {
    const { context, page } = await pageWithClient();
    const providers = await page.evaluate(() => window.nextAuth.getProviders());
    expect(providers?.oidc).toMatchObject({ id: "oidc", name: OIDC_PROVIDER_NAME, type: "oauth" });
    // signIn navigates away to the provider, so its promise is left behind with the page.
    await page.evaluate(() => {
      void window.nextAuth.signIn("oidc", { callbackUrl: "/es/home" });
    });
    await page.locator('input[name="login"]').fill("teacher2");
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(`${baseUrl()}/es/home`);
    expect(await sessionCookie(context)).toBeDefined();
    await context.close();
  });
});
