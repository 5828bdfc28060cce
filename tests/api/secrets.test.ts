import { createHash } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { documentedOperations } from "../support/operations.ts";
import { api, baseUrl, freshIp, signIn, unique, type ApiResponse, type DemoUser } from "../support/api.ts";
import { png } from "../support/fixtures.ts";

/**
 * Nothing secret ever leaves the service in a response body or header (docs/api-contract.md §1, §7, §8): no
 * password hash, no TOTP secret, no session token (the cookie value, the raw token inside it, or
 * the session row id derived from it) and no stack trace. A broad sweep of calls, as every demo
 * user and without a session, successes and errors alike, is collected and searched.
 */

const USERS: DemoUser[] = [
  "superadmin@demo.test",
  "admin@demo.test",
  "teacher@demo.test",
  "teacher2@demo.test",
  "student@demo.test",
  "admin@other.test",
  "teacher@other.test",
];

type Collected = { what: string; response: ApiResponse };
const collected: Collected[] = [];

async function collect(what: string, request: Promise<ApiResponse>): Promise<ApiResponse> {
  const response = await request;
  collected.push({ what, response });
  return response;
}

/** The secret forms of a session cookie: the signed cookie value, the raw token, the row id. */
function secretsOfCookie(cookie: string): string[] {
  const value = cookie.slice(cookie.indexOf("=") + 1);
  const decoded = decodeURIComponent(value);
  const signed = decoded.slice(0, decoded.lastIndexOf("."));
  const token = JSON.parse(Buffer.from(signed, "base64").toString("utf8")) as string;
  expect(token.length).toBeGreaterThanOrEqual(32);
  return [value, decoded, signed, token, createHash("sha256").update(token).digest("hex")];
}

/** Everything a caller could read: the body and every header except the cookie being set. */
function readable({ response }: Collected): string {
  const headers = [...response.headers.entries()].filter(([name]) => name !== "set-cookie").map(([name, value]) => `${name}: ${value}`);
  return `${headers.join("\n")}\n${response.text}`;
}

async function sweep(user: DemoUser | null, cookie?: string) {
  const who = cookie ? "fresh login" : (user ?? "anonymous");
  const as = cookie ? { cookie } : user ? { as: user } : {};
  const get = (path: string) => collect(`${who} GET ${path}`, api("GET", path, as));

  await get("/api/user/profile");
  await get("/api/user/role");
  await get("/api/auth/session");
  await get("/api/openapi?format=json");
  // Every documented GET: each list, then the single reads of the first items of that list.
  const reads = (await documentedOperations()).filter((operation) => operation.method === "get");
  for (const list of reads.filter((operation) => !operation.path.includes("{"))) {
    const response = await get(list.queryParameters.includes("limit") ? `${list.path}?limit=100` : list.path);
    const items = Object.values(response.body ?? {}).find((value): value is { id: string }[] => Array.isArray(value) && typeof value[0]?.id === "string");
    const single = reads.find((operation) => new RegExp(`^${list.path}/\\{\\w+\\}$`).test(operation.path));
    if (!items || !single) continue;
    for (const item of items.slice(0, 4)) await get(single.path.replace(/\{\w+\}/, item.id));
  }
  const profile = await api("GET", "/api/user/profile", as);
  if (profile.body?.image) await get(profile.body.image);

  // Errors: validation, not found, wrong method, wrong type, malformed and unknown paths.
  await get("/api/forms/unknown-id");
  await get("/api/users/unknown-id/avatar");
  await get("/api/forms?page=0&limit=1000&published=maybe");
  await get("/api/nowhere/at/all");
  await collect(`${who} PATCH /api/forms`, api("PATCH", "/api/forms", as));
  await collect(`${who} POST /api/forms invalid`, api("POST", "/api/forms", { ...as, json: { title: 1, scoreRanges: [{}] } }));
  await collect(`${who} POST /api/students malformed`, api("POST", "/api/students", { ...as, headers: { "content-type": "application/json" }, body: "{oops" }));
  await collect(
    `${who} POST /api/users duplicate`,
    api("POST", "/api/users", { ...as, json: { email: "admin@demo.test", name: "n", role: "TEACHER", password: "long-enough-password" } }),
  );
  await collect(
    `${who} POST /api/users unknown field`,
    api("POST", "/api/users", { ...as, json: { email: "x@y.test", name: "n", role: "TEACHER", isAdmin: true } }),
  );
  await collect(`${who} PUT /api/user/profile invalid`, api("PUT", "/api/user/profile", { ...as, json: { name: "", totp: "1" } }));
  await collect(`${who} POST /api/reports/export`, api("POST", "/api/reports/export", { ...as, json: { submissionId: "x" } }));
}

let freshCookie: string;

beforeAll(async () => {
  for (const user of USERS) await sweep(user);
  await sweep(null);

  // Writes answer records too: a created user, a profile with an avatar, a promotion, deletions.
  const email = `${unique("secret-sweep")}@secrets.test`;
  const password = "a-secret-password-123";
  await collect("admin POST /api/users", api("POST", "/api/users", { as: "admin@demo.test", json: { email, name: "Sweep User", role: "STUDENT", password } }));
  freshCookie = await signIn(email, password);
  const body = new FormData();
  body.set("name", "Sweep User");
  body.set("image", new File([png()], "me.png", { type: "image/png" }));
  await collect("fresh PUT /api/user/profile", api("PUT", "/api/user/profile", { cookie: freshCookie, body }));
  await sweep(null, freshCookie);

  const candidate = await collect(
    "POST /api/candidates",
    api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: unique("Sweep candidate") } }),
  );
  await collect("promote", api("POST", `/api/candidates/${candidate.body.id}/promote`, { as: "admin@demo.test" }));
  const form = await collect("POST /api/forms", api("POST", "/api/forms", { as: "teacher@demo.test", json: { title: unique("Sweep form") } }));
  await collect("PUT /api/forms", api("PUT", `/api/forms/${form.body.id}`, { as: "teacher@demo.test", json: { title: "Renamed sweep form" } }));
  await collect("DELETE /api/forms", api("DELETE", `/api/forms/${form.body.id}`, { as: "teacher@demo.test" }));

  // The sign-in endpoints themselves, successful and not.
  const ip = freshIp();
  for (const json of [
    { email: "teacher@demo.test", password: inject("seedPassword") },
    { email: "teacher@demo.test", password: "wrong-password" },
    { email: "nobody@demo.test", password: "x" },
  ]) {
    await collect("check-credentials", api("POST", "/api/auth/check-credentials", { json, headers: { "x-forwarded-for": ip } }));
  }
  const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  await collect("sign-in", api("POST", "/api/auth/callback/credentials", { cookie: csrfCookie, json: { email, password, csrfToken } }));
  await collect(
    "sign-in wrong password",
    api("POST", "/api/auth/callback/credentials", { cookie: csrfCookie, json: { email, password: "wrong-password-x", csrfToken } }),
  );
  await collect("sign-in without csrf", api("POST", "/api/auth/callback/credentials", { json: { email, password, csrfToken: "forged" } }));
}, 120_000);

describe("secrets in responses", () => {
  it("given the sweep, should have collected a broad set of successes and errors from every endpoint", () => {
    const statuses = new Set(collected.map(({ response }) => response.status));
    for (const status of [200, 201, 400, 401, 403, 404, 405, 409]) expect(statuses).toContain(status);
    expect(collected.length).toBeGreaterThan(200);
    for (const resource of ["forms", "students", "candidates"]) {
      const reads = collected.filter(({ what, response }) => new RegExp(`GET /api/${resource}/[a-z0-9]+$`).test(what) && response.status === 200);
      expect(reads.length, resource).toBeGreaterThan(0);
    }
  });

  it("given every response, should contain no password hash, passwordHash or totpSecret", () => {
    for (const entry of collected) {
      const text = readable(entry);
      expect(text, entry.what).not.toContain("scrypt$");
      expect(text, entry.what).not.toMatch(/passwordHash/i);
      expect(text, entry.what).not.toMatch(/totpSecret/i);
    }
  });

  it("given every response, should contain no session token of any signed-in user", () => {
    const sessions = inject("sessions");
    const secrets = [...Object.values(sessions), freshCookie].flatMap(secretsOfCookie);
    expect(secrets.length).toBe((USERS.length + 1) * 5);
    for (const entry of collected) {
      const text = readable(entry);
      for (const secret of secrets) expect(text.includes(secret), `${entry.what} reveals a session secret`).toBe(false);
    }
  });

  it("given every response, should contain no stack trace or source location", () => {
    for (const entry of collected) {
      const text = readable(entry);
      expect(text, entry.what).not.toContain("    at ");
      expect(text, entry.what).not.toContain(".ts:");
      expect(text, entry.what).not.toMatch(/\bat \S+ \(\S+:\d+:\d+\)/);
      expect(text, entry.what).not.toMatch(/node_modules|\/work\/|PrismaClient|SQLITE_|invalid `prisma/i);
    }
  });

  it("given a successful sign-in, should put the session only in Set-Cookie, never in the body", () => {
    const signInEntry = collected.find((entry) => entry.what === "sign-in")!;
    expect(signInEntry.response.status).toBe(200);
    const cookie = signInEntry.response.headers.getSetCookie().find((c) => c.startsWith("remix-auth.session-token="))!;
    expect(cookie).toBeDefined();
    for (const secret of secretsOfCookie(cookie.split(";")[0]!)) expect(signInEntry.response.text).not.toContain(secret);
  });
});
