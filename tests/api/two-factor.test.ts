import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { inTestProcess, testDatabase } from "../support/database.ts";
import { createSignedInUser, expectProblem } from "../support/fixtures.ts";
import {
  callback,
  checkCredentials,
  enableEmail,
  enableTotp,
  mailCount,
  nextMailedCode,
  PERIOD,
  sessionCookieOf,
  setupTotp,
  totpCode,
  wrongTotpCode,
} from "../support/two-factor.ts";

/**
 * The second factor over real HTTP: TOTP codes are computed from the otpauth URI as an
 * authenticator app would, e-mailed codes are read from the test SMTP server. Every test enrols a
 * fresh user, so no demo login ever gets a second factor. No test waits for a step to pass: a code
 * sent over HTTP is one that stays valid if its step ends on the way (the window allows one step of
 * drift), and the edges of the window are checked by the service itself at a time the test gives it.
 */

const setup = (cookie: string, method: string) => api("POST", "/api/auth/two-factor/setup", { cookie, json: { method } });
const enable = (cookie: string, code: string) => api("POST", "/api/auth/two-factor/enable", { cookie, json: { code } });
const disable = (cookie: string, json: unknown) => api("POST", "/api/auth/two-factor/disable", { cookie, json });
const profileOf = (cookie: string) => api("GET", "/api/user/profile", { cookie });

describe("TOTP enrolment", () => {
  it("given setup, should answer a secret, its otpauth URI and a PNG QR code, and keep the factor off until a code proves it", async () => {
    const user = await createSignedInUser("TEACHER");
    const pending = await setupTotp(user);
    expect(pending.method).toBe("TOTP");
    expect(pending.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(pending.otpauthUrl);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    expect(uri.searchParams.get("secret")).toBe(pending.secret);
    expect(uri.searchParams.get("issuer")).toBe("Assessment Service");
    expect(uri.searchParams.get("algorithm") ?? "SHA1").toBe("SHA1");
    expect(uri.searchParams.get("digits") ?? "6").toBe("6");
    expect(uri.searchParams.get("period") ?? "30").toBe("30");
    expect(pending.qrCode).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(pending.qrCode.slice("data:image/png;base64,".length), "base64");
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(new Date(pending.expiresAt).getTime()).toBeGreaterThan(Date.now());

    // Not on yet: sign-in needs no code, the profile says off.
    expect((await checkCredentials(user)).body).toEqual({ twoFactorRequired: false });
    expect((await profileOf(user.cookie)).body).toMatchObject({ twoFactorEnabled: false, twoFactorMethod: null });

    // The pending secret is stored encrypted, not as it was answered.
    const row = await testDatabase().verification.findFirst({ where: { userId: user.id, purpose: "TOTP_SETUP", usedAt: null } });
    expect(row?.payload).toBeTruthy();
    expect(row!.payload).not.toContain(pending.secret);
  });

  it("given a wrong code, should refuse to enable (400 naming the field); the right one turns TOTP on", async () => {
    const user = await createSignedInUser("TEACHER");
    const { otpauthUrl, secret } = await setupTotp(user);
    const wrong = await enable(user.cookie, await wrongTotpCode(otpauthUrl));
    expectProblem(wrong, 400, "TWO_FACTOR_INVALID");
    expect(wrong.body.errors).toContainEqual(expect.objectContaining({ path: "code" }));
    expectProblem(await enable(user.cookie, "12345"), 400);
    expect((await profileOf(user.cookie)).body.twoFactorEnabled).toBe(false);

    const right = await enable(user.cookie, await totpCode(otpauthUrl));
    expect(right.status, right.text).toBe(200);
    expect(right.body).toEqual({ twoFactorEnabled: true, twoFactorMethod: "TOTP" });

    const profile = await profileOf(user.cookie);
    expect(profile.body).toMatchObject({ twoFactorEnabled: true, twoFactorMethod: "TOTP" });
    expect(profile.text).not.toContain(secret);
    // Encrypted at rest.
    const stored = await testDatabase().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.twoFactorMethod).toBe("TOTP");
    expect(stored.totpSecretEncrypted).toBeTruthy();
    expect(stored.totpSecretEncrypted).not.toContain(secret);
  });

  it("given enable without a pending setup, or setup while a factor is on, should answer 409", async () => {
    const user = await createSignedInUser("TEACHER");
    expectProblem(await enable(user.cookie, "123456"), 409, "TWO_FACTOR_SETUP_MISSING");
    await enableTotp(user);
    expectProblem(await setup(user.cookie, "TOTP"), 409, "TWO_FACTOR_ALREADY_ENABLED");
    expectProblem(await setup(user.cookie, "EMAIL"), 409, "TWO_FACTOR_ALREADY_ENABLED");
    expectProblem(await enable(user.cookie, "123456"), 409, "TWO_FACTOR_ALREADY_ENABLED");
  });

  it("given 5 wrong enrolment codes, should spend the setup so a right code needs a new setup", async () => {
    const user = await createSignedInUser("TEACHER");
    const { otpauthUrl } = await setupTotp(user);
    const wrong = await wrongTotpCode(otpauthUrl);
    for (let i = 0; i < 5; i++) expectProblem(await enable(user.cookie, wrong), 400, "TWO_FACTOR_INVALID");
    expectProblem(await enable(user.cookie, await totpCode(otpauthUrl)), 409, "TWO_FACTOR_SETUP_MISSING");
  });

  it("given an unknown method or extra fields, should answer 400", async () => {
    const user = await createSignedInUser("TEACHER");
    expectProblem(await setup(user.cookie, "SMS"), 400);
    expectProblem(await api("POST", "/api/auth/two-factor/setup", { cookie: user.cookie, json: { method: "TOTP", secret: "AAAA" } }), 400);
  });
});

describe("signing in with TOTP", () => {
  it("given TOTP on, should say so at check-credentials and sign in only with the password and a right, unused code", async () => {
    const user = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    const secret = new URL(otpauthUrl).searchParams.get("secret")!;

    const check = await checkCredentials(user);
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ twoFactorRequired: true, method: "TOTP" });

    const withoutCode = await callback(user);
    expectProblem(withoutCode, 401, "TWO_FACTOR_REQUIRED");
    expect(sessionCookieOf(withoutCode)).toBeUndefined();

    const wrong = await callback(user, await wrongTotpCode(otpauthUrl));
    expectProblem(wrong, 401, "TWO_FACTOR_INVALID");
    expect(sessionCookieOf(wrong)).toBeUndefined();

    const code = await totpCode(otpauthUrl);
    // A code alone, with a wrong password, never signs in.
    expectProblem(await callback({ email: user.email, password: "not-the-password" }, code), 401);

    const right = await callback(user, code);
    expect(right.status, right.text).toBe(200);
    const session = sessionCookieOf(right)!;
    expect(session).toBeTruthy();
    expect((await api("GET", "/api/auth/session", { cookie: session })).body.user.email).toBe(user.email);

    // The same code again (replay) is refused.
    expectProblem(await callback(user, code), 401, "TWO_FACTOR_INVALID");

    // The secret never shows up again.
    for (const response of [check, right, await profileOf(session), await api("GET", "/api/auth/session", { cookie: session })]) {
      expect(response.text).not.toContain(secret);
    }
  });

  it("given a phone's clock a step ahead, should sign in with the next step's code and refuse codes further off", async () => {
    const user = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    // Over HTTP, only codes whose answer cannot change if the step ends on the way: two steps
    // behind and three ahead are refused either way, the next step's is accepted either way.
    expectProblem(await callback(user, await totpCode(otpauthUrl, -2)), 401, "TWO_FACTOR_INVALID");
    expectProblem(await callback(user, await totpCode(otpauthUrl, 3)), 401, "TWO_FACTOR_INVALID");
    const ahead = await totpCode(otpauthUrl, 1);
    expect((await callback(user, ahead)).status).toBe(200);
    // Once a later step was used, neither it nor the current one works.
    expectProblem(await callback(user, ahead), 401, "TWO_FACTOR_INVALID");
    expectProblem(await callback(user, await totpCode(otpauthUrl)), 401, "TWO_FACTOR_INVALID");
  });

  it("given clock drift, should accept the previous and the next step and refuse codes two steps away", async () => {
    const user = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    const { verifySecondFactorCode } = await inTestProcess(() => import("../../app/features/auth/two-factor.server.ts"));
    // The service checks each code at the moment the test gives it: the middle of a step ten steps
    // from now, so every code below is exactly as far from it as it says.
    const at = new Date((Math.floor(Date.now() / 1000 / PERIOD) + 10) * PERIOD * 1000 + (PERIOD / 2) * 1000);
    const signIn = async (offsetSteps: number) => verifySecondFactorCode(user.id, "TOTP", await totpCode(otpauthUrl, offsetSteps, at), at);
    const refused = { status: 401, code: "TWO_FACTOR_INVALID" };
    await expect(signIn(2)).rejects.toMatchObject(refused);
    await expect(signIn(-2)).rejects.toMatchObject(refused);

    // The step before (unused) is accepted …
    await signIn(-1);
    // … then the current one, then the next one (a phone clock 30 s ahead) …
    await signIn(0);
    await signIn(1);
    // … and none of them twice; nor an older step once a later one was used.
    await expect(signIn(1)).rejects.toMatchObject(refused);
    await expect(signIn(0)).rejects.toMatchObject(refused);
    await expect(signIn(3)).rejects.toMatchObject(refused);
  });

  it("given the same code twice at the same moment, should accept it once", async () => {
    const user = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    const code = await totpCode(otpauthUrl);
    const statuses = (await Promise.all([callback(user, code), callback(user, code), callback(user, code)])).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(2);
  });

  it("given 5 wrong codes, should lock the second step for 15 minutes, even for the right code", async () => {
    const user = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    const wrong = await wrongTotpCode(otpauthUrl);
    for (let i = 0; i < 5; i++) expectProblem(await callback(user, wrong), 401, "TWO_FACTOR_INVALID");

    const locked = await callback(user, await totpCode(otpauthUrl));
    expectProblem(locked, 429, "TWO_FACTOR_LOCKED");
    expect(sessionCookieOf(locked)).toBeUndefined();
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // check-credentials tells the same instead of promising a second step that cannot succeed.
    expectProblem(await checkCredentials(user), 429, "TWO_FACTOR_LOCKED");
    // A wrong password still answers 401, saying nothing about the lock.
    expectProblem(await callback({ email: user.email, password: "not-the-password" }, wrong), 401);
  });

  it("given fewer than 5 wrong codes and then the right one, should sign in and forget the wrong ones", async () => {
    const user = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    const wrong = await wrongTotpCode(otpauthUrl);
    for (let i = 0; i < 4; i++) expectProblem(await callback(user, wrong), 401);
    expect((await callback(user, await totpCode(otpauthUrl))).status).toBe(200);
    const counter = await testDatabase().rateLimit.findUnique({ where: { key: `two-factor-attempts:${user.id}` } });
    expect(counter).toBeNull();
  });
});

describe("POST /api/auth/two-factor/disable", () => {
  it("given no password or a wrong one, should refuse (400, 401); the right one turns the factor off and erases the secret", async () => {
    const user = await createSignedInUser("TEACHER");
    await enableTotp(user);
    expectProblem(await disable(user.cookie, {}), 400);
    expectProblem(await disable(user.cookie, { password: "" }), 400);
    expectProblem(await disable(user.cookie, { password: "not-the-password" }), 401, "INVALID_PASSWORD");
    expect((await profileOf(user.cookie)).body.twoFactorEnabled).toBe(true);

    const off = await disable(user.cookie, { password: user.password });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ twoFactorEnabled: false, twoFactorMethod: null });
    expect((await profileOf(user.cookie)).body).toMatchObject({ twoFactorEnabled: false, twoFactorMethod: null });
    const stored = await testDatabase().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored).toMatchObject({ twoFactorMethod: null, totpSecretEncrypted: null, totpLastUsedStep: null });

    expect((await checkCredentials(user)).body).toEqual({ twoFactorRequired: false });
    expect((await callback(user)).status).toBe(200);
  });
});

describe("codes by e-mail", () => {
  it("given setup by e-mail, should enable only with the mailed code; check-credentials then says EMAIL", async () => {
    const user = await createSignedInUser("TEACHER");
    const seen = await mailCount(user.email);
    const started = await setup(user.cookie, "EMAIL");
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ method: "EMAIL", sentTo: user.email });
    const code = await nextMailedCode(user.email, seen);
    const wrong = code === "000000" ? "000001" : "000000";
    expectProblem(await enable(user.cookie, wrong), 400, "TWO_FACTOR_INVALID");
    expect((await profileOf(user.cookie)).body.twoFactorEnabled).toBe(false);
    const on = await enable(user.cookie, code);
    expect(on.status, on.text).toBe(200);
    expect(on.body).toEqual({ twoFactorEnabled: true, twoFactorMethod: "EMAIL" });
    expect((await profileOf(user.cookie)).body).toMatchObject({ twoFactorEnabled: true, twoFactorMethod: "EMAIL" });
  });

  it("given check-credentials, should e-mail a 6-digit code that signs in once", async () => {
    const user = await createSignedInUser("TEACHER");
    await enableEmail(user);
    const seen = await mailCount(user.email);
    const check = await checkCredentials(user);
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ twoFactorRequired: true, method: "EMAIL" });
    const code = await nextMailedCode(user.email, seen);

    expectProblem(await callback(user), 401, "TWO_FACTOR_REQUIRED");
    const signedIn = await callback(user, code);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(sessionCookieOf(signedIn)).toBeTruthy();
    expectProblem(await callback(user, code), 401, "TWO_FACTOR_EXPIRED");
    // Only its hash is stored.
    const rows = await testDatabase().verification.findMany({ where: { userId: user.id, purpose: "TWO_FACTOR_EMAIL_CODE" } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.secretHash).not.toContain(code);
  });

  it("given a new code, should cancel the one sent before", async () => {
    const user = await createSignedInUser("TEACHER");
    await enableEmail(user);
    let seen = await mailCount(user.email);
    await checkCredentials(user);
    const first = await nextMailedCode(user.email, seen);
    seen += 1;
    await checkCredentials(user);
    const second = await nextMailedCode(user.email, seen);
    if (first !== second) expectProblem(await callback(user, first), 401);
    expect((await callback(user, second)).status).toBe(200);
  });

  it("given 5 wrong tries, should spend the code (and lock the second step)", async () => {
    const user = await createSignedInUser("TEACHER");
    await enableEmail(user);
    const seen = await mailCount(user.email);
    await checkCredentials(user);
    const code = await nextMailedCode(user.email, seen);
    const wrong = code === "000000" ? "000001" : "000000";
    for (let i = 0; i < 4; i++) expectProblem(await callback(user, wrong), 401, "TWO_FACTOR_INVALID");
    // The fifth wrong try spends the code, and says so.
    expectProblem(await callback(user, wrong), 401, "TWO_FACTOR_EXPIRED");
    expectProblem(await callback(user, code), 429, "TWO_FACTOR_LOCKED");

    const row = await testDatabase().verification.findFirstOrThrow({
      where: { userId: user.id, purpose: "TWO_FACTOR_EMAIL_CODE" },
      orderBy: { createdAt: "desc" },
    });
    expect(row.attempts).toBe(5);
    expect(row.usedAt).not.toBeNull();
    // Even once the lock is lifted, the spent code stays spent.
    await testDatabase().rateLimit.deleteMany({ where: { key: `two-factor-attempts:${user.id}` } });
    expectProblem(await callback(user, code), 401, "TWO_FACTOR_EXPIRED");
  });

  it("given codes asked for too often, should answer 429 past 3 e-mails in 10 minutes and send no more", async () => {
    const user = await createSignedInUser("TEACHER");
    await enableEmail(user); // the enrolment code is the first of the three
    let seen = await mailCount(user.email);
    for (let i = 0; i < 2; i++) {
      expect((await checkCredentials(user)).status).toBe(200);
      await nextMailedCode(user.email, seen++);
    }
    const limited = await checkCredentials(user);
    expectProblem(limited, 429, "RATE_LIMITED");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    // A code is issued and e-mailed before the answer (the mail server has stored it by then), so
    // once the 429 is here nothing more can come of that call: no fourth code, no fourth message.
    expect(await mailCount(user.email)).toBe(seen);
    expect(await testDatabase().verification.count({ where: { userId: user.id, purpose: "TWO_FACTOR_EMAIL_CODE" } })).toBe(3);
  });

  it("given setup by e-mail asked again, should cancel the earlier enrolment code", async () => {
    const user = await createSignedInUser("TEACHER");
    let seen = await mailCount(user.email);
    expect((await setup(user.cookie, "EMAIL")).status).toBe(200);
    const first = await nextMailedCode(user.email, seen++);
    expect((await setup(user.cookie, "EMAIL")).status).toBe(200);
    const second = await nextMailedCode(user.email, seen++);
    if (first !== second) expectProblem(await enable(user.cookie, first), 400);
    expect((await enable(user.cookie, second)).status).toBe(200);
  });
});
