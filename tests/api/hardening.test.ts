import { describe, expect, it } from "vitest";
import { api, baseUrl, freshIp, sessionOf, signIn, unique, withCsrf } from "../support/api.ts";
import { createSignedInUser } from "../support/fixtures.ts";
import { mailTo, waitForMail } from "../support/mail.ts";
import { checkCredentials, enableTotp, totpCode } from "../support/two-factor.ts";

const newStudent = () => ({ name: unique("CSRF student") });

describe("cross-site request protection", () => {
  it("given a session cookie but neither a CSRF token nor a browser's origin headers, should refuse the change", async () => {
    const response = await api("POST", "/api/students", {
      cookie: sessionOf("teacher@demo.test"),
      headers: { "x-csrf-token": "" },
      json: newStudent(),
    });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("CSRF_FAILED");
  });

  it("given the session's CSRF token in X-CSRF-Token, should accept the change", async () => {
    const response = await api("POST", "/api/students", { as: "teacher@demo.test", json: newStudent() });
    expect(response.status).toBe(201);
  });

  it("given a browser request from another site, should refuse it even with the token", async () => {
    const foreign: Record<string, string>[] = [{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }, { origin: "https://evil.example" }];
    for (const headers of foreign) {
      const response = await api("POST", "/api/students", { as: "teacher@demo.test", headers, json: newStudent() });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.body.code).toBe("CROSS_SITE_REQUEST");
    }
  });

  it("given a browser request from our own pages, should accept it without the token", async () => {
    const viaFetchMetadata = await api("POST", "/api/students", {
      cookie: sessionOf("teacher@demo.test"),
      headers: { "sec-fetch-site": "same-origin", "x-csrf-token": "" },
      json: newStudent(),
    });
    expect(viaFetchMetadata.status).toBe(201);
    const viaOrigin = await api("POST", "/api/students", {
      cookie: sessionOf("teacher@demo.test"),
      headers: { origin: baseUrl(), "x-csrf-token": "" },
      json: newStudent(),
    });
    expect(viaOrigin.status).toBe(201);
  });

  it("given a preflight from another origin, should grant no CORS access", async () => {
    const response = await fetch(`${baseUrl()}/api/forms`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    const get = await fetch(`${baseUrl()}/api/forms`, { headers: { origin: "https://evil.example", cookie: sessionOf("teacher@demo.test") } });
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("security headers", () => {
  it("given a page, should send a nonce-based Content-Security-Policy that every inline script carries", async () => {
    const response = await fetch(`${baseUrl()}/en/login`);
    const csp = response.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    const html = await response.text();
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]!);
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const attributes of inlineScripts) expect(attributes).toContain(`nonce="${nonce}"`);
    const again = (await fetch(`${baseUrl()}/en/login`)).headers.get("content-security-policy")!;
    expect(again).not.toBe(csp);
    for (const [name, value] of [
      ["x-content-type-options", "nosniff"],
      ["x-frame-options", "DENY"],
      ["referrer-policy", "strict-origin-when-cross-origin"],
    ]) {
      expect(response.headers.get(name!), name).toBe(value);
    }
    // Served over plain HTTP here, so no HSTS (it is sent when APP_URL is https).
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("given an API answer, should forbid everything a document could do", async () => {
    const response = await api("GET", "/api/forms", { as: "teacher@demo.test" });
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe("personal data in caches", () => {
  it("given a signed-in page, its data or an API read, should forbid storing it", async () => {
    for (const path of ["/en/home", "/en/students", "/en/students.data", "/en/reports", "/api/students", "/api/reports"]) {
      const response = await api("GET", path, { as: "teacher@demo.test" });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("no-store");
    }
  });

  it("given sign-out, should ask the browser to clear its cache", async () => {
    const user = await createSignedInUser("TEACHER");
    const csrf = withCsrf(user.cookie);
    const response = await api("POST", "/api/auth/signout", { headers: csrf, json: { csrfToken: csrf["x-csrf-token"] } });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("clear-site-data")).toBe('"cache"');
  });
});

// Each attempt costs a real scrypt verification; on a busy 2-core machine many of them take a while.
describe("sign-in throttling (ADR 15)", { timeout: 180_000 }, () => {
  /** A sign-in as the browser client sends it, from `address` (the test server trusts X-Forwarded-For). */
  async function signInFrom(address: string, email: string, password: string, unlockCookie?: string, code?: string) {
    const csrf = await fetch(`${baseUrl()}/api/auth/csrf`, { headers: { "x-forwarded-for": address } });
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
    const cookie = unlockCookie ? `${csrfCookie}; ${unlockCookie}` : csrfCookie;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    return api("POST", "/api/auth/callback/credentials", {
      headers: { cookie, "x-forwarded-for": address },
      json: { email, password, csrfToken, ...(code ? { code } : {}) },
    });
  }

  /** Ten addresses failing ten times each at `email`: the account's ceiling of 100 is used up. */
  async function guessFromTenAddresses(email: string) {
    for (let attacker = 0; attacker < 10; attacker++) {
      const address = freshIp();
      for (let i = 0; i < 10; i++) expect((await signInFrom(address, email, "wrong-password-x")).status).toBe(401);
    }
  }

  /** The unlock cookie a browser gets for opening the link in `mail`. */
  async function openUnlockLink(text: string, address: string) {
    const link = new URL(/https?:\/\/\S+\/login\?unlock=\S+/.exec(text)![0]);
    const opened = await fetch(`${baseUrl()}${link.pathname}${link.search}`, { headers: { "x-forwarded-for": address } });
    const cookie = opened.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .find((c) => c.startsWith("remix-auth.sign-in-unlock="));
    return { link, opened, cookie };
  }

  it("given 10 wrong passwords for one account from one address, should lock that address out of it and not the owner elsewhere", async () => {
    const user = await createSignedInUser("TEACHER");
    const attacker = freshIp();
    for (let i = 0; i < 10; i++) expect((await signInFrom(attacker, user.email, "wrong-password-x")).status).toBe(401);
    const locked = await signInFrom(attacker, user.email, user.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The owner, from their own network, is not affected by the stranger's failures.
    expect((await signInFrom(freshIp(), user.email, user.password)).status).toBe(200);
  });

  it("given a correct password, should clear the count for that address", async () => {
    const user = await createSignedInUser("TEACHER");
    const address = freshIp();
    for (let i = 0; i < 9; i++) await signInFrom(address, user.email, "wrong-password-x");
    expect((await signInFrom(address, user.email, user.password)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await signInFrom(address, user.email, "wrong-password-x")).status).toBe(401);
    expect((await signInFrom(address, user.email, user.password)).status).toBe(200);
  });

  it("given 60 accounts sprayed with one password from one address, should throttle the address after 30 failures", async () => {
    const sprayer = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await signInFrom(sprayer, `${unique("sprayed")}@demo.test`, "Summer2026!")).status);
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(30).every((status) => status === 429)).toBe(true);
    // Even a right password from that address waits; everyone else signs in as usual.
    const user = await createSignedInUser("TEACHER");
    expect((await signInFrom(sprayer, user.email, user.password)).status).toBe(429);
    expect((await signInFrom(freshIp(), user.email, user.password)).status).toBe(200);
  });

  it("given the sign-in page throttled, should say so in the page's language with Retry-After", async () => {
    const sprayer = freshIp();
    for (let i = 0; i < 30; i++) await signInFrom(sprayer, `${unique("sprayed")}@demo.test`, "wrong-password-x");
    const page = await fetch(`${baseUrl()}/es/login`, { headers: { "x-forwarded-for": sprayer } });
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(await page.text())![1]!;
    const response = await api("POST", "/es/login", {
      headers: { cookie, "x-forwarded-for": sprayer, "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
      body: new URLSearchParams({ csrfToken, email: "someone@demo.test", password: "whatever-1" }).toString(),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(response.text).toContain("Demasiados intentos de inicio de sesión desde esta red o para esta cuenta.");
  });

  it("given guesses at one account spread over 100 addresses, should stop new addresses but let the owner in from where they are signed in", async () => {
    const user = await createSignedInUser("TEACHER");
    const home = freshIp();
    expect((await signInFrom(home, user.email, user.password)).status).toBe(200);
    for (let i = 0; i < 100; i++) expect((await signInFrom(freshIp(), user.email, "wrong-password-x")).status).toBe(401);
    expect((await signInFrom(freshIp(), user.email, user.password)).status).toBe(429);
    expect((await signInFrom(home, user.email, user.password)).status).toBe(200);
  });

  it("given guesses at one account from 10 addresses, should e-mail its owner a one-time link that signs them in from a new address (ADR 47)", async () => {
    const email = `${unique("paused")}@fixtures.test`;
    const password = `pw-${unique("secret")}`;
    const created = await api("POST", "/api/users", {
      as: "admin@demo.test",
      json: { email, name: unique("Paused owner"), role: "TEACHER", password, locale: "pt-BR" },
    });
    expect(created.status, created.text).toBe(201);
    await guessFromTenAddresses(email);

    // The account takes no more sign-ins from new addresses, and its owner hears why.
    const owner = freshIp();
    expect((await signInFrom(owner, email, password)).status).toBe(429);
    const mail = await waitForMail(email);
    expect(mail.subject).toBe("A entrada na sua conta está pausada");
    expect(mail.text).toContain("Muitas senhas erradas foram tentadas na sua conta");
    const { link, opened, cookie: unlock } = await openUnlockLink(mail.text, owner);
    expect(link.pathname).toMatch(/^\/pt-BR\/login$/);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("Este navegador pode entrar na sua conta durante a próxima hora.");
    expect(unlock).toBeDefined();

    // That browser signs in with the right password; a wrong one is still a failure, and the
    // account stays paused for everyone else.
    expect((await signInFrom(owner, email, "wrong-password-x", unlock)).status).toBe(401);
    const signedIn = await signInFrom(owner, email, password, unlock);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.getSetCookie().some((c) => c.startsWith("remix-auth.session-token="))).toBe(true);
    expect((await signInFrom(freshIp(), email, password)).status).toBe(429);

    // The link works once; more refusals send no more e-mails meanwhile.
    const again = await fetch(`${baseUrl()}${link.pathname}${link.search}`, { headers: { "x-forwarded-for": freshIp() } });
    expect(await again.text()).toContain("Este link de entrada expirou ou já foi usado.");
    expect(again.headers.getSetCookie().some((c) => c.startsWith("remix-auth.sign-in-unlock="))).toBe(false);
    expect(await mailTo(email)).toHaveLength(1);
  });

  it("given an owner with a second factor paused the same way, should let them in through the link with password and code", async () => {
    const user = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    await guessFromTenAddresses(user.email);
    const owner = freshIp();
    expect((await signInFrom(owner, user.email, user.password)).status).toBe(429);
    const { cookie: unlock } = await openUnlockLink((await waitForMail(user.email)).text, owner);
    expect((await signInFrom(owner, user.email, user.password, unlock)).body).toMatchObject({ code: "TWO_FACTOR_REQUIRED" });
    expect((await signInFrom(owner, user.email, user.password, unlock, await totpCode(otpauthUrl))).status).toBe(200);
  });
});

describe("administrators manage users", () => {
  it("given an admin, should list the organization's users, searchable without accents", async () => {
    const response = await api("GET", "/api/users?search=INES%20CARVALHO", { as: "admin@demo.test" });
    expect(response.status).toBe(200);
    expect(response.body.users.map((u: { email: string }) => u.email)).toEqual(["teacher@demo.test"]);
    const all = await api("GET", "/api/users?limit=100", { as: "admin@demo.test" });
    expect(all.body.users.every((u: { organization: { name: string } }) => u.organization.name === "Demo School")).toBe(true);
    expect(all.text).not.toMatch(/passwordHash|scrypt\$/);
    expect((await api("GET", "/api/users", { as: "teacher@demo.test" })).status).toBe(403);
    // Searched for: the other tests' users can push it past a page of every organization's users.
    const others = await api("GET", "/api/users?search=admin%40other.test", { as: "superadmin@demo.test" });
    expect(others.body.users.map((u: { email: string }) => u.email)).toContain("admin@other.test");
  });

  it("given PATCH, should rename and change roles within what the admin may grant", async () => {
    const user = await createSignedInUser("TEACHER");
    const renamed = await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { name: "Renamed Teacher", role: "ADMIN" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Renamed Teacher", role: "ADMIN", isActive: true });
    expect((await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { role: "SUPER_ADMIN" } })).status).toBe(403);
    const superAdmin = (await api("GET", "/api/users?role=SUPER_ADMIN", { as: "admin@demo.test" })).body.users[0];
    expect((await api("PATCH", `/api/users/${superAdmin.id}`, { as: "admin@demo.test", json: { name: "x" } })).status).toBe(403);
    const foreign = (await api("GET", "/api/users?search=other.test", { as: "superadmin@demo.test" })).body.users[0];
    expect((await api("PATCH", `/api/users/${foreign.id}`, { as: "admin@demo.test", json: { name: "x" } })).status).toBe(404);
    const me = (await api("GET", "/api/user/profile", { as: "admin@demo.test" })).body;
    expect((await api("PATCH", `/api/users/${me.id}`, { as: "admin@demo.test", json: { isActive: false } })).status).toBe(400);
    expect((await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { role: "STUDENT" } })).status).toBe(400);
  });

  it("given deactivation, should end the user's sessions at once and refuse their sign-in", async () => {
    const user = await createSignedInUser("TEACHER");
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(200);
    const response = await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { isActive: false } });
    expect(response.body.isActive).toBe(false);
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(401);
    await expect(signIn(user.email, user.password)).rejects.toThrow(/401/);
    await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { isActive: true } });
    expect(await signIn(user.email, user.password)).toMatch(/^remix-auth\.session-token=/);
  });

  it("given a revoke, should end every session of the user", async () => {
    const user = await createSignedInUser("TEACHER");
    const second = await signIn(user.email, user.password);
    const response = await api("POST", `/api/users/${user.id}/sessions/revoke`, { as: "admin@demo.test" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ revoked: 2 });
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(401);
    expect((await api("GET", "/api/user/role", { cookie: second })).status).toBe(401);
    expect((await api("POST", `/api/users/${user.id}/sessions/revoke`, { as: "teacher@demo.test" })).status).toBe(403);
  });
});

describe("a lost second factor", () => {
  it("given an administrator's reset, should turn the factor off, end the user's sessions and let them sign in with the password", async () => {
    const user = await createSignedInUser("TEACHER");
    await enableTotp(user);
    expect((await checkCredentials(user)).body).toEqual({ twoFactorRequired: true, method: "TOTP" });
    expect((await api("PATCH", `/api/users/${user.id}`, { as: "teacher@demo.test", json: { resetTwoFactor: true } })).status).toBe(403);
    const reset = await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { resetTwoFactor: true } });
    expect(reset.status).toBe(200);
    expect(reset.body.twoFactorEnabled).toBe(false);
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(401);
    expect((await checkCredentials(user)).body).toEqual({ twoFactorRequired: false });
    expect(await signIn(user.email, user.password)).toMatch(/^remix-auth\.session-token=/);
  });
});
