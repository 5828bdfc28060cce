import { createCookie } from "react-router";
import { consumeRateLimit, type RateLimitRule } from "~/lib/auth/rate-limit.server.ts";
import { decryptSecret, encryptSecret, sha256 } from "~/lib/crypto.server.ts";
import { db } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { sendMail } from "~/lib/mail/mailer.server.ts";
import { signInUnlockMail } from "~/lib/mail/messages.server.ts";
import { ApiError } from "~/lib/problem.server.ts";

/**
 * The owner's way past a paused account (ADR 47). When guesses spread over many addresses use up
 * an account's sign-in ceiling, new addresses are refused without their password being checked.
 * The account's owner gets an e-mail with a one-time link; opening it gives that browser a cookie
 * with which the account signs in for the next hour, ceiling or not (the per-address limits still
 * apply). Nothing is stored but the use of each link: the link and the cookie are encrypted and
 * authenticated with ENCRYPTION_KEY (AES-256-GCM), so they cannot be forged or changed.
 */
export const SIGN_IN_UNLOCK_COOKIE_NAME = "remix-auth.sign-in-unlock";
const LINK_TTL_MS = 60 * 60 * 1000;
const COOKIE_TTL_MS = 60 * 60 * 1000;

/** One unlock e-mail per account per 15 minutes, however many guesses arrive. */
const UNLOCK_MAIL_LIMIT: RateLimitRule = { name: "sign-in-unlock-mail", limit: 1, windowMs: 15 * 60 * 1000 };
/** Each link works once (its use is remembered as long as the link is valid). */
const UNLOCK_LINK_USE: RateLimitRule = { name: "sign-in-unlock-used", limit: 1, windowMs: LINK_TTL_MS };

type Grant = { kind: "link" | "cookie"; userId: string; expiresAt: number };

let unlockCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  unlockCookie ??= createCookie(SIGN_IN_UNLOCK_COOKIE_NAME, {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/",
    secrets: [env().SESSION_SECRET],
    maxAge: COOKIE_TTL_MS / 1000,
  });
  return unlockCookie;
}

const seal = (grant: Grant) => encryptSecret(JSON.stringify(grant));

function open(value: unknown, kind: Grant["kind"]): Grant | null {
  if (typeof value !== "string" || value === "") return null;
  try {
    const grant = JSON.parse(decryptSecret(value)) as Grant;
    if (grant.kind !== kind || typeof grant.userId !== "string" || typeof grant.expiresAt !== "number") return null;
    return grant.expiresAt > Date.now() ? grant : null;
  } catch {
    return null;
  }
}

/**
 * E-mails the owner of a paused account a link that lets them sign in (at most once per 15
 * minutes). Never throws: the refused sign-in answers 429 whatever happens to the e-mail.
 */
export async function mailUnlockLink(userId: string): Promise<void> {
  try {
    await consumeRateLimit(UNLOCK_MAIL_LIMIT, userId);
  } catch {
    return;
  }
  try {
    const user = await db.user.findFirst({
      where: { id: userId, deletedAt: null, isActive: true },
      select: { email: true, name: true, locale: true, organization: { select: { kind: true } } },
    });
    if (!user) return;
    const token = seal({ kind: "link", userId, expiresAt: Date.now() + LINK_TTL_MS });
    const url = `${env().APP_URL}/${resolveLocale(user.locale)}/login?unlock=${encodeURIComponent(token)}`;
    await sendMail({ to: user.email, ...signInUnlockMail(user.locale, user.organization.kind, user.name, url) });
  } catch (error) {
    console.error("[sign-in] sending the unlock link failed", error);
  }
}

/**
 * Redeems an unlock link: the Set-Cookie header that lets this browser sign in to the account for
 * an hour, or null when the link is not valid (changed, expired, or used already).
 */
export async function redeemUnlockLink(token: string): Promise<string | null> {
  const grant = open(token, "link");
  if (!grant) return null;
  try {
    await consumeRateLimit(UNLOCK_LINK_USE, sha256(token));
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return null;
    throw error;
  }
  return cookie().serialize(seal({ kind: "cookie", userId: grant.userId, expiresAt: Date.now() + COOKIE_TTL_MS }));
}

/** The user whose paused sign-in this request's browser may pass (its unlock cookie), if any. */
export async function unlockedUserOf(request: Request): Promise<string | null> {
  return open(await cookie().parse(request.headers.get("cookie")), "cookie")?.userId ?? null;
}
