import { hash } from "node:crypto";
import type { Prisma } from "../db.server.ts";
import type { Actor, Role, StaffedGroup } from "./actor.server.ts";

/**
 * The caller as a user row turns into an Actor, whether they came with a session cookie or a
 * personal API token; and the one hash both credentials are stored as.
 */

/**
 * The stored form of a session token or an API token: its SHA-256, so a copy of the database hands
 * out neither. Node's one-shot `hash`, without a Hash object: every request with a session hashes its token.
 */
export const hashToken = (token: string) => hash("sha256", token, "hex");

export const avatarUrl = (userId: string, updatedAt: Date) => `/api/users/${userId}/avatar?v=${updatedAt.getTime()}`;

/** The user's columns an Actor is made of, for the session and for an API token. */
export const actorUserSelect = {
  id: true,
  role: true,
  organizationId: true,
  name: true,
  email: true,
  locale: true,
  isActive: true,
  deletedAt: true,
  avatar: { select: { updatedAt: true } },
  organization: { select: { timeZone: true, kind: true } },
} satisfies Prisma.UserSelect;

export type ActorUser = Prisma.UserGetPayload<{ select: typeof actorUserSelect }>;

export const isUsable = (user: Pick<ActorUser, "isActive" | "deletedAt">) => user.isActive && !user.deletedAt;

export function actorFromUser(user: ActorUser, credential: { sessionId: string; expiresAt: Date; via: Actor["via"] }, staffOf: StaffedGroup[]): Actor {
  return {
    userId: user.id,
    sessionId: credential.sessionId,
    via: credential.via,
    role: user.role as Role,
    organizationId: user.organizationId,
    name: user.name,
    email: user.email,
    image: user.avatar ? avatarUrl(user.id, user.avatar.updatedAt) : null,
    locale: user.locale,
    timeZone: user.organization.timeZone,
    organizationKind: user.organization.kind,
    sessionExpiresAt: credential.expiresAt,
    staffOf,
    // Filled in by the session middleware, which knows the request (app/lib/middleware.server.ts).
    origin: { ip: null, requestId: null },
  };
}
