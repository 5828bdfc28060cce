import { generate } from "otplib";
import { expect } from "vitest";
import { api, baseUrl, freshIp, type ApiResponse } from "./api.ts";
import { testDatabase } from "./database.ts";
import type { CreatedUser } from "./fixtures.ts";
import { mailTo, waitForMail } from "./mail.ts";

/**
 * Helpers for second-factor tests: TOTP codes computed from the otpauth URI the service answered
 * (as an authenticator app would), the two sign-in calls, and e-mailed codes read from the test
 * SMTP inbox.
 */
export const PERIOD = 30;

/** The code an authenticator app would show `offsetSteps` steps from `now`. */
export function totpCode(otpauthUrl: string, offsetSteps = 0, now = new Date()): Promise<string> {
  const url = new URL(otpauthUrl);
  const secret = url.searchParams.get("secret")!;
  const epoch = Math.floor(now.getTime() / 1000) + offsetSteps * PERIOD;
  return generate({ secret, epoch, algorithm: "sha1", digits: 6, period: PERIOD });
}

/** A 6-digit code different from every code valid within `spread` steps of now. */
export async function wrongTotpCode(otpauthUrl: string, spread = 2): Promise<string> {
  const valid = new Set<string>();
  for (let step = -spread; step <= spread; step++) valid.add(await totpCode(otpauthUrl, step));
  let candidate = 0;
  while (valid.has(String(candidate).padStart(6, "0"))) candidate++;
  return String(candidate).padStart(6, "0");
}

/**
 * Moves the user's last accepted step one step back in the database, as if the code it was
 * accepted for had been entered 30 s earlier: the current step's code is unused again, and no test
 * waits for the next step to begin.
 */
export async function usedAStepAgo(userId: string): Promise<void> {
  await testDatabase().user.update({ where: { id: userId }, data: { totpLastUsedStep: { decrement: 1 } } });
}

export async function checkCredentials(user: Pick<CreatedUser, "email" | "password">): Promise<ApiResponse> {
  return api("POST", "/api/auth/check-credentials", {
    json: { email: user.email, password: user.password },
    headers: { "x-forwarded-for": freshIp() },
  });
}

/** POST /api/auth/callback/credentials with a fresh CSRF token, as a script signs in. */
export async function callback(user: Pick<CreatedUser, "email" | "password">, code?: string): Promise<ApiResponse> {
  const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
  const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return api("POST", "/api/auth/callback/credentials", {
    cookie,
    json: { email: user.email, password: user.password, csrfToken, ...(code !== undefined ? { code } : {}) },
  });
}

export const sessionCookieOf = (response: ApiResponse) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith("remix-auth.session-token="))
    ?.split(";")[0];

/** Starts TOTP enrolment and answers what setup returned. */
export async function setupTotp(user: CreatedUser) {
  const setup = await api("POST", "/api/auth/two-factor/setup", { cookie: user.cookie, json: { method: "TOTP" } });
  expect(setup.status, setup.text).toBe(200);
  return setup.body as { method: "TOTP"; secret: string; otpauthUrl: string; qrCode: string; expiresAt: string };
}

/**
 * Enrols TOTP with the current code, accepted whether or not its step ends during the request (one
 * step of drift is allowed), then moves the enrolment a step into the past, so the current step's
 * code is still unused when the test signs in right after. Answers the otpauth URI.
 */
export async function enableTotp(user: CreatedUser): Promise<string> {
  const { otpauthUrl } = await setupTotp(user);
  const enable = await api("POST", "/api/auth/two-factor/enable", { cookie: user.cookie, json: { code: await totpCode(otpauthUrl) } });
  expect(enable.status, enable.text).toBe(200);
  await usedAStepAgo(user.id);
  return otpauthUrl;
}

/** The 6-digit code of the newest e-mail to `email` after `seen` messages. */
export async function nextMailedCode(email: string, seen: number): Promise<string> {
  const mail = await waitForMail(email, seen);
  const code = /\b(\d{6})\b/.exec(mail.subject)?.[1];
  expect(code, mail.subject).toMatch(/^\d{6}$/);
  expect(mail.text).toContain(code!);
  return code!;
}

export const mailCount = async (email: string) => (await mailTo(email)).length;

/** Enrols EMAIL: setup e-mails a code (one of the 3 sends allowed per 10 minutes), enable confirms it. */
export async function enableEmail(user: CreatedUser): Promise<void> {
  const seen = await mailCount(user.email);
  const setup = await api("POST", "/api/auth/two-factor/setup", { cookie: user.cookie, json: { method: "EMAIL" } });
  expect(setup.status, setup.text).toBe(200);
  const code = await nextMailedCode(user.email, seen);
  const enable = await api("POST", "/api/auth/two-factor/enable", { cookie: user.cookie, json: { code } });
  expect(enable.status, enable.text).toBe(200);
}
