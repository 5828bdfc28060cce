import { describe, expect, it } from "vitest";
import { en } from "../../app/i18n/en.ts";
import { api, baseUrl, freshIp, signIn, unique, withCsrf } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { type CreatedUser, createSignedInUser, expectProblem } from "../support/fixtures.ts";
import { mailTo, waitForMail } from "../support/mail.ts";
import { checkCredentials, setupTotp, totpCode } from "../support/two-factor.ts";

/**
 * How long a personal API token lives (docs/api-contract.md §23, ADR 43), over real HTTP: every
 * recovery action ends the tokens made before it, a token cannot change its owner's password,
 * second factor or tokens (403 TOKEN_SCOPE), and administrators reach only the tokens of users
 * they may manage.
 */

const strongPassword = () => `${unique("Tr0ub4dor")} horse`;
const asBearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function tokenFor(cookie: string, name = "Grade book sync") {
  const created = await api("POST", "/api/user/tokens", { cookie, json: { name } });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string; token: string };
}

/** What a token may read: the caller's profile. */
const readWith = (token: string) => api("GET", "/api/user/profile", { headers: asBearer(token) });

async function expectWorks(token: string) {
  const response = await readWith(token);
  expect(response.status, response.text).toBe(200);
}

async function expectEnded(token: string) {
  const response = await readWith(token);
  expectProblem(response, 401, "UNAUTHENTICATED");
}

/** A reset link e-mailed to `email` by "Forgot your password?", and its token. */
async function resetLinkFor(email: string): Promise<string> {
  const seen = (await mailTo(email)).length;
  const asked = await api("POST", "/api/auth/forgot-password", { json: { email }, headers: { "x-forwarded-for": freshIp() } });
  expect(asked.status, asked.text).toBe(200);
  const mail = await waitForMail(email, seen);
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`No reset link in:\n${mail.text}`);
  return match[1]!;
}

/** Each recovery action, done to `user` through the API as a person would. */
const recoveryActions: [string, (user: CreatedUser) => Promise<void>][] = [
  [
    "the owner's password change",
    async (user) => {
      const changed = await api("POST", "/api/user/password", { cookie: user.cookie, json: { currentPassword: user.password, newPassword: strongPassword() } });
      expect(changed.status, changed.text).toBe(200);
    },
  ],
  [
    "a password reset through the e-mailed link",
    async (user) => {
      const token = await resetLinkFor(user.email);
      const reset = await api("POST", "/api/auth/reset-password", { json: { token, password: strongPassword() } });
      expect(reset.status, reset.text).toBe(200);
    },
  ],
  [
    "an administrator's revoke of the sessions",
    async (user) => {
      const revoked = await api("POST", `/api/users/${user.id}/sessions/revoke`, { as: "admin@demo.test" });
      expect(revoked.status, revoked.text).toBe(200);
      expect(revoked.body).toEqual({ revoked: 1 });
    },
  ],
  [
    "an administrator's reset of the second factor",
    async (user) => {
      const reset = await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { resetTwoFactor: true } });
      expect(reset.status, reset.text).toBe(200);
    },
  ],
  [
    "a deactivation",
    async (user) => {
      const deactivated = await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { isActive: false } });
      expect(deactivated.status, deactivated.text).toBe(200);
    },
  ],
  [
    "a deactivation and then a reactivation",
    async (user) => {
      for (const isActive of [false, true]) {
        const changed = await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { isActive } });
        expect(changed.status, changed.text).toBe(200);
        expect(changed.body.isActive).toBe(isActive);
      }
    },
  ],
];

describe("a token made before a recovery action", () => {
  it.each(recoveryActions)("given %s, should answer 401 from then on", async (_, act) => {
    const user = await createSignedInUser("TEACHER");
    const token = await tokenFor(user.cookie);
    const other = await tokenFor(user.cookie, "Clinic records");
    await expectWorks(token.token);

    await act(user);

    await expectEnded(token.token);
    await expectEnded(other.token);
    expect(await testDatabase().apiToken.count({ where: { userId: user.id } })).toBe(0);
  });

  it("given a password change, should leave the owner's new session able to make a token that works", async () => {
    const user = await createSignedInUser("TEACHER");
    const before = await tokenFor(user.cookie);
    const newPassword = strongPassword();
    const changed = await api("POST", "/api/user/password", { cookie: user.cookie, json: { currentPassword: user.password, newPassword } });
    expect(changed.status, changed.text).toBe(200);
    await expectEnded(before.token);

    const cookie = await signIn(user.email, newPassword);
    expect((await api("GET", "/api/user/tokens", { cookie })).body.tokens).toEqual([]);
    const after = await tokenFor(cookie);
    await expectWorks(after.token);
  });

  it("given a reactivated user, should keep the old tokens ended and let the user make new ones", async () => {
    const user = await createSignedInUser("TEACHER");
    const before = await tokenFor(user.cookie);
    for (const isActive of [false, true]) {
      expect((await api("PATCH", `/api/users/${user.id}`, { as: "admin@demo.test", json: { isActive } })).status).toBe(200);
    }
    await expectEnded(before.token);
    const cookie = await signIn(user.email, user.password);
    const after = await tokenFor(cookie);
    await expectWorks(after.token);
    await expectEnded(before.token);
  });

  it("given the owner's own end of their other sessions, should leave the tokens working (not a recovery action)", async () => {
    const user = await createSignedInUser("TEACHER");
    const token = await tokenFor(user.cookie);
    const other = await signIn(user.email, user.password);
    const { cookie, "x-csrf-token": csrfToken } = withCsrf(user.cookie);
    const ended = await fetch(`${baseUrl()}/en/profile/sessions`, {
      method: "POST",
      headers: { cookie: cookie!, "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
      body: new URLSearchParams({ intent: "sessions", csrfToken: csrfToken! }),
      redirect: "manual",
    });
    expect(ended.status).toBe(302);
    expect((await api("GET", "/api/user/role", { cookie: other })).status).toBe(401);
    await expectWorks(token.token);
  });
});

describe("what a token may not do to its own account", () => {
  it("given a token, should refuse a password change, a second factor and token changes with 403 TOKEN_SCOPE and change nothing", async () => {
    const user = await createSignedInUser("TEACHER");
    const { token, id } = await tokenFor(user.cookie);
    const headers = asBearer(token);

    expectProblem(
      await api("POST", "/api/user/password", { headers, json: { currentPassword: user.password, newPassword: strongPassword() } }),
      403,
      "TOKEN_SCOPE",
    );
    // Refused before the body is read: an empty one says the same.
    expectProblem(await api("POST", "/api/user/password", { headers, json: {} }), 403, "TOKEN_SCOPE");
    expectProblem(await api("POST", "/api/auth/two-factor/setup", { headers, json: { method: "TOTP" } }), 403, "TOKEN_SCOPE");
    expectProblem(await api("POST", "/api/auth/two-factor/setup", { headers, json: { method: "EMAIL" } }), 403, "TOKEN_SCOPE");
    // Even with the owner's own setup waiting and a right code, a token cannot turn the factor on.
    const { otpauthUrl } = await setupTotp(user);
    expectProblem(await api("POST", "/api/auth/two-factor/enable", { headers, json: { code: await totpCode(otpauthUrl) } }), 403, "TOKEN_SCOPE");
    expectProblem(await api("POST", "/api/auth/two-factor/disable", { headers, json: { password: user.password } }), 403, "TOKEN_SCOPE");
    expectProblem(await api("POST", "/api/user/tokens", { headers, json: { name: "Planted" } }), 403, "TOKEN_SCOPE");
    expectProblem(await api("DELETE", `/api/user/tokens/${id}`, { headers }), 403, "TOKEN_SCOPE");

    // Nothing changed: the password, no factor, the one token, which still reads.
    expect((await checkCredentials(user)).body).toEqual({ twoFactorRequired: false });
    const profile = await api("GET", "/api/user/profile", { headers });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ twoFactorEnabled: false, twoFactorMethod: null });
    const listed = await api("GET", "/api/user/tokens", { headers });
    expect(listed.status).toBe(200);
    expect(listed.body.tokens.map((t: { id: string }) => t.id)).toEqual([id]);
    // The owner's session still may.
    expect((await api("DELETE", `/api/user/tokens/${id}`, { cookie: user.cookie })).status).toBe(200);
  });

  it("given a token posting the profile page's password form, should refuse it with the dictionary's sentence", async () => {
    const user = await createSignedInUser("TEACHER");
    const { token } = await tokenFor(user.cookie);
    // Whoever holds a token can fetch a CSRF pair like anyone else.
    const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const newPassword = strongPassword();
    const post = (page: string) =>
      fetch(`${baseUrl()}/en/${page}`, {
        method: "POST",
        headers: { ...asBearer(token), cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
        body: new URLSearchParams({ intent: "password", currentPassword: user.password, newPassword, csrfToken }),
        redirect: "manual",
      });
    // A post to the profile as it was before its pages were split is sent on to the password page,
    // which refuses the token.
    const legacy = await post("profile");
    expect(legacy.status).toBe(307);
    expect(legacy.headers.get("location")).toBe("/en/profile/password");
    const response = await post("profile/password");
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(en.problems.TOKEN_SCOPE);
    // The password did not change and the token still works.
    await expect(signIn(user.email, newPassword)).rejects.toThrow();
    await expectWorks(token);
  });
});

describe("administrators and a SUPER_ADMIN's tokens", () => {
  it("given an ADMIN, should refuse to list or delete a SUPER_ADMIN's tokens (403, as for the user); a SUPER_ADMIN may", async () => {
    const email = `${unique("super")}@fixtures.test`;
    const password = strongPassword();
    const created = await api("POST", "/api/users", { as: "superadmin@demo.test", json: { email, name: unique("Super"), role: "SUPER_ADMIN", password } });
    expect(created.status, created.text).toBe(201);
    const superAdmin = { id: created.body.id as string, cookie: await signIn(email, password) };
    const { token, id } = await tokenFor(superAdmin.cookie);

    // The users API refuses an ADMIN this user with 403; so do the tokens.
    expectProblem(await api("PATCH", `/api/users/${superAdmin.id}`, { as: "admin@demo.test", json: { name: "Renamed" } }), 403, "FORBIDDEN");
    expectProblem(await api("GET", `/api/users/${superAdmin.id}/tokens`, { as: "admin@demo.test" }), 403, "FORBIDDEN");
    expectProblem(await api("DELETE", `/api/user/tokens/${id}`, { as: "admin@demo.test" }), 403, "FORBIDDEN");
    // Another organization's ADMIN does not see them at all.
    expectProblem(await api("GET", `/api/users/${superAdmin.id}/tokens`, { as: "admin@other.test" }), 404, "NOT_FOUND");
    expectProblem(await api("DELETE", `/api/user/tokens/${id}`, { as: "admin@other.test" }), 404, "NOT_FOUND");
    await expectWorks(token);

    const listed = await api("GET", `/api/users/${superAdmin.id}/tokens`, { as: "superadmin@demo.test" });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.tokens.map((t: { id: string }) => t.id)).toEqual([id]);
    expect((await api("DELETE", `/api/user/tokens/${id}`, { as: "superadmin@demo.test" })).status).toBe(200);
    await expectEnded(token);
  });

  it("given an ADMIN, should still list and delete the tokens of another ADMIN of the organization", async () => {
    const admin = await createSignedInUser("ADMIN");
    const { token, id } = await tokenFor(admin.cookie);
    const listed = await api("GET", `/api/users/${admin.id}/tokens`, { as: "admin@demo.test" });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.tokens.map((t: { id: string }) => t.id)).toEqual([id]);
    expect((await api("DELETE", `/api/user/tokens/${id}`, { as: "admin@demo.test" })).status).toBe(200);
    await expectEnded(token);
  });
});
