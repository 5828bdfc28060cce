import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, baseUrl, freshIp, signIn, unique } from "../support/api.ts";

const password = () => inject("seedPassword");

async function csrf() {
  const response = await fetch(`${baseUrl()}/api/auth/csrf`);
  const cookie = response.headers.getSetCookie()[0]!;
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { csrfToken, cookie: cookie.split(";")[0]!, setCookie: cookie };
}

describe("GET /api/auth/csrf", () => {
  it("given no cookie, should answer a token and set the signed, HttpOnly CSRF cookie", async () => {
    const { csrfToken, setCookie } = await csrf();
    expect(csrfToken).toMatch(/^[\w-]{40,}$/);
    expect(setCookie).toMatch(/^remix-auth\.csrf-token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Secure/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
  });

  it("given the cookie again, should answer the same token without a new cookie", async () => {
    const first = await csrf();
    const again = await api("GET", "/api/auth/csrf", { cookie: first.cookie });
    expect(again.body.csrfToken).toBe(first.csrfToken);
    expect(again.headers.get("set-cookie")).toBeNull();
  });
});

describe("POST /api/auth/check-credentials", () => {
  const check = (json: unknown, ip = freshIp()) => api("POST", "/api/auth/check-credentials", { json, headers: { "x-forwarded-for": ip } });

  it("given valid credentials of a user without a second factor, should say none is required", async () => {
    const response = await check({ email: "teacher@demo.test", password: password() });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ twoFactorRequired: false });
  });

  it("given the e-mail in another case, should still accept it", async () => {
    const response = await check({ email: "Teacher@Demo.TEST", password: password() });
    expect(response.status).toBe(200);
  });

  it("given a missing field, should answer 400 naming it", async () => {
    const response = await check({ email: "teacher@demo.test" });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(response.body.errors).toContainEqual(expect.objectContaining({ path: "password" }));
  });

  it("given a wrong password or an unknown e-mail, should answer the same 401", async () => {
    const wrongPassword = await check({ email: "teacher@demo.test", password: "not-the-password" });
    const unknownEmail = await check({ email: "nobody@demo.test", password: "not-the-password" });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(unknownEmail.body.detail).toBe(wrongPassword.body.detail);
    expect(unknownEmail.body.code).toBe(wrongPassword.body.code);
  });

  it("given 5 calls in 10 minutes from one IP, should answer the 6th with 429 and Retry-After", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      // Wrong passwords go to an unknown address so the per-account limit of a demo user is untouched.
      expect((await check({ email: `${unique("nobody")}@demo.test`, password: "wrong-password" }, ip)).status).toBe(401);
    }
    const sixth = await check({ email: "teacher@demo.test", password: password() }, ip);
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe("RATE_LIMITED");
    const retryAfter = Number(sixth.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    // Another address is not affected.
    expect((await check({ email: "teacher@demo.test", password: password() })).status).toBe(200);
  });

  it("given 12 parallel calls from one IP, should let exactly 5 through", async () => {
    const ip = freshIp();
    const responses = await Promise.all(Array.from({ length: 12 }, () => check({ email: `${unique("nobody")}@demo.test`, password: "wrong-password" }, ip)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });
});

describe("POST /api/auth/callback/credentials", () => {
  it("given valid credentials and CSRF token, should set an HttpOnly session cookie holding only an opaque id", async () => {
    const token = await csrf();
    const response = await api("POST", "/api/auth/callback/credentials", {
      cookie: token.cookie,
      json: { email: "admin@demo.test", password: password(), csrfToken: token.csrfToken },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, url: `${baseUrl()}/en/home` });
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^remix-auth\.session-token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Secure/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Expires=/i);
    expect(response.text).not.toContain(setCookie.split(";")[0]!.split("=")[1]!);
  });

  it("given no CSRF token or a token of another cookie, should answer 403", async () => {
    const token = await csrf();
    const other = await csrf();
    const missing = await api("POST", "/api/auth/callback/credentials", {
      cookie: token.cookie,
      json: { email: "admin@demo.test", password: password() },
    });
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe("CSRF_FAILED");
    // Without a token nothing else is looked at: an empty body is 403 too, not 400.
    const empty = await api("POST", "/api/auth/callback/credentials", { cookie: token.cookie, json: {} });
    expect(empty.status).toBe(403);
    const mismatched = await api("POST", "/api/auth/callback/credentials", {
      cookie: token.cookie,
      json: { email: "admin@demo.test", password: password(), csrfToken: other.csrfToken },
    });
    expect(mismatched.status).toBe(403);
    const noCookie = await api("POST", "/api/auth/callback/credentials", {
      json: { email: "admin@demo.test", password: password(), csrfToken: token.csrfToken },
    });
    expect(noCookie.status).toBe(403);
  });

  it("given a wrong password, should answer 401 and set no session", async () => {
    const token = await csrf();
    const response = await api("POST", "/api/auth/callback/credentials", {
      cookie: token.cookie,
      json: { email: "admin@demo.test", password: "wrong-password", csrfToken: token.csrfToken },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("given a plain HTML form post, should redirect to the home page of the chosen locale", async () => {
    const token = await csrf();
    const response = await api("POST", "/api/auth/callback/credentials", {
      cookie: token.cookie,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "admin@demo.test", password: password(), csrfToken: token.csrfToken, locale: "es" }).toString(),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/es/home");
    expect(response.headers.get("set-cookie")).toMatch(/^remix-auth\.session-token=/);
  });
});

describe("sessions", () => {
  it("given a session cookie, should describe the user without secrets", async () => {
    const cookie = await signIn("teacher2@demo.test");
    const response = await api("GET", "/api/auth/session", { cookie });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email: "teacher2@demo.test", role: "TEACHER" });
    expect(Object.keys(response.body.user).sort()).toEqual(["email", "id", "image", "name", "role"]);
    expect(new Date(response.body.expires).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
  });

  it("given no cookie, should answer an empty object", async () => {
    const response = await api("GET", "/api/auth/session");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});
  });

  it("given two sign-ins, should give two different session ids", async () => {
    expect(await signIn("teacher2@demo.test")).not.toBe(await signIn("teacher2@demo.test"));
  });

  it("given sign-out with the CSRF token, should delete the session so the old cookie answers 401", async () => {
    const session = await signIn("teacher2@demo.test");
    expect((await api("GET", "/api/user/role", { cookie: session })).status).toBe(200);
    const token = await csrf();
    const withoutToken = await api("POST", "/api/auth/signout", { cookie: `${session}; ${token.cookie}`, json: {} });
    expect(withoutToken.status).toBe(400);
    const signOut = await api("POST", "/api/auth/signout", {
      cookie: `${session}; ${token.cookie}`,
      json: { csrfToken: token.csrfToken },
    });
    expect(signOut.status).toBe(200);
    expect(signOut.headers.get("set-cookie")).toMatch(/remix-auth\.session-token=;.*Expires=Thu, 01 Jan 1970/i);
    expect((await api("GET", "/api/user/role", { cookie: session })).status).toBe(401);
    expect((await api("GET", "/api/auth/session", { cookie: session })).body).toEqual({});
  });

  it("given a forged cookie, should answer 401", async () => {
    const response = await api("GET", "/api/user/role", { cookie: "remix-auth.session-token=forged" });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });
});
