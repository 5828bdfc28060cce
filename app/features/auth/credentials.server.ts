import { db } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { decoyPasswordHash, verifyPassword } from "~/lib/auth/password.server.ts";
import {
  ACCOUNT_ADDRESS_SIGN_IN_LIMIT,
  ACCOUNT_SIGN_IN_LIMIT,
  ADDRESS_SIGN_IN_LIMIT,
  consumeLockingAttempt,
  consumeRateLimit,
  refundAttempt,
  resetRateLimit,
} from "~/lib/auth/rate-limit.server.ts";
import type { RequestOrigin } from "~/lib/auth/actor.server.ts";
import { recordAudit } from "../audit/audit.server.ts";
import { mailUnlockLink } from "./sign-in-unlock.server.ts";

/** The password every seeded demo user gets when SEED_PASSWORD is unset (development only). */
export const DEFAULT_DEVELOPMENT_PASSWORD = "demo-password";

export type VerifiedUser = { id: string; email: string; organizationId: string; twoFactorMethod: "TOTP" | "EMAIL" | null };

/** Where a sign-in attempt comes from: the address its limits count, and its origin for the audit log. */
export type SignInAttempt = { clientAddress: string; origin: RequestOrigin; unlockedUserId?: string | null };

/**
 * Records a refused sign-in (`auth.sign_in_failed`, docs/api-contract.md §20): the account when
 * one answers to the e-mail given, else nobody. Neither the e-mail typed nor the password is
 * kept; `reason` says which step refused it.
 */
export function recordFailedSignIn(user: Pick<VerifiedUser, "id" | "organizationId"> | null, origin: RequestOrigin, reason: "password" | "second_factor") {
  return recordAudit(db, {
    by: { kind: "USER", id: user?.id ?? null, name: null },
    action: "auth.sign_in_failed",
    targetId: user?.id ?? null,
    organizationId: user?.organizationId ?? null,
    origin,
    details: { reason },
  });
}

const invalidCredentials = () => new ApiError(401, "INVALID_CREDENTIALS", "The e-mail address or the password is not correct.");

/**
 * Checks an e-mail and password. Unknown addresses, wrong passwords, users without a password and
 * deactivated users all get the same answer after the same amount of work, so the answer says
 * nothing about which accounts exist.
 */
export async function verifyEmailAndPassword(email: string, password: string, attempt: SignInAttempt): Promise<VerifiedUser> {
  const { clientAddress, unlockedUserId = null } = attempt;
  const address = email.trim().toLowerCase();
  // Counted before the check (ADR 15), by the e-mail given whether or not the account exists, so
  // the answer still says nothing about which accounts exist.
  await consumeRateLimit(ADDRESS_SIGN_IN_LIMIT, clientAddress);
  await consumeLockingAttempt(ACCOUNT_ADDRESS_SIGN_IN_LIMIT, `${address}|${clientAddress}`);
  const user = await db.user.findFirst({
    where: { email: address, deletedAt: null },
    select: { id: true, email: true, organizationId: true, passwordHash: true, isActive: true, twoFactorMethod: true },
  });
  try {
    await consumeRateLimit(ACCOUNT_SIGN_IN_LIMIT, address);
  } catch (error) {
    // Guessing spread over many addresses pauses the account for new addresses (ADR 47). The owner
    // still gets in from where they are signed in, and from a browser that opened the link
    // e-mailed to them now.
    const ownersWay = user && (user.id === unlockedUserId || (await isSignedInFrom(user.id, clientAddress)));
    if (!ownersWay) {
      if (user?.isActive && error instanceof ApiError && error.status === 429) await mailUnlockLink(user.id);
      throw error;
    }
  }
  const passwordMatches = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user || !user.passwordHash || !user.isActive || !passwordMatches) {
    await recordFailedSignIn(user, attempt.origin, "password");
    throw invalidCredentials();
  }
  if (env().NODE_ENV === "production" && password === DEFAULT_DEVELOPMENT_PASSWORD) {
    throw new ApiError(401, "PASSWORD_RESET_REQUIRED", "This password is not accepted in production. Use “Forgot password” to choose a new one.");
  }
  await resetRateLimit(ACCOUNT_ADDRESS_SIGN_IN_LIMIT, `${address}|${clientAddress}`);
  await refundAttempt(ADDRESS_SIGN_IN_LIMIT, clientAddress);
  await refundAttempt(ACCOUNT_SIGN_IN_LIMIT, address);
  return { id: user.id, email: user.email, organizationId: user.organizationId, twoFactorMethod: user.twoFactorMethod };
}

/** Whether the user has a session opened from this address: one of their usual places. */
async function isSignedInFrom(userId: string, clientAddress: string): Promise<boolean> {
  const session = await db.session.findFirst({ where: { userId, ipAddress: clientAddress }, select: { id: true } });
  return session !== null;
}
