import { readFileSync } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, baseUrl, freshIp, signIn, unique } from "../support/api.ts";
import { inTestProcess, testDatabase } from "../support/database.ts";
import { errorPaths, expectProblem } from "../support/fixtures.ts";
import { mailTo, waitForMail } from "../support/mail.ts";

/**
 * Forgotten passwords, resets, invitations, password changes and the rules for new passwords
 * (docs/decisions/0006), over real HTTP with the real e-mails read back from the test SMTP server.
 */

const DEV_PASSWORD = "demo-password";
const strongPassword = () => `${unique("Tr0ub4dor")} horse`;

type User = { id: string; email: string; password: string | null };

/** A fresh TEACHER created by the Demo School admin, in `locale`, with a password unless `null`. */
async function newUser(options: { locale?: string; password?: string | null } = {}): Promise<User> {
  const email = `${unique("pw")}@passwords.test`;
  const password = options.password === undefined ? strongPassword() : options.password;
  const response = await api("POST", "/api/users", {
    as: "admin@demo.test",
    json: {
      email,
      name: `Password ${unique("user")}`,
      role: "TEACHER",
      ...(password !== null ? { password } : {}),
      ...(options.locale ? { locale: options.locale } : {}),
    },
  });
  expect(response.status, response.text).toBe(201);
  return { id: response.body.id, email, password };
}

const forgot = (email: string, headers: Record<string, string> = {}) =>
  api("POST", "/api/auth/forgot-password", { json: { email }, headers: { "x-forwarded-for": freshIp(), ...headers } });

/**
 * Asks for a reset link for `email` by calling the service the route calls, and waits for what it
 * sends after answering: the routes answer first (so a known address costs no more than an unknown
 * one), and this is the only way to know that nothing more will come of a request.
 */
async function forgotAndEverythingSent(email: string): Promise<void> {
  const { requestPasswordReset } = await inTestProcess(() => import("../../app/features/passwords/passwords.server.ts"));
  const { sending } = await requestPasswordReset(email, freshIp());
  await sending;
}

const reset = (token: string, password: string) => api("POST", "/api/auth/reset-password", { json: { token, password } });

/** The set-password link of a message, and its token. */
function linkIn(text: string): { url: string; token: string } {
  const match = /(https?:\/\/\S+?\/reset-password\?token=([A-Za-z0-9_-]+))/.exec(text);
  if (!match) throw new Error(`No set-password link in:\n${text}`);
  return { url: match[1]!, token: match[2]! };
}

/** Asks for a reset link for `email` and answers it once the e-mail has arrived. */
async function requestLink(email: string): Promise<{ url: string; token: string; subject: string }> {
  const seen = (await mailTo(email)).length;
  const response = await forgot(email);
  expect(response.status, response.text).toBe(200);
  const mail = await waitForMail(email, seen);
  return { ...linkIn(mail.text), subject: mail.subject };
}

const profileWith = (cookie: string) => api("GET", "/api/user/profile", { cookie });

describe("POST /api/auth/forgot-password", () => {
  it("given a known and an unknown address, should answer the same 200 and e-mail only the known one, in its locale", async () => {
    const user = await newUser({ locale: "es" });
    const unknown = `${unique("nobody")}@passwords.test`;
    const known = await forgot(user.email);
    const stranger = await forgot(unknown);
    expect(known.status).toBe(200);
    expect(stranger.status).toBe(200);
    expect(known.text).toBe(stranger.text);
    expect(known.headers.get("content-type")).toBe(stranger.headers.get("content-type"));
    expect(known.body).toEqual({ ok: true, message: expect.stringContaining("If an account uses this address") });

    const mail = await waitForMail(user.email);
    expect(mail.subject).toBe("Elige una contraseña nueva");
    expect(mail.text).toContain("Hola");
    const { url, token } = linkIn(mail.text);
    expect(url).toBe(`${baseUrl()}/es/reset-password?token=${token}`);
    // 32 random bytes in base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Stored only as its SHA-256, valid for one hour.
    const stored = await testDatabase().verification.findFirst({ where: { userId: user.id, purpose: "PASSWORD_RESET", usedAt: null } });
    expect(stored!.secretHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(token);
    const ttl = stored!.expiresAt.getTime() - stored!.createdAt.getTime();
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000 + 1000);

    // The unknown address asked again, through the service, until all it sends is sent: nothing.
    await forgotAndEverythingSent(unknown);
    expect(await mailTo(unknown)).toEqual([]);
  });

  it("given a forged Host header, should still build the link from APP_URL", async () => {
    const user = await newUser();
    const seen = (await mailTo(user.email)).length;
    const response = await forgot(user.email, {
      host: "evil.example",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
      forwarded: "host=evil.example;proto=https",
    });
    expect(response.status).toBe(200);
    const mail = await waitForMail(user.email, seen);
    expect(mail.text + mail.html).not.toContain("evil.example");
    expect(linkIn(mail.text).url.startsWith(`${baseUrl()}/en/reset-password?token=`)).toBe(true);
  });

  it("given a deactivated account, should answer the same 200 and send nothing", async () => {
    const user = await newUser();
    await testDatabase().user.update({ where: { id: user.id }, data: { isActive: false } });
    const response = await forgot(user.email);
    expect(response.status).toBe(200);
    expect(response.body.message).toContain("If an account uses this address");
    // Asked again through the service, until all it sends is sent: no link issued, no e-mail.
    await forgotAndEverythingSent(user.email);
    expect(await mailTo(user.email)).toEqual([]);
    expect(await testDatabase().verification.count({ where: { userId: user.id, purpose: "PASSWORD_RESET" } })).toBe(0);
  });

  it("given the address in another case, should still send the link", async () => {
    const user = await newUser();
    const response = await forgot(user.email.toUpperCase());
    expect(response.status).toBe(200);
    expect(linkIn((await waitForMail(user.email)).text).token).toBeTruthy();
  });

  it("given a missing or empty e-mail or an unknown field, should answer 400", async () => {
    for (const json of [{}, { email: "" }, { email: "a@b.test", extra: 1 }]) {
      const response = await api("POST", "/api/auth/forgot-password", { json, headers: { "x-forwarded-for": freshIp() } });
      expectProblem(response, 400, "VALIDATION_FAILED");
    }
  });

  it("given 6 requests in an hour for one address (from different IPs), should answer the 6th with 429 and Retry-After", async () => {
    const address = `${unique("flood")}@passwords.test`;
    for (let i = 0; i < 5; i++) expect((await forgot(address)).status).toBe(200);
    const sixth = await forgot(address);
    expectProblem(sixth, 429, "RATE_LIMITED");
    const retryAfter = Number(sixth.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another address is not affected.
    expect((await forgot(`${unique("other")}@passwords.test`)).status).toBe(200);
  });

  it("given 21 requests in an hour from one IP (different addresses), should answer the 21st with 429", async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      expect((await forgot(`${unique("ip")}@passwords.test`, { "x-forwarded-for": ip })).status).toBe(200);
    }
    const response = await forgot(`${unique("ip")}@passwords.test`, { "x-forwarded-for": ip });
    expectProblem(response, 429, "RATE_LIMITED");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("POST /api/auth/reset-password", () => {
  it("given the e-mailed token, should set the password once, end every session, and a second use is 400", async () => {
    const user = await newUser();
    const firstCookie = await signIn(user.email, user.password!);
    const secondCookie = await signIn(user.email, user.password!);
    expect((await profileWith(firstCookie)).status).toBe(200);

    const { token } = await requestLink(user.email);
    const password = strongPassword();
    const response = await reset(token, password);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ok: true });

    for (const cookie of [firstCookie, secondCookie]) expectProblem(await profileWith(cookie), 401, "UNAUTHENTICATED");
    expect(await testDatabase().session.count({ where: { userId: user.id } })).toBe(0);
    await expect(signIn(user.email, user.password!)).rejects.toThrow(/401/);
    const cookie = await signIn(user.email, password);
    expect((await profileWith(cookie)).body.id).toBe(user.id);

    const again = await reset(token, strongPassword());
    expectProblem(again, 400, "INVALID_TOKEN");
    // The password from the first use stays.
    expect(await signIn(user.email, password)).toBeTruthy();
  });

  it("given an unknown, a used and an expired token, should answer the same 400 INVALID_TOKEN", async () => {
    const user = await newUser();
    const used = await requestLink(user.email);
    expect((await reset(used.token, strongPassword())).status).toBe(200);
    const expired = await requestLink(user.email);
    await testDatabase().verification.updateMany({
      where: { userId: user.id, purpose: "PASSWORD_RESET", usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const answers = await Promise.all([reset("A".repeat(43), strongPassword()), reset(used.token, strongPassword()), reset(expired.token, strongPassword())]);
    for (const answer of answers) expectProblem(answer, 400, "INVALID_TOKEN");
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
  });

  it("given a newer link, should refuse the older one and accept the newer", async () => {
    const user = await newUser();
    const older = await requestLink(user.email);
    const newer = await requestLink(user.email);
    expect(newer.token).not.toBe(older.token);
    expectProblem(await reset(older.token, strongPassword()), 400, "INVALID_TOKEN");
    expect((await reset(newer.token, strongPassword())).status).toBe(200);
  });

  it("given a refused password, should name the field and leave the link usable", async () => {
    const user = await newUser();
    const { token } = await requestLink(user.email);
    for (const password of ["short", "password123", DEV_PASSWORD, user.email]) {
      const response = await reset(token, password);
      expectProblem(response, 400);
      expect(errorPaths(response), password).toEqual(["password"]);
    }
    expect((await reset(token, strongPassword())).status).toBe(200);
  });

  it("given a missing token or password, should answer 400 naming them", async () => {
    const response = await api("POST", "/api/auth/reset-password", { json: {} });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response).sort()).toEqual(["password", "token"]);
  });
});

describe("rules for new passwords (one schema: POST /api/users, reset, change)", () => {
  const create = (password: string, email = `${unique("rule")}@passwords.test`) =>
    api("POST", "/api/users", { as: "admin@demo.test", json: { email, name: "Rule Check", role: "TEACHER", password } });

  it("given the shipped list, should contain the ~10,000 most common passwords, password123 among them", () => {
    const file = readFileSync(path.resolve(import.meta.dirname, "../../app/features/auth/common-passwords.txt"), "utf8");
    const entries = file.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    expect(entries.length).toBe(10_000);
    expect(entries).toContain("password123");
    expect(entries).toContain("qwertyuiop");
    expect(file).toContain("MIT");
  });

  it.each([
    ["7 characters", "abcdefg"],
    ["129 characters", "x".repeat(129)],
    ["a common password", "password123"],
    ["a common password in capitals", "PASSWORD123"],
    ["the development password", DEV_PASSWORD],
    ["129 emoji", "🦊".repeat(129)],
  ])("given %s, should answer 400 naming password and create nobody", async (_, password) => {
    const email = `${unique("rule")}@passwords.test`;
    const response = await create(password, email);
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["password"]);
    expect(await testDatabase().user.findUnique({ where: { email } })).toBeNull();
  });

  it("given the e-mail address itself (or its local part), should answer 400 naming password", async () => {
    const email = `${unique("self")}@passwords.test`;
    for (const password of [email, email.toUpperCase(), email.split("@")[0]!]) {
      const response = await create(password, email);
      expectProblem(response, 400, "VALIDATION_FAILED");
      expect(errorPaths(response)).toEqual(["password"]);
    }
  });

  it("given a 100 kB password, should answer a quick 400 before any hashing; over 1 MiB is 413", async () => {
    const started = Date.now();
    const response = await create("p".repeat(100_000));
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["password"]);
    expect(Date.now() - started).toBeLessThan(2000);
    const huge = await create("p".repeat(1024 * 1024 + 1));
    expectProblem(huge, 413, "PAYLOAD_TOO_LARGE");
  });

  it("given 8 emoji, 128 emoji or a long passphrase, should accept them and sign in with them", async () => {
    for (const password of ["🦊🐻🐼🐨🐯🦁🐮🐷", "🌵".repeat(128), "correct horse battery staple, 2026 édition ✓", "x".repeat(128)]) {
      const email = `${unique("ok")}@passwords.test`;
      const response = await create(password, email);
      expect(response.status, response.text).toBe(201);
      expect(await signIn(email, password)).toMatch(/^remix-auth\.session-token=/);
    }
  });

  it("given the change-password endpoint, should apply the same rules to newPassword", async () => {
    const user = await newUser();
    const cookie = await signIn(user.email, user.password!);
    for (const newPassword of ["short", "password123", DEV_PASSWORD, user.email, "p".repeat(100_000)]) {
      const response = await api("POST", "/api/user/password", { cookie, json: { currentPassword: user.password, newPassword } });
      expectProblem(response, 400);
      expect(errorPaths(response), newPassword.slice(0, 20)).toEqual(["newPassword"]);
    }
    expect((await profileWith(cookie)).status).toBe(200);
  });
});

describe("POST /api/user/password", () => {
  const change = (cookie: string, json: unknown) => api("POST", "/api/user/password", { cookie, json });

  it("given the right current password, should change it, end every session and give the caller a new cookie", async () => {
    const user = await newUser();
    const caller = await signIn(user.email, user.password!);
    const elsewhere = await signIn(user.email, user.password!);
    const newPassword = strongPassword();
    const response = await change(caller, { currentPassword: user.password, newPassword });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ok: true });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("remix-auth.session-token="));
    expect(setCookie).toMatch(/HttpOnly/i);
    const fresh = setCookie!.split(";")[0]!;

    expectProblem(await profileWith(elsewhere), 401, "UNAUTHENTICATED");
    expectProblem(await profileWith(caller), 401, "UNAUTHENTICATED");
    expect((await profileWith(fresh)).body.id).toBe(user.id);
    expect(await testDatabase().session.count({ where: { userId: user.id } })).toBe(1);

    await expect(signIn(user.email, user.password!)).rejects.toThrow(/401/);
    expect(await signIn(user.email, newPassword)).toBeTruthy();
  });

  it("given a wrong or missing current password, should answer 400 naming currentPassword and change nothing", async () => {
    const user = await newUser();
    const cookie = await signIn(user.email, user.password!);
    const wrong = await change(cookie, { currentPassword: "not-my-password", newPassword: strongPassword() });
    expectProblem(wrong, 400, "INVALID_CURRENT_PASSWORD");
    expect(errorPaths(wrong)).toEqual(["currentPassword"]);
    const missing = await change(cookie, { newPassword: strongPassword() });
    expectProblem(missing, 400, "VALIDATION_FAILED");
    expect(errorPaths(missing)).toEqual(["currentPassword"]);
    expect((await profileWith(cookie)).status).toBe(200);
    expect(await signIn(user.email, user.password!)).toBeTruthy();
  });

  it("given no session, should answer 401", async () => {
    expectProblem(await api("POST", "/api/user/password", { json: { currentPassword: "x", newPassword: strongPassword() } }), 401, "UNAUTHENTICATED");
  });
});

describe("PUT /api/user/profile changing the e-mail", () => {
  it("given no or a wrong currentPassword, should answer 400 naming it and keep the address; with it, should change it", async () => {
    const user = await newUser();
    const cookie = await signIn(user.email, user.password!);
    const email = `${unique("moved")}@passwords.test`;
    const missing = await api("PUT", "/api/user/profile", { cookie, json: { name: "Moved", email } });
    expectProblem(missing, 400);
    expect(errorPaths(missing)).toEqual(["currentPassword"]);
    const wrong = await api("PUT", "/api/user/profile", { cookie, json: { name: "Moved", email, currentPassword: "not-my-password" } });
    expectProblem(wrong, 400, "INVALID_CURRENT_PASSWORD");
    expect(errorPaths(wrong)).toEqual(["currentPassword"]);
    expect((await profileWith(cookie)).body.email).toBe(user.email);

    const moved = await api("PUT", "/api/user/profile", { cookie, json: { name: "Moved", email, currentPassword: user.password } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.email).toBe(email);
    expect(await signIn(email, user.password!)).toBeTruthy();
  });

  it("given the same e-mail again or no e-mail, should not ask for the password", async () => {
    const user = await newUser();
    const cookie = await signIn(user.email, user.password!);
    for (const json of [{ name: "Same" }, { name: "Same", email: user.email.toUpperCase() }]) {
      const response = await api("PUT", "/api/user/profile", { cookie, json });
      expect(response.status, response.text).toBe(200);
    }
  });
});

describe("invitations (POST /api/users without a password)", () => {
  it("given no password, should e-mail a 72-hour set-password link in the user's locale that sets the first password once", async () => {
    const user = await newUser({ locale: "pt-BR", password: null });
    const stored = await testDatabase().user.findUnique({ where: { id: user.id } });
    expect(stored).toMatchObject({ passwordHash: null, locale: "pt-BR" });

    const mail = await waitForMail(user.email);
    expect(mail.subject).toBe("Sua conta em Demo School");
    expect(mail.text).toContain("72 horas");
    const { url, token } = linkIn(mail.text);
    expect(url).toBe(`${baseUrl()}/pt-BR/reset-password?token=${token}`);
    const link = await testDatabase().verification.findFirst({ where: { userId: user.id, purpose: "PASSWORD_RESET", usedAt: null } });
    const ttl = link!.expiresAt.getTime() - link!.createdAt.getTime();
    expect(ttl).toBeGreaterThan(71 * 60 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(72 * 60 * 60 * 1000 + 1000);

    // No password yet: nothing signs in.
    await expect(signIn(user.email, "anything-at-all")).rejects.toThrow(/401/);
    const password = strongPassword();
    expect((await reset(token, password)).status).toBe(200);
    const cookie = await signIn(user.email, password);
    expect((await profileWith(cookie)).body.email).toBe(user.email);
    expectProblem(await reset(token, strongPassword()), 400, "INVALID_TOKEN");
  });

  it("given a password, should send no invitation", async () => {
    // An invitation is issued and e-mailed before the answer (the mail server has stored it by
    // then): once the user is created, there is no link and no message, and none can follow.
    const user = await newUser();
    expect(await mailTo(user.email)).toEqual([]);
    expect(await testDatabase().verification.count({ where: { userId: user.id, purpose: "PASSWORD_RESET" } })).toBe(0);
  });
});
