import { inject } from "vitest";
import { checkAgainstContract } from "./response-contract.ts";

/** A small HTTP client for the running service: real requests, real cookies, nothing mocked. */
export const baseUrl = () => inject("baseUrl");

export type DemoUser =
  | "superadmin@demo.test"
  | "admin@demo.test"
  | "teacher@demo.test"
  | "teacher2@demo.test"
  | "student@demo.test"
  | "admin@other.test"
  | "teacher@other.test";

/** The session cookie of a demo user, signed in once by the global setup. */
export const sessionOf = (user: DemoUser) => inject("sessions")[user]!;

/**
 * The CSRF cookie and token that belong to each session cookie the tests hold. Requests that
 * change data with a session cookie carry them (X-CSRF-Token), as a script must.
 */
const csrfBySession = new Map<string, { cookie: string; token: string }>();
const csrfFor = (session: string) => {
  if (csrfBySession.size === 0) for (const [key, value] of Object.entries(inject("csrf"))) csrfBySession.set(key, value);
  return csrfBySession.get(session);
};
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export type RequestOptions = {
  as?: DemoUser | null;
  cookie?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Another origin to send the request to (a proxy in front of the service); the service's by default. */
  base?: string;
};

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export async function api<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let cookie = options.cookie ?? (options.as ? sessionOf(options.as) : undefined);
  const csrf = cookie && UNSAFE.has(method) && !cookie.includes("remix-auth.csrf-token=") ? csrfFor(cookie) : undefined;
  if (csrf && !Object.keys(headers).some((h) => h.toLowerCase() === "x-csrf-token")) {
    cookie = `${cookie}; ${csrf.cookie}`;
    headers["x-csrf-token"] = csrf.token;
  }
  if (cookie) headers.cookie = cookie;
  let body = options.body;
  if (options.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${options.base ?? baseUrl()}${path}`, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  let parsed: unknown = text;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json") && text) parsed = JSON.parse(text);
  await checkAgainstContract(method, path, response.status, type, parsed);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

let counter = 0;
/** A value no other test uses, for names and e-mails. */
export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;

/** A fresh private address per call, for per-IP limits (the test server trusts X-Forwarded-For). */
export const freshIp = () => `10.${(process.pid % 200) + 1}.${Math.floor(Math.random() * 250)}.${(++counter % 250) + 1}`;

/** Signs in through the two API calls a script would make; returns the session cookie. */
export async function signIn(email: string, password = inject("seedPassword")): Promise<string> {
  const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${baseUrl()}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie },
    body: JSON.stringify({ email, password, csrfToken }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const session = response.headers.getSetCookie()[0]!.split(";")[0]!;
  csrfFor(session);
  csrfBySession.set(session, { cookie: csrfCookie, token: csrfToken });
  return session;
}

/** Headers for a hand-made fetch that changes data with `session`: the cookies and X-CSRF-Token. */
export function withCsrf(session: string): Record<string, string> {
  const csrf = csrfFor(session);
  return csrf ? { cookie: `${session}; ${csrf.cookie}`, "x-csrf-token": csrf.token } : { cookie: session };
}

/**
 * A page form posted as a browser without JavaScript does: the session (a demo user's or a
 * fixture's), its CSRF token in the form, no redirect followed. `fields` as entries when a name is
 * posted more than once (ticked checkboxes).
 */
export function postPageForm(path: string, fields: Record<string, string> | [string, string][], session: string) {
  const { cookie, "x-csrf-token": csrfToken } = withCsrf(session);
  return fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie!, origin: baseUrl() },
    body: new URLSearchParams([...(Array.isArray(fields) ? fields : Object.entries(fields)), ["csrfToken", csrfToken!]]),
    redirect: "manual",
  });
}
