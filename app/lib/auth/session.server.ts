import { randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { db, driverReads } from "../db.server.ts";
import { rawDate } from "../raw-values.ts";
import { type ActorRow, CALLER_OF_SESSION, readCaller } from "./actor-row.server.ts";
import { actorFromUser, hashToken, isUsable } from "./actor-user.server.ts";
import { actorOfApiToken, bearerToken } from "./api-token.server.ts";
import { LAST_SEEN_RESOLUTION_MS, SESSION_COOKIE_NAME, SESSION_IDLE_TIMEOUT_MS } from "./session-rules.ts";
import { readSignedCookie } from "./signed-cookie.server.ts";

export { avatarUrl } from "./actor-user.server.ts";
export { LAST_SEEN_RESOLUTION_MS, SESSION_COOKIE_NAME, SESSION_IDLE_TIMEOUT_MS } from "./session-rules.ts";
import { env } from "../env.server.ts";
import type { Actor, RequestOrigin } from "./actor.server.ts";
import { recordAudit, userActor } from "~/features/audit/audit.server.ts";

/**
 * Sessions are rows in the database; the cookie carries only a random token whose SHA-256 is the
 * row's id. Deleting the row ends the session everywhere at once.
 */

let sessionCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  sessionCookie ??= createCookie(SESSION_COOKIE_NAME, {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/",
    secrets: [env().SESSION_SECRET],
    maxAge: env().SESSION_MAX_AGE,
  });
  return sessionCookie;
}

/**
 * A new session for `userId`. `signedIn`: the session is a sign-in (not the fresh cookie a password
 * change hands back), recorded as `auth.signed_in` in the same transaction (docs/api-contract.md §20).
 */
export async function createSession(
  userId: string,
  meta: { ipAddress?: string; userAgent?: string | null; signedIn?: { origin: RequestOrigin; method: "password" | "oidc" } },
): Promise<{ setCookie: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + env().SESSION_MAX_AGE * 1000);
  await db.$transaction(async (tx) => {
    await tx.session.create({
      data: {
        id: hashToken(token),
        userId,
        expiresAt,
        ipAddress: meta.ipAddress ?? null,
        userAgent: meta.userAgent?.slice(0, 300) ?? null,
      },
      select: { id: true },
    });
    const user = await tx.user.update({ where: { id: userId }, data: { lastLoginAt: new Date() }, select: { name: true, role: true, organizationId: true } });
    if (!meta.signedIn) return;
    await recordAudit(tx, {
      by: userActor({ id: userId, ...user }),
      action: "auth.signed_in",
      targetId: userId,
      organizationId: user.organizationId,
      origin: meta.signedIn.origin,
      details: { method: meta.signedIn.method },
    });
  });
  return { setCookie: await cookie().serialize(token, { expires: expiresAt }), expiresAt };
}

function tokenFrom(request: Request): string | null {
  const value = readSignedCookie(request.headers.get("cookie"), SESSION_COOKIE_NAME, [env().SESSION_SECRET]);
  return typeof value === "string" && value.length > 0 ? value : null;
}

/**
 * The caller: the bearer of a personal API token when the request names one (an unknown, expired
 * or revoked one is refused, never replaced by a cookie), else the signed-in session's user; null
 * when there is neither a valid, unexpired session nor a token of an active user.
 *
 * The session, its user, their avatar's date, the organization and a teacher's groups are read
 * through the driver, not the Prisma client (ADR 95): every page and API call starts here. Nothing
 * of it is kept between requests, so a session ended or a user deactivated by any instance is
 * refused by the next request everywhere. The rare writes (lastSeenAt, an expired session's row)
 * go through Prisma.
 */
export async function readActor(request: Request): Promise<Actor | null> {
  const bearer = bearerToken(request);
  if (bearer !== null) return actorOfApiToken(bearer, { method: request.method, pathname: new URL(request.url).pathname });
  const token = tokenFrom(request);
  if (!token) return null;
  const id = hashToken(token);
  const caller = await readCaller<ActorRow & { expiresAt: unknown; lastSeenAt: unknown }>(driverReads(), CALLER_OF_SESSION, "caller-of-session", id);
  if (!caller) return null;
  const { row, user, staffOf } = caller;
  const expiresAt = rawDate(row.expiresAt)!;
  const lastSeenAt = rawDate(row.lastSeenAt)!;
  const now = Date.now();
  if (expiresAt.getTime() <= now || lastSeenAt.getTime() + SESSION_IDLE_TIMEOUT_MS <= now || !isUsable(user)) {
    await db.session.deleteMany({ where: { id } });
    return null;
  }
  if (now - lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await db.session.updateMany({ where: { id }, data: { lastSeenAt: new Date(now) } });
  }
  return actorFromUser(user, { sessionId: id, expiresAt, via: "session" }, staffOf);
}

export async function destroySession(sessionId: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sessionId } });
}

/** A Set-Cookie header that removes the session cookie from the browser. */
export function clearSessionCookie(): Promise<string> {
  return cookie().serialize("", { expires: new Date(0), maxAge: 0 });
}
