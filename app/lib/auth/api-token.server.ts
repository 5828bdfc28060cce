import { randomBytes } from "node:crypto";
import { db } from "../db.server.ts";
import { unauthenticated } from "../problem.server.ts";
import type { Actor } from "./actor.server.ts";
import { consumeRateLimit, type RateLimitRule } from "./rate-limit.server.ts";
import { actorFromUser, actorUserSelect, hashToken, isUsable } from "./actor-user.server.ts";

/**
 * Personal API tokens (contract §14): `Authorization: Bearer <token>` acts as the token's user,
 * with the same role and scope, and needs no CSRF token (a browser never sends it by itself, so a
 * page of another site cannot make one). Only the token's SHA-256 is stored; it stops working when
 * deleted, when it expires and while its user is deactivated, and every recovery action deletes it
 * (end-access.server.ts, ADR 43). Each token has its own rate limit.
 */

/** Recognisable in a leak scanner's rules and in a log line: `as_` and 43 base64url characters. */
export const API_TOKEN_PREFIX = "as_";
const TOKEN_SHAPE = /^as_[\w-]{43}$/;

export const API_TOKEN_LIMIT: RateLimitRule = { name: "api-token", limit: 3000, windowMs: 60 * 1000 };

/** lastUsedAt is written at most this often, so reads do not turn into writes. */
const LAST_USED_RESOLUTION_MS = 60 * 1000;

export const newApiToken = () => `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
export const apiTokenHash = hashToken;

/** The bearer token of an `Authorization` header, or null when the request carries none. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : "";
}

const refused = () => unauthenticated("The API token is not valid: it may have been revoked or have expired.");

export async function actorOfApiToken(token: string): Promise<Actor> {
  if (!TOKEN_SHAPE.test(token)) throw refused();
  const row = await db.apiToken.findUnique({ where: { tokenHash: apiTokenHash(token) }, include: { user: { select: actorUserSelect } } });
  const now = Date.now();
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= now) || !isUsable(row.user)) throw refused();
  await consumeRateLimit(API_TOKEN_LIMIT, row.id);
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiToken.updateMany({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  return actorFromUser(row.user, { sessionId: `token:${row.id}`, expiresAt: row.expiresAt ?? new Date(8.64e15), via: "token" });
}
