import { randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { db } from "../db.server.ts";
import { rawBoolean, rawDate } from "../raw-values.ts";
import { type ActorUser, actorFromUser, hashToken, isUsable, staffedGroups } from "./actor-user.server.ts";
import { actorOfApiToken, bearerToken } from "./api-token.server.ts";
import { LAST_SEEN_RESOLUTION_MS, SESSION_COOKIE_NAME, SESSION_IDLE_TIMEOUT_MS } from "./session-rules.ts";
import { readSignedCookie } from "./signed-cookie.server.ts";

export { avatarUrl } from "./actor-user.server.ts";
export { LAST_SEEN_RESOLUTION_MS, SESSION_COOKIE_NAME, SESSION_IDLE_TIMEOUT_MS } from "./session-rules.ts";
import { env } from "../env.server.ts";
import type { Actor, RequestOrigin } from "./actor.server.ts";
import { recordAudit, userActor } from "~/features/audit/audit.server.ts";
import type { OrganizationKind } from "~/features/organization/organization-kinds.ts";

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

/** The session's row joined with its user, avatar and organization, as the raw query gives it. */
type SessionRow = {
  expiresAt: unknown;
  lastSeenAt: unknown;
  id: string;
  role: ActorUser["role"];
  organizationId: string;
  name: string;
  email: string;
  locale: string;
  isActive: unknown;
  deletedAt: unknown;
  avatarUpdatedAt: unknown;
  timeZone: string;
  kind: OrganizationKind;
};

/**
 * The caller: the bearer of a personal API token when the request names one (an unknown, expired
 * or revoked one is refused, never replaced by a cookie), else the signed-in session's user; null
 * when there is neither a valid, unexpired session nor a token of an active user.
 */
export async function readActor(request: Request): Promise<Actor | null> {
  const bearer = bearerToken(request);
  if (bearer !== null) return actorOfApiToken(bearer, { method: request.method, pathname: new URL(request.url).pathname });
  const token = tokenFrom(request);
  if (!token) return null;
  const id = hashToken(token);
  // The session, its user, the user's avatar date and organization's zone in one statement: every
  // page and API call starts here, and the ORM's relations made it four on SQLite.
  const [row] = await db.$queryRaw<SessionRow[]>`
    SELECT se."expiresAt", se."lastSeenAt", u."id", u."role", u."organizationId", u."name", u."email", u."locale", u."isActive", u."deletedAt",
           a."updatedAt" AS "avatarUpdatedAt", o."timeZone", o."kind"
      FROM "Session" AS se
      JOIN "User" AS u ON u."id" = se."userId"
      JOIN "Organization" AS o ON o."id" = u."organizationId"
      LEFT JOIN "Avatar" AS a ON a."userId" = u."id"
     WHERE se."id" = ${id}`;
  if (!row) return null;
  const session = { expiresAt: rawDate(row.expiresAt)!, lastSeenAt: rawDate(row.lastSeenAt)! };
  const avatarUpdatedAt = rawDate(row.avatarUpdatedAt);
  const user = {
    id: row.id,
    role: row.role,
    organizationId: row.organizationId,
    name: row.name,
    email: row.email,
    locale: row.locale,
    isActive: rawBoolean(row.isActive),
    deletedAt: rawDate(row.deletedAt),
    avatar: avatarUpdatedAt ? { updatedAt: avatarUpdatedAt } : null,
    organization: { timeZone: row.timeZone, kind: row.kind },
  };
  const now = Date.now();
  if (session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + SESSION_IDLE_TIMEOUT_MS <= now || !isUsable(user)) {
    await db.session.deleteMany({ where: { id } });
    return null;
  }
  if (now - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await db.session.updateMany({ where: { id }, data: { lastSeenAt: new Date(now) } });
  }
  return actorFromUser(user, { sessionId: id, expiresAt: session.expiresAt, via: "session" }, await staffedGroups(user));
}

export async function destroySession(sessionId: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sessionId } });
}

/** A Set-Cookie header that removes the session cookie from the browser. */
export function clearSessionCookie(): Promise<string> {
  return cookie().serialize("", { expires: new Date(0), maxAge: 0 });
}
