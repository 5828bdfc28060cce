import { randomBytes, randomInt } from "node:crypto";
import { generateSecret, generateURI, verify as verifyTotp } from "otplib";
import QRCode from "qrcode";
import { decryptSecret, encryptSecret } from "~/lib/crypto.server.ts";
import { db } from "~/lib/db.server.ts";
import { sendMail } from "~/lib/mail/mailer.server.ts";
import { twoFactorCodeMail } from "~/lib/mail/messages.server.ts";
import { ApiError, conflict, fieldProblem, notFound } from "~/lib/problem.server.ts";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { requireSessionCaller } from "~/lib/auth/end-access.server.ts";
import { verifyPassword } from "~/lib/auth/password.server.ts";
import {
  consumeLockingAttempt,
  consumeRateLimit,
  CURRENT_PASSWORD_LIMIT,
  rateLimitRetryAfter,
  resetRateLimit,
  TWO_FACTOR_ATTEMPT_LIMIT,
  TWO_FACTOR_EMAIL_SEND_LIMIT,
} from "~/lib/auth/rate-limit.server.ts";
import { consumeUserCode, issueVerification } from "~/lib/auth/verification.server.ts";
import { auditEventData, recordAudit } from "../audit/audit.server.ts";
import type { TwoFactorSetupResult, TwoFactorStatus } from "./two-factor-schemas.ts";

/**
 * The second factor: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of drift either
 * way, each step accepted once) or a 6-digit code e-mailed at sign-in (10 minutes, single use,
 * 5 tries). Enrolment is staged: `setup` keeps the pending TOTP secret (encrypted) or e-mails a
 * code, and only `enable` with one valid code turns the factor on. See docs/decisions/0007.
 */
export type TwoFactorMethod = "TOTP" | "EMAIL";

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps of clock drift accepted on either side of the current one. */
export const TOTP_DRIFT_STEPS = 1;
export const TOTP_ISSUER = "Assessment Service";
/** How long a pending TOTP enrolment waits for its first code. */
export const TOTP_SETUP_TTL_MS = 15 * 60 * 1000;
export const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong codes a pending enrolment or an e-mailed code survives. */
export const CODE_MAX_ATTEMPTS = 5;
/** Marks an e-mailed code sent to confirm an enrolment (not a sign-in code). */
const EMAIL_ENROLMENT = "enrolment";

const invalidCode = () => new ApiError(401, "TWO_FACTOR_INVALID", "The code is not correct.");
const spentCode = () => new ApiError(401, "TWO_FACTOR_EXPIRED", "This code has expired or has been used. Ask for a new one.");
const locked = (retryAfterSeconds: number) =>
  new ApiError(429, "TWO_FACTOR_LOCKED", `Too many wrong codes. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`, undefined, {
    "Retry-After": String(retryAfterSeconds),
  });
const enrolmentCodeProblem = (key: "codeWrong" | "codeWrongStartAgain") => {
  const problem = fieldProblem("code", key);
  return new ApiError(400, "TWO_FACTOR_INVALID", problem.message, [problem]);
};

// ---- TOTP ----

const totpOptions = { algorithm: "sha1", digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS } as const;

/** The step a code matched at `now`, or null. `afterStep` refuses that step and every earlier one. */
async function matchTotp(secret: string, code: string, afterStep: number | null, now: Date): Promise<number | null> {
  const epoch = Math.floor(now.getTime() / 1000);
  const current = Math.floor(epoch / TOTP_PERIOD_SECONDS);
  // otplib refuses an afterTimeStep beyond the window; nothing in the window could pass it anyway.
  if (afterStep !== null && afterStep >= current + TOTP_DRIFT_STEPS) return null;
  const result = await verifyTotp({
    ...totpOptions,
    secret,
    token: code,
    epoch,
    epochTolerance: TOTP_DRIFT_STEPS * TOTP_PERIOD_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  // The functional API types TOTP and HOTP results together; a TOTP match carries its time step.
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/**
 * Accepts a TOTP code of a user with TOTP on. The matched step is claimed with a conditional
 * update (only if it is later than the last accepted one), so a code works once even when the
 * same code arrives twice at the same moment.
 */
async function acceptTotpCode(userId: string, code: string, now: Date): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { totpSecretEncrypted: true, totpLastUsedStep: true } });
  if (!user?.totpSecretEncrypted) return false;
  const step = await matchTotp(decryptSecret(user.totpSecretEncrypted), code, user.totpLastUsedStep, now);
  if (step === null) return false;
  const claimed = await db.user.updateMany({
    where: { id: userId, OR: [{ totpLastUsedStep: null }, { totpLastUsedStep: { lt: step } }] },
    data: { totpLastUsedStep: step },
  });
  return claimed.count === 1;
}

// ---- e-mailed codes ----

/** A uniformly random 6-digit code (leading zeros kept). */
const randomCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");

/**
 * E-mails a fresh code (at most 3 per 10 minutes per user: 429 beyond). The new code cancels the
 * user's older ones. Answers when it expires.
 */
async function sendEmailCode(userId: string, purpose: "sign-in" | "enrolment"): Promise<Date> {
  await consumeRateLimit(TWO_FACTOR_EMAIL_SEND_LIMIT, userId);
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, name: true, locale: true, organization: { select: { kind: true } } } });
  if (!user) throw notFound("user");
  const code = randomCode();
  await issueVerification(userId, "TWO_FACTOR_EMAIL_CODE", code, {
    ttlMs: EMAIL_CODE_TTL_MS,
    ...(purpose === "enrolment" ? { payload: EMAIL_ENROLMENT } : {}),
  });
  await sendMail({ to: user.email, ...twoFactorCodeMail(user.locale, user.organization.kind, user.name, code) });
  return new Date(Date.now() + EMAIL_CODE_TTL_MS);
}

// ---- sign-in ----

/** Throws 429 (TWO_FACTOR_LOCKED) while the user's second step is locked by wrong codes. */
export async function assertSecondFactorNotLocked(userId: string): Promise<void> {
  const retryAfter = await rateLimitRetryAfter(TWO_FACTOR_ATTEMPT_LIMIT, userId);
  if (retryAfter !== null) throw locked(retryAfter);
}

/**
 * The second step begins (check-credentials, the sign-in page): refuses while locked and, for
 * EMAIL, sends a fresh code (429 RATE_LIMITED past 3 codes in 10 minutes).
 */
export async function startSecondFactor(user: { id: string; twoFactorMethod: TwoFactorMethod | null }): Promise<void> {
  if (!user.twoFactorMethod) return;
  await assertSecondFactorNotLocked(user.id);
  if (user.twoFactorMethod === "EMAIL") await sendEmailCode(user.id, "sign-in");
}

/** Sends another sign-in code to a user whose method is EMAIL (the sign-in page's "send again"). */
export async function resendSignInCode(userId: string): Promise<void> {
  await assertSecondFactorNotLocked(userId);
  await sendEmailCode(userId, "sign-in");
}

/**
 * Checks the code of a user who has a second factor; the password has been checked already.
 * Every try counts against the per-user lock before the code is looked at (5 wrong codes lock the
 * second step for 15 minutes, 429 TWO_FACTOR_LOCKED); a right code clears the count. `now` is the
 * time a TOTP code is checked against (tests move it to the edges of the window, ADR 60).
 */
export async function verifySecondFactorCode(userId: string, method: TwoFactorMethod, code: string, now = new Date()): Promise<void> {
  try {
    await consumeLockingAttempt(TWO_FACTOR_ATTEMPT_LIMIT, userId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) throw locked(Number(error.headers?.["Retry-After"] ?? 900));
    throw error;
  }
  if (method === "TOTP") {
    if (!(await acceptTotpCode(userId, code, now))) throw invalidCode();
  } else {
    const result = await consumeUserCode(userId, "TWO_FACTOR_EMAIL_CODE", code, CODE_MAX_ATTEMPTS);
    if (!result.ok) throw result.reason === "wrong" ? invalidCode() : spentCode();
    // An enrolment code is not a sign-in code (cannot happen while EMAIL is on; checked anyway).
    if (result.payload === EMAIL_ENROLMENT) throw spentCode();
  }
  await resetRateLimit(TWO_FACTOR_ATTEMPT_LIMIT, userId);
}

// ---- enrolment ----

async function currentMethod(userId: string): Promise<{ email: string; twoFactorMethod: TwoFactorMethod | null }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, twoFactorMethod: true } });
  if (!user) throw notFound("user");
  return user;
}

const alreadyOn = () => conflict("A second factor is already on. Turn it off with your password first to change it.", "TWO_FACTOR_ALREADY_ENABLED");

/** Cancels every pending enrolment and e-mailed code of the user. */
const cancelPendingCodes = (userId: string) =>
  db.verification.updateMany({
    where: { userId, purpose: { in: ["TOTP_SETUP", "TWO_FACTOR_EMAIL_CODE"] }, usedAt: null },
    data: { usedAt: new Date() },
  });

/**
 * Starts an enrolment. TOTP: a new secret, kept encrypted in a TOTP_SETUP verification until a
 * code proves the app has it, and answered this once (with its otpauth URI and QR code). EMAIL:
 * a confirmation code by e-mail. A new setup replaces any pending one. 409 while a factor is on.
 * Enrolment, like turning the factor off, needs a signed-in session: 403 TOKEN_SCOPE with a token.
 */
export async function beginTwoFactorSetup(actor: Actor, method: TwoFactorMethod): Promise<TwoFactorSetupResult> {
  requireSessionCaller(actor);
  const user = await currentMethod(actor.userId);
  if (user.twoFactorMethod) throw alreadyOn();
  await cancelPendingCodes(actor.userId);
  if (method === "EMAIL") {
    const expiresAt = await sendEmailCode(actor.userId, "enrolment");
    return { method, sentTo: user.email, expiresAt: expiresAt.toISOString() };
  }
  const secret = generateSecret();
  const otpauthUrl = generateURI({ ...totpOptions, issuer: TOTP_ISSUER, label: user.email, secret });
  const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: "M", margin: 2, width: 256 });
  // The row is found by user and purpose; its hash is of a random value nobody ever presents.
  await issueVerification(actor.userId, "TOTP_SETUP", randomBytes(32).toString("base64url"), {
    ttlMs: TOTP_SETUP_TTL_MS,
    payload: encryptSecret(secret),
  });
  return { method, secret, otpauthUrl, qrCode, expiresAt: new Date(Date.now() + TOTP_SETUP_TTL_MS).toISOString() };
}

const noPendingSetup = () => conflict("No setup is waiting for a code (it may have expired). Start the setup again.", "TWO_FACTOR_SETUP_MISSING");

/**
 * Finishes an enrolment with one valid code: 400 for a wrong code (5 wrong codes spend the
 * setup), 409 without a pending setup. The pending secret moves to the user in the same
 * transaction that claims the setup, and the step of the code counts as used.
 */
export async function enableTwoFactor(actor: Actor, code: string): Promise<TwoFactorStatus> {
  requireSessionCaller(actor);
  const user = await currentMethod(actor.userId);
  if (user.twoFactorMethod) throw alreadyOn();
  const pending = await db.verification.findFirst({
    where: { userId: actor.userId, purpose: { in: ["TOTP_SETUP", "TWO_FACTOR_EMAIL_CODE"] }, usedAt: null },
    orderBy: { createdAt: "desc" },
  });
  if (!pending || pending.expiresAt <= new Date() || pending.attempts >= CODE_MAX_ATTEMPTS) throw noPendingSetup();

  if (pending.purpose === "TWO_FACTOR_EMAIL_CODE") {
    const result = await consumeUserCode(actor.userId, "TWO_FACTOR_EMAIL_CODE", code, CODE_MAX_ATTEMPTS);
    if (!result.ok) {
      if (result.reason === "wrong") throw enrolmentCodeProblem("codeWrong");
      throw noPendingSetup();
    }
    if (result.payload !== EMAIL_ENROLMENT) throw noPendingSetup();
    await turnOn(actor, { twoFactorMethod: "EMAIL", totpSecretEncrypted: null, totpLastUsedStep: null });
    return { twoFactorEnabled: true, twoFactorMethod: "EMAIL" };
  }

  const step = await matchTotp(decryptSecret(pending.payload!), code, null, new Date());
  if (step === null) {
    const tries = pending.attempts + 1;
    await db.verification.updateMany({
      where: { id: pending.id, usedAt: null },
      data: { attempts: { increment: 1 }, ...(tries >= CODE_MAX_ATTEMPTS ? { usedAt: new Date() } : {}) },
    });
    throw enrolmentCodeProblem(tries >= CODE_MAX_ATTEMPTS ? "codeWrongStartAgain" : "codeWrong");
  }
  await turnOn(actor, { twoFactorMethod: "TOTP", totpSecretEncrypted: pending.payload, totpLastUsedStep: step }, pending.id);
  return { twoFactorEnabled: true, twoFactorMethod: "TOTP" };
}

async function turnOn(
  actor: Actor,
  data: { twoFactorMethod: TwoFactorMethod; totpSecretEncrypted: string | null; totpLastUsedStep: number | null },
  claimVerificationId?: string,
): Promise<void> {
  const userId = actor.userId;
  await db.$transaction(async (tx) => {
    if (claimVerificationId) {
      const claimed = await tx.verification.updateMany({
        where: { id: claimVerificationId, usedAt: null },
        data: { usedAt: new Date() },
      });
      if (claimed.count !== 1) throw noPendingSetup();
    }
    // Only a user without a factor: two enables racing each other cannot both win.
    const updated = await tx.user.updateMany({ where: { id: userId, twoFactorMethod: null }, data });
    if (updated.count !== 1) throw alreadyOn();
    await tx.verification.updateMany({
      where: { userId, purpose: { in: ["TOTP_SETUP", "TWO_FACTOR_EMAIL_CODE"] }, usedAt: null },
      data: { usedAt: new Date() },
    });
    await recordAudit(tx, { by: actor, action: "auth.two_factor_enabled", targetId: userId, details: { method: data.twoFactorMethod } });
  });
  await resetRateLimit(TWO_FACTOR_ATTEMPT_LIMIT, userId);
}

/**
 * Turns the second factor off after checking the current password (400 without it, 401 when
 * wrong; password checks count against the per-user limit shared with password changes). The
 * TOTP secret is erased and pending codes are cancelled. Answers the same when none was on (and
 * then records no event).
 */
export async function disableTwoFactor(actor: Actor, password: string): Promise<TwoFactorStatus> {
  requireSessionCaller(actor);
  await consumeRateLimit(CURRENT_PASSWORD_LIMIT, actor.userId);
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { passwordHash: true, twoFactorMethod: true } });
  if (!user) throw notFound("user");
  if (!user.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
    throw new ApiError(401, "INVALID_PASSWORD", "The password is not correct.");
  }
  await db.$transaction([
    db.user.update({
      where: { id: actor.userId },
      data: { twoFactorMethod: null, totpSecretEncrypted: null, totpLastUsedStep: null },
    }),
    cancelPendingCodes(actor.userId),
    ...(user.twoFactorMethod
      ? [
          db.auditEvent.create({
            data: auditEventData({ by: actor, action: "auth.two_factor_disabled", targetId: actor.userId, details: { method: user.twoFactorMethod } }),
          }),
        ]
      : []),
  ]);
  return { twoFactorEnabled: false, twoFactorMethod: null };
}
