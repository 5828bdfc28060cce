import { db } from "../db.server.ts";
import { constantTimeEqual, sha256 } from "../crypto.server.ts";

export type VerificationPurpose = "TWO_FACTOR_EMAIL_CODE" | "TOTP_SETUP" | "PASSWORD_RESET";

/**
 * One-time secrets in the Verification table: e-mailed codes, pending TOTP enrolments and
 * password-reset tokens. Only a SHA-256 of the secret is stored; a new one cancels the user's
 * older ones of the same purpose; each can be used once, and a failed try counts against it.
 */
export async function issueVerification(
  userId: string,
  purpose: VerificationPurpose,
  secret: string,
  options: { ttlMs: number; payload?: string },
): Promise<void> {
  const now = new Date();
  await db.$transaction([
    db.verification.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: now } }),
    db.verification.create({
      data: {
        userId,
        purpose,
        secretHash: sha256(secret),
        payload: options.payload ?? null,
        expiresAt: new Date(now.getTime() + options.ttlMs),
      },
    }),
  ]);
}

export type ConsumeResult = { ok: true; userId: string; payload: string | null } | { ok: false; reason: "missing" | "expired" | "wrong" | "exhausted" };

/**
 * Checks the user's current code of `purpose` (e-mailed second-factor codes, TOTP enrolment).
 * A wrong code counts one try; after `maxAttempts` the code is spent. The right code is claimed
 * with a conditional update, so it works exactly once even when sent twice at the same moment.
 */
export async function consumeUserCode(userId: string, purpose: VerificationPurpose, code: string, maxAttempts: number): Promise<ConsumeResult> {
  const now = new Date();
  const current = await db.verification.findFirst({
    where: { userId, purpose, usedAt: null },
    orderBy: { createdAt: "desc" },
  });
  if (!current) return { ok: false, reason: "missing" };
  if (current.expiresAt <= now) return { ok: false, reason: "expired" };
  if (current.attempts >= maxAttempts) return { ok: false, reason: "exhausted" };
  if (!constantTimeEqual(sha256(code), current.secretHash)) {
    const tries = current.attempts + 1;
    await db.verification.update({
      where: { id: current.id },
      data: { attempts: { increment: 1 }, ...(tries >= maxAttempts ? { usedAt: now } : {}) },
    });
    return { ok: false, reason: tries >= maxAttempts ? "exhausted" : "wrong" };
  }
  const claimed = await db.verification.updateMany({ where: { id: current.id, usedAt: null }, data: { usedAt: now } });
  return claimed.count === 1 ? { ok: true, userId, payload: current.payload } : { ok: false, reason: "missing" };
}

/** Redeems a token that identifies its user by itself (password reset links). */
export async function consumeToken(purpose: VerificationPurpose, token: string): Promise<ConsumeResult> {
  const now = new Date();
  const found = await db.verification.findFirst({ where: { secretHash: sha256(token), purpose } });
  if (!found || found.usedAt) return { ok: false, reason: "missing" };
  if (found.expiresAt <= now) return { ok: false, reason: "expired" };
  const claimed = await db.verification.updateMany({ where: { id: found.id, usedAt: null }, data: { usedAt: now } });
  return claimed.count === 1 ? { ok: true, userId: found.userId, payload: found.payload } : { ok: false, reason: "missing" };
}
