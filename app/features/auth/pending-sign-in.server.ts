import { createCookie } from "react-router";
import { decryptSecret, encryptSecret, sha256 } from "~/lib/crypto.server.ts";
import { db } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import type { VerifiedUser } from "./credentials.server.ts";

/**
 * The sign-in page's memory between its two steps. After the password is right for a user with
 * a second factor, the page sets this short-lived cookie instead of writing the password into the
 * HTML of the code step. It is HttpOnly, Secure, SameSite=Lax, signed, and its value is encrypted
 * (AES-256-GCM): the user's id, an expiry, and a fingerprint of the password hash, so a password
 * change in between ends it. It proves only the first factor; the code is still required.
 */
export const PENDING_SIGN_IN_COOKIE_NAME = "remix-auth.two-factor-pending";
export const PENDING_SIGN_IN_TTL_MS = 10 * 60 * 1000;

let pendingCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  pendingCookie ??= createCookie(PENDING_SIGN_IN_COOKIE_NAME, {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/",
    secrets: [env().SESSION_SECRET],
    maxAge: PENDING_SIGN_IN_TTL_MS / 1000,
  });
  return pendingCookie;
}

type Pending = { userId: string; passwordFingerprint: string; expiresAt: number };

const fingerprint = (passwordHash: string) => sha256(`pending-sign-in:${passwordHash}`).slice(0, 32);

/** A Set-Cookie header remembering that `user` got past the password. */
export async function pendingSignInCookie(user: Pick<VerifiedUser, "id">): Promise<string> {
  const row = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
  const pending: Pending = {
    userId: user.id,
    passwordFingerprint: fingerprint(row.passwordHash ?? ""),
    expiresAt: Date.now() + PENDING_SIGN_IN_TTL_MS,
  };
  return cookie().serialize(encryptSecret(JSON.stringify(pending)));
}

/** A Set-Cookie header that removes the pending cookie. */
export function clearPendingSignInCookie(): Promise<string> {
  return cookie().serialize("", { expires: new Date(0), maxAge: 0 });
}

/**
 * The user the request's pending cookie names, when it is intact, unexpired, the user is still
 * active with the same password and still has a second factor; null otherwise.
 */
export async function readPendingSignIn(request: Request): Promise<VerifiedUser | null> {
  const value: unknown = await cookie().parse(request.headers.get("cookie"));
  if (typeof value !== "string" || value === "") return null;
  let pending: Pending;
  try {
    pending = JSON.parse(decryptSecret(value)) as Pending;
  } catch {
    return null;
  }
  if (typeof pending.expiresAt !== "number" || pending.expiresAt <= Date.now()) return null;
  const user = await db.user.findFirst({
    where: { id: pending.userId, deletedAt: null, isActive: true },
    select: { id: true, email: true, organizationId: true, passwordHash: true, twoFactorMethod: true },
  });
  if (!user?.passwordHash || !user.twoFactorMethod) return null;
  if (fingerprint(user.passwordHash) !== pending.passwordFingerprint) return null;
  return { id: user.id, email: user.email, organizationId: user.organizationId, twoFactorMethod: user.twoFactorMethod };
}
