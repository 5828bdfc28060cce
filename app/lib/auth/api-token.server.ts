import { randomBytes } from "node:crypto";
import { db, driverReads } from "../db.server.ts";
import { SAFE_METHODS } from "../http.server.ts";
import { ApiError, unauthenticated } from "../problem.server.ts";
import { rawBoolean, rawDate } from "../raw-values.ts";
import type { Actor } from "./actor.server.ts";
import { consumeRateLimit, type RateLimitRule } from "./rate-limit.server.ts";
import { type ActorRow, CALLER_OF_TOKEN, readCaller } from "./actor-row.server.ts";
import { actorFromUser, hashToken, isUsable } from "./actor-user.server.ts";

/**
 * Personal API tokens (docs/api-contract.md §14): `Authorization: Bearer <token>` acts as the token's user,
 * with the same role and scope, and needs no CSRF token (a browser never sends it by itself, so a
 * page of another site cannot make one). Only the token's SHA-256 is stored; it stops working when
 * deleted, when it expires and while its user is deactivated, and every recovery action deletes it
 * (end-access.server.ts, ADR 43). Each token has its own rate limit. A read-only token is refused
 * every write here, once for every route and page (ADR 54).
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

/**
 * The one POST that only reads: the specification's PDF export takes the submission in its body.
 * Every other method but GET, HEAD and OPTIONS is a write, sign-out and the public calls included.
 */
const READING_POSTS: ReadonlySet<string> = new Set(["/api/reports/export"]);

/** Whether a request with this method on this path changes something, for a token's scopes. */
export const isWrite = (method: string, pathname: string) =>
  !SAFE_METHODS.has(method.toUpperCase()) && !(method.toUpperCase() === "POST" && READING_POSTS.has(pathname));

const readOnlyRefusal = () =>
  new ApiError(403, "TOKEN_SCOPE", "This API token is read-only: it may read but not change anything. Use a token with the write scope, or sign in.");

type TokenRow = ActorRow & { tokenId: string; expiresAt: unknown; lastUsedAt: unknown; readOnly: unknown };

/**
 * The caller a bearer token stands for, on a request of `method` to `pathname`. A read-only token's
 * write is refused here, before any route or page reads the request: nothing of it is done. The
 * token and its caller are read through the driver, as a session is (ADR 95).
 */
export async function actorOfApiToken(token: string, { method, pathname }: { method: string; pathname: string }): Promise<Actor> {
  if (!TOKEN_SHAPE.test(token)) throw refused();
  const caller = await readCaller<TokenRow>(driverReads(), CALLER_OF_TOKEN, "caller-of-token", apiTokenHash(token));
  if (!caller) throw refused();
  const { row, user, staffOf } = caller;
  const expiresAt = rawDate(row.expiresAt);
  const lastUsedAt = rawDate(row.lastUsedAt);
  const now = Date.now();
  if ((expiresAt && expiresAt.getTime() <= now) || !isUsable(user)) throw refused();
  await consumeRateLimit(API_TOKEN_LIMIT, row.tokenId);
  if (!lastUsedAt || now - lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiToken.updateMany({ where: { id: row.tokenId }, data: { lastUsedAt: new Date(now) } });
  }
  if (rawBoolean(row.readOnly) && isWrite(method, pathname)) throw readOnlyRefusal();
  return actorFromUser(user, { sessionId: `token:${row.tokenId}`, expiresAt: expiresAt ?? new Date(8.64e15), via: "token" }, staffOf);
}
