import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, freshIp } from "../support/api.ts";
import { createSignedInUser } from "../support/fixtures.ts";
import { startInstance, type Instance } from "../support/instance.ts";

/**
 * Two instances of the service on the suite's database (the SQLite file or PostgreSQL), as behind
 * a load balancer. An instance keeps nothing of a session or an API token between requests: each
 * request reads its caller from the database (ADR 95). So a session ended on one instance, by its
 * user signing out, by deactivation or by an administrator, is refused by the other instance's very
 * next request with it: 401 for the API, the sign-in page for a page.
 */
let a: Instance;
let b: Instance;

beforeAll(async () => {
  // Both check the session cookie's signature with the same secret, as instances of one service do.
  const env = { SESSION_SECRET: randomBytes(32).toString("hex") };
  a = await startInstance({ env });
  b = await startInstance({ env });
}, 240_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

type Signed = { session: string; csrfCookie: string; csrfToken: string };

/** Signs in on `instance` through the two API calls a script makes. */
async function signInOn(instance: Instance, email: string, password: string): Promise<Signed> {
  const ip = freshIp();
  const csrf = await fetch(`${instance.baseUrl}/api/auth/csrf`, { headers: { "x-forwarded-for": ip } });
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${instance.baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie, "x-forwarded-for": ip },
    body: JSON.stringify({ email, password, csrfToken }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return { session: response.headers.getSetCookie()[0]!.split(";")[0]!, csrfCookie, csrfToken };
}

/** A write with a session on `instance`, its CSRF cookie and token sent along. */
const writeOn = (instance: Instance, signed: Signed, method: string, path: string, json: unknown) =>
  api(method, path, {
    base: instance.baseUrl,
    cookie: `${signed.session}; ${signed.csrfCookie}`,
    headers: { "x-csrf-token": signed.csrfToken },
    json,
  });

const roleOn = (instance: Instance, session: string) => api("GET", "/api/user/role", { base: instance.baseUrl, cookie: session });
const homeOn = (instance: Instance, session: string) => fetch(`${instance.baseUrl}/en/home`, { headers: { cookie: session }, redirect: "manual" });

/** Two sessions of `user` signed in on A, each answered by B: one to be checked by the API, one by a page. */
async function twoSessionsOnA(user: { email: string; password: string }) {
  const forApi = await signInOn(a, user.email, user.password);
  const forPage = await signInOn(a, user.email, user.password);
  expect((await roleOn(b, forApi.session)).status).toBe(200);
  expect((await homeOn(b, forPage.session)).status).toBe(200);
  return { forApi, forPage };
}

/** The very next request of each session to B: refused. */
async function expectRefusedOnB({ forApi, forPage }: { forApi: Signed; forPage: Signed }) {
  const call = await roleOn(b, forApi.session);
  expect(call.status, call.text).toBe(401);
  expect(call.body.code).toBe("UNAUTHENTICATED");
  const page = await homeOn(b, forPage.session);
  expect(page.status).toBe(302);
  expect(page.headers.get("location")).toBe("/en/login");
}

describe("a session ended on one instance", { timeout: 120_000 }, () => {
  it("given sign-out on A, should be refused by B's next request, API and page alike", async () => {
    const user = await createSignedInUser("TEACHER");
    const sessions = await twoSessionsOnA(user);
    for (const signed of [sessions.forApi, sessions.forPage]) {
      const out = await writeOn(a, signed, "POST", "/api/auth/signout", { csrfToken: signed.csrfToken });
      expect(out.status, out.text).toBe(200);
    }
    await expectRefusedOnB(sessions);
  });

  it.each([
    { by: "the user deactivated", role: "TEACHER", method: "PATCH", path: (id: string) => `/api/users/${id}`, json: { isActive: false } },
    { by: "an administrator ending the user's sessions", role: "STUDENT", method: "POST", path: (id: string) => `/api/users/${id}/sessions/revoke`, json: {} },
  ] as const)("given $by on A, should refuse their sessions on B at once", async ({ role, method, path, json }) => {
    const user = await createSignedInUser(role);
    const sessions = await twoSessionsOnA(user);
    const admin = await signInOn(a, "admin@demo.test", inject("seedPassword"));
    const ended = await writeOn(a, admin, method, path(user.id), json);
    expect(ended.status, ended.text).toBe(200);
    await expectRefusedOnB(sessions);
  });

  it("given an API token deleted on A, should refuse it on B's next request", async () => {
    const user = await createSignedInUser("TEACHER");
    const signed = await signInOn(a, user.email, user.password);
    const created = await writeOn(a, signed, "POST", "/api/user/tokens", { name: "Two instances" });
    expect(created.status, created.text).toBe(201);
    const asToken = () => api("GET", "/api/user/role", { base: b.baseUrl, headers: { authorization: `Bearer ${created.body.token}` } });
    expect((await asToken()).status).toBe(200);
    const deleted = await writeOn(a, signed, "DELETE", `/api/user/tokens/${created.body.id}`, undefined);
    expect(deleted.status, deleted.text).toBe(200);
    const refused = await asToken();
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("UNAUTHENTICATED");
  });
});
