import { hashPassword, decoyPasswordHash, verifyPassword } from "~/lib/auth/password.server.ts";
import { passwordMatchesEmail } from "~/features/auth/password-policy.server.ts";
import { CURRENT_PASSWORD_LIMIT, FORGOT_PASSWORD_ADDRESS_LIMIT, FORGOT_PASSWORD_IP_LIMIT, consumeRateLimit } from "~/lib/auth/rate-limit.server.ts";
import { endAccountAccess, requireSessionCaller } from "~/lib/auth/end-access.server.ts";
import { createSession } from "~/lib/auth/session.server.ts";
import { consumeToken, issueVerification } from "~/lib/auth/verification.server.ts";
import type { Actor, RequestOrigin } from "~/lib/auth/actor.server.ts";
import { type AuditEntry, recordAudit, userActor } from "../audit/audit.server.ts";
import { sha256 } from "~/lib/crypto.server.ts";
import { db } from "~/lib/db.server.ts";
import { sendMail } from "~/lib/mail/mailer.server.ts";
import { passwordResetMail } from "~/lib/mail/messages.server.ts";
import { ApiError, badRequest, fieldProblem } from "~/lib/problem.server.ts";
import type { ChangePasswordInput, ResetPasswordInput } from "./password-schemas.ts";
import { newLinkToken, setPasswordUrl, type LinkRecipient } from "./set-password-links.server.ts";
import type { OrganizationKind } from "../organization/organization-kinds.ts";

/**
 * Forgotten passwords, resets, invitations and password changes (docs/decisions/0006). Reset and
 * invitation links carry 256 random bits; only their SHA-256 is stored (Verification table,
 * purpose PASSWORD_RESET), a newer link cancels the older ones, and a link works once.
 */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

/** What POST /api/auth/forgot-password and the page answer, whether or not the address is known. */
export const FORGOT_PASSWORD_MESSAGE = "If an account uses this address, we have sent it a link to choose a new password. The link is valid for one hour.";

export const invalidToken = () => new ApiError(400, "INVALID_TOKEN", "This link is not valid: it was already used, it expired, or a newer one was sent.");

/**
 * Counts the request (per client address, then per e-mail address) and, for an active account,
 * e-mails a reset link. Unknown, deleted and deactivated addresses get the same answer; the link
 * is issued and sent after the caller has been answered, so both cases cost the request the same
 * (two counter updates and one lookup). Answers that sending, which the routes do not wait for: it
 * settles once the link is sent, or at once when there is none to send, and never fails (a failure
 * is logged). A test awaits it to know that nothing more will be sent (ADR 60).
 */
export async function requestPasswordReset(email: string, clientAddress: string): Promise<{ sending: Promise<void> }> {
  await consumeRateLimit(FORGOT_PASSWORD_IP_LIMIT, clientAddress);
  const address = email.trim().toLowerCase();
  await consumeRateLimit(FORGOT_PASSWORD_ADDRESS_LIMIT, address);
  const user = await db.user.findFirst({
    where: { email: address, deletedAt: null, isActive: true },
    select: { id: true, name: true, email: true, locale: true, organization: { select: { kind: true } } },
  });
  if (!user) return { sending: Promise.resolve() };
  return { sending: sendResetLink(user).catch((error: unknown) => console.error("[forgot-password] sending the reset link failed", error)) };
}

async function sendResetLink(user: LinkRecipient & { organization: { kind: OrganizationKind } }): Promise<void> {
  const token = newLinkToken();
  await issueVerification(user.id, "PASSWORD_RESET", token, { ttlMs: RESET_LINK_TTL_MS });
  await sendMail({ to: user.email, ...passwordResetMail(user.locale, user.organization.kind, user.name, setPasswordUrl(user.locale, token)) });
}

/** The account behind a reset link that can still be used, without using it up. */
async function usableLink(token: string) {
  const link = await db.verification.findFirst({
    where: { secretHash: sha256(token), purpose: "PASSWORD_RESET", usedAt: null, expiresAt: { gt: new Date() } },
    select: { user: { select: { id: true, email: true, name: true, role: true, organizationId: true, isActive: true, deletedAt: true } } },
  });
  return link && link.user.isActive && !link.user.deletedAt ? link.user : null;
}

/** Whether the reset page should show its form (the link is still good) or explain that it is not. */
export async function isResetLinkUsable(token: string): Promise<boolean> {
  return (await usableLink(token)) !== null;
}

/**
 * Sets the password of the link's account and ends every session and API token of that account. The new
 * password is checked before the link is used up, so a refused password leaves the link working.
 */
export async function resetPassword(input: ResetPasswordInput, origin: RequestOrigin): Promise<void> {
  const user = await usableLink(input.token);
  if (!user) throw invalidToken();
  if (passwordMatchesEmail(input.password, user.email)) {
    throw badRequest("The new password is not accepted.", [fieldProblem("password", "passwordIsEmail")]);
  }
  const passwordHash = await hashPassword(input.password);
  const redeemed = await consumeToken("PASSWORD_RESET", input.token);
  if (!redeemed.ok || redeemed.userId !== user.id) throw invalidToken();
  // Whoever holds the link is the account's owner, as far as anyone can tell; not yet signed in.
  await setPasswordAndEndSessions(user.id, passwordHash, {
    by: userActor(user),
    action: "auth.password_reset",
    targetId: user.id,
    organizationId: user.organizationId,
    origin,
  });
}

/**
 * The new hash, no session or API token left, no other reset link still open, and the `event`
 * that records it: all or nothing.
 */
async function setPasswordAndEndSessions(userId: string, passwordHash: string, event: AuditEntry): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    const ended = await endAccountAccess(tx, userId);
    await tx.verification.updateMany({ where: { userId, purpose: "PASSWORD_RESET", usedAt: null }, data: { usedAt: new Date() } });
    await recordAudit(tx, { ...event, details: { sessionsEnded: ended.sessions, tokensEnded: ended.tokens } });
  });
}

/**
 * Checks a signed-in user's current password before a sensitive change (password, e-mail).
 * Counted per user, so a borrowed session cannot be used to guess the password. Missing or wrong:
 * 400 naming `field`. Accounts without a password (invited, not yet set) can never pass.
 */
export async function requireCurrentPassword(actor: Actor, password: string | undefined, field = "currentPassword"): Promise<void> {
  if (!password) {
    throw badRequest("Enter your current password to make this change.", [fieldProblem(field, "currentPasswordRequired")]);
  }
  await consumeRateLimit(CURRENT_PASSWORD_LIMIT, actor.userId);
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { passwordHash: true } });
  const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user?.passwordHash || !matches) {
    throw new ApiError(400, "INVALID_CURRENT_PASSWORD", "The current password is not correct.", [fieldProblem(field, "currentPasswordWrong")]);
  }
}

/**
 * Changes the caller's password. Every session and API token of the user ends, the caller's
 * session included, and the caller gets a new one at once (a new cookie): a stolen cookie or token
 * stops working, the caller does not have to sign in again. Only from a session (403 TOKEN_SCOPE
 * with a token).
 */
export async function changePassword(
  actor: Actor,
  input: ChangePasswordInput,
  meta: { ipAddress: string; userAgent: string | null },
): Promise<{ setCookie: string }> {
  requireSessionCaller(actor);
  await requireCurrentPassword(actor, input.currentPassword);
  if (passwordMatchesEmail(input.newPassword, actor.email)) {
    throw badRequest("The new password is not accepted.", [fieldProblem("newPassword", "passwordIsEmail")]);
  }
  await setPasswordAndEndSessions(actor.userId, await hashPassword(input.newPassword), {
    by: actor,
    action: "auth.password_changed",
    targetId: actor.userId,
  });
  const { setCookie } = await createSession(actor.userId, meta);
  return { setCookie };
}
