import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import {
  CookieJar,
  providerIssuer,
  registerProviderAccount,
  returnToCallback,
  signInAtProvider,
  signInWithProvider,
  startSignIn,
} from "../support/oidc-client.ts";
import { OIDC_CLIENT_ID, OIDC_PROVIDER_NAME } from "../support/oidc-provider.ts";

/**
 * Sign-in with OpenID Connect against a real provider on loopback (tests/support/oidc-provider.ts):
 * the browser's part is played by a cookie jar that follows redirects by hand.
 */
const STATE_COOKIE = "remix-auth.oidc-state";
const SESSION_COOKIE = "remix-auth.session-token";

const sessionCookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`) && !c.startsWith(`${SESSION_COOKIE}=;`))
    ?.split(";")[0];

/** Follows a refused callback to its error page; answers the reason, the page's status and HTML. */
async function errorPageOf(response: Response) {
  expect(response.status).toBe(302);
  expect(sessionCookieOf(response)).toBeUndefined();
  const location = response.headers.get("location")!;
  const match = /^\/(en|es|pt-BR)\/login\/oidc-error\?reason=([\w-]+)$/.exec(location);
  expect(match, location).not.toBeNull();
  const page = await fetch(`${baseUrl()}${location}`);
  const html = await page.text();
  expect(page.headers.get("content-type")).toContain("text/html");
  // The page speaks the language the sign-in started in.
  const titles: Record<string, string> = { en: "We could not sign you in", es: "No pudimos iniciar tu sesión", "pt-BR": "Não conseguimos fazer você entrar" };
  expect(html).toContain(titles[match![1]!]);
  expect(html).toContain(`href="/${match![1]}/login"`);
  return { reason: match![2], locale: match![1], status: page.status, html };
}

async function organizationId() {
  const teacher = await testDatabase().user.findUniqueOrThrow({ where: { email: "teacher2@demo.test" } });
  return teacher.organizationId;
}

/** A user of the demo school made for one test, and a provider account that vouches for their e-mail. */
async function userWithProviderAccount(data: { isActive?: boolean; deletedAt?: Date; twoFactorMethod?: "TOTP" | "EMAIL" } = {}) {
  const email = `${unique("oidc")}@demo.test`.toLowerCase();
  const user = await testDatabase().user.create({
    data: { organizationId: await organizationId(), email, name: "Olivia Idp", role: "TEACHER", ...data },
  });
  const subject = unique("subject");
  await registerProviderAccount(subject, { email, email_verified: true });
  return { user, email, subject };
}

describe("GET /api/auth/oidc", () => {
  it("given a browser, should redirect to the provider with state, PKCE S256 and a nonce kept in a signed, Lax, HttpOnly cookie", async () => {
    const jar = new CookieJar();
    const { response, authorizationUrl } = await startSignIn(jar);
    expect(response.status).toBe(302);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(providerIssuer());
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("client_id")).toBe(OIDC_CLIENT_ID);
    expect(url.searchParams.get("redirect_uri")).toBe(`${baseUrl()}/api/auth/oidc/callback`);
    expect(url.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["openid", "email"]));
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")!.length).toBeGreaterThanOrEqual(20);
    expect(url.searchParams.get("nonce")!.length).toBeGreaterThanOrEqual(32);

    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${STATE_COOKIE}=`))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\/api\/auth\/oidc(;|$)/);
    expect(cookie).toMatch(/; Max-Age=600/);
    // Signed: the verifier and nonce are not readable as plain text, and the value carries a signature.
    expect(cookie).not.toContain(url.searchParams.get("nonce")!);

    // Two sign-ins never share a state or a nonce.
    const again = new URL((await startSignIn(new CookieJar())).authorizationUrl);
    expect(again.searchParams.get("state")).not.toBe(url.searchParams.get("state"));
    expect(again.searchParams.get("nonce")).not.toBe(url.searchParams.get("nonce"));
  });

  it("given a locale that is not one of ours, should answer 400", async () => {
    const response = await api("GET", "/api/auth/oidc?locale=xx");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("given the sign-in page, should offer the provider's button", async () => {
    const html = await (await fetch(`${baseUrl()}/en/login`)).text();
    expect(html).toContain(`Sign in with ${OIDC_PROVIDER_NAME}`);
    expect(html).toContain('href="/api/auth/oidc?locale=en"');
  });
});

describe("GET /api/auth/oidc/callback", () => {
  it("given a verified e-mail of an active user, should sign in, link the account and land on /{locale}/home", async () => {
    const jar = new CookieJar();
    const { response } = await signInWithProvider(jar, "teacher2", "?locale=es");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/es/home");
    expect(jar.get(STATE_COOKIE, baseUrl())).toBeUndefined();
    const session = sessionCookieOf(response)!;
    expect(session).toBeDefined();

    const profile = await api("GET", "/api/user/profile", { cookie: session });
    expect(profile.status).toBe(200);
    expect(profile.body.email).toBe("teacher2@demo.test");
    const home = await jar.fetch(`${baseUrl()}/es/home`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Demo School");

    const user = await testDatabase().user.findUniqueOrThrow({ where: { email: "teacher2@demo.test" } });
    const link = await testDatabase().externalAccount.findUnique({
      where: { issuer_subject: { issuer: providerIssuer(), subject: "teacher2" } },
    });
    expect(link?.userId).toBe(user.id);
  });

  it("given no locale at the start, should land in the user's own locale; a new sign-in replaces the browser's session", async () => {
    const { user, subject } = await userWithProviderAccount();
    await testDatabase().user.update({ where: { id: user.id }, data: { locale: "pt-BR" } });
    const jar = new CookieJar();
    const first = await signInWithProvider(jar, subject);
    expect(first.response.headers.get("location")).toBe("/pt-BR/home");
    const firstSession = sessionCookieOf(first.response)!;

    const second = await signInWithProvider(jar, subject, "?locale=en");
    expect(second.response.headers.get("location")).toBe("/en/home");
    expect((await api("GET", "/api/user/profile", { cookie: sessionCookieOf(second.response)! })).status).toBe(200);
    expect((await api("GET", "/api/user/profile", { cookie: firstSession })).status).toBe(401);
  });

  it("given the callback URL used a second time, should refuse it: the state cookie is gone, and a copy of it does not help", async () => {
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(jar);
    const copiedStateCookie = `${STATE_COOKIE}=${jar.get(STATE_COOKIE, baseUrl())}`;
    const callbackUrl = await signInAtProvider(jar, authorizationUrl, "teacher2");
    const first = await returnToCallback(jar, callbackUrl);
    expect(first.headers.get("location")).toBe("/en/home");

    const replay = await returnToCallback(jar, callbackUrl);
    expect((await errorPageOf(replay)).reason).toBe("state");

    // Someone who kept the cookie as well: the provider refuses the used code.
    const withCopy = await fetch(callbackUrl, { redirect: "manual", headers: { cookie: copiedStateCookie } });
    const page = await errorPageOf(withCopy);
    expect(page.reason).toBe("provider");
    expect(page.status).toBe(502);
  });

  it("given a state that is not the cookie's, should refuse with the error page and use up the sign-in", async () => {
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(jar);
    const callbackUrl = new URL(await signInAtProvider(jar, authorizationUrl, "teacher2"));
    const genuine = callbackUrl.toString();
    callbackUrl.searchParams.set("state", "forged-state-0123456789abcdefghijklmnop");
    const page = await errorPageOf(await returnToCallback(jar, callbackUrl.toString()));
    expect(page.reason).toBe("state");
    expect(page.status).toBe(400);
    expect(page.html).toContain("expired or was already used");
    expect((await errorPageOf(await returnToCallback(jar, genuine))).reason).toBe("state");
  });

  it("given a callback in a browser that did not start the sign-in, or an edited state cookie, should refuse it", async () => {
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(jar);
    const callbackUrl = await signInAtProvider(jar, authorizationUrl, "teacher2");
    expect((await errorPageOf(await returnToCallback(new CookieJar(), callbackUrl))).reason).toBe("state");

    const value = jar.get(STATE_COOKIE, baseUrl())!;
    const decoded = decodeURIComponent(value);
    const edited = `${decoded.slice(0, 10)}${decoded[10] === "A" ? "B" : "A"}${decoded.slice(11)}`;
    const response = await fetch(callbackUrl, { redirect: "manual", headers: { cookie: `${STATE_COOKIE}=${encodeURIComponent(edited)}` } });
    expect((await errorPageOf(response)).reason).toBe("state");
  });

  it("given an ID token issued for another nonce, should refuse it", async () => {
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(jar, "?locale=pt-BR");
    // The provider is asked for a token with a nonce this browser was never given.
    const tampered = new URL(authorizationUrl);
    tampered.searchParams.set("nonce", "a-nonce-from-somewhere-else-0123456789abcdef");
    const callbackUrl = await signInAtProvider(jar, tampered.toString(), "teacher2");
    const page = await errorPageOf(await returnToCallback(jar, callbackUrl));
    expect(page.reason).toBe("token");
    expect(page.locale).toBe("pt-BR");
  });

  it("given an e-mail the provider does not vouch for, should refuse even though the address is a user's", async () => {
    const jar = new CookieJar();
    const { response } = await signInWithProvider(jar, "unverified");
    const page = await errorPageOf(response);
    expect(page.reason).toBe("unverified");
    expect(page.status).toBe(403);
    expect(page.html).toContain("verified");
    const links = await testDatabase().externalAccount.count({ where: { issuer: providerIssuer(), subject: "unverified" } });
    expect(links).toBe(0);
  });

  it("given a verified e-mail nobody here has, should refuse", async () => {
    const { response } = await signInWithProvider(new CookieJar(), "unknown");
    const page = await errorPageOf(response);
    expect(page.reason).toBe("no-account");
    expect(page.html).toContain("no active account");
  });

  it("given a deactivated or a deleted user, should refuse", async () => {
    for (const data of [{ isActive: false }, { deletedAt: new Date() }]) {
      const { user, subject } = await userWithProviderAccount(data);
      const page = await errorPageOf((await signInWithProvider(new CookieJar(), subject)).response);
      expect(page.reason).toBe("no-account");
      expect(await testDatabase().externalAccount.count({ where: { userId: user.id } })).toBe(0);
    }
  });

  it("given a linked user who was deactivated later, should refuse", async () => {
    const { user, subject } = await userWithProviderAccount();
    expect((await signInWithProvider(new CookieJar(), subject)).response.headers.get("location")).toBe("/en/home");
    await testDatabase().user.update({ where: { id: user.id }, data: { isActive: false } });
    expect((await errorPageOf((await signInWithProvider(new CookieJar(), subject)).response)).reason).toBe("no-account");
  });

  it("given a user with a second factor here, should refuse and point to the password sign-in", async () => {
    const { subject } = await userWithProviderAccount({ twoFactorMethod: "TOTP" });
    const page = await errorPageOf((await signInWithProvider(new CookieJar(), subject)).response);
    expect(page.reason).toBe("second-factor");
  });

  it("given a linked account, should find the user by the link first, even after the e-mail here changed", async () => {
    const { user, subject } = await userWithProviderAccount();
    expect((await signInWithProvider(new CookieJar(), subject)).response.headers.get("location")).toBe("/en/home");
    const changed = `${unique("changed")}@demo.test`.toLowerCase();
    await testDatabase().user.update({ where: { id: user.id }, data: { email: changed } });

    const { response } = await signInWithProvider(new CookieJar(), subject);
    expect(response.headers.get("location")).toBe("/en/home");
    const profile = await api("GET", "/api/user/profile", { cookie: sessionCookieOf(response)! });
    expect(profile.body.email).toBe(changed);

    // Another identity at the provider that now has the user's address does not get a second link.
    const other = unique("other-subject");
    await registerProviderAccount(other, { email: changed, email_verified: true });
    expect((await errorPageOf((await signInWithProvider(new CookieJar(), other)).response)).reason).toBe("linked-elsewhere");
    expect(await testDatabase().externalAccount.count({ where: { userId: user.id } })).toBe(1);
  });

  it("given the person cancels at the provider, should say so", async () => {
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(jar);
    const callbackUrl = await signInAtProvider(jar, authorizationUrl, "teacher2", { abort: true });
    expect(new URL(callbackUrl).searchParams.get("error")).toBe("access_denied");
    expect((await errorPageOf(await returnToCallback(jar, callbackUrl))).reason).toBe("cancelled");
  });

  it("given no parameters at all, should answer the error page, not JSON or a stack trace", async () => {
    const response = await api("GET", "/api/auth/oidc/callback");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/en/login/oidc-error?reason=state");
    expect(response.text).toBe("");
  });

  it("given an unknown reason on the error page, should show a general message and echo nothing", async () => {
    const response = await fetch(`${baseUrl()}/en/login/oidc-error?reason=%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).toContain("We could not sign you in");
    expect(html).not.toContain("alert(1)");
  });
});
