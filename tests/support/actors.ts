import type { Actor, Role } from "../../app/lib/auth/actor.server.ts";

/**
 * The caller as the session middleware hands it to a route (app/root.tsx), for a stored user:
 * what a test passes to a service it calls directly.
 */
export function actorOf(user: { id: string; role: Role; organizationId: string; name: string; email: string }, timeZone: string): Actor {
  return {
    userId: user.id,
    sessionId: "test",
    via: "session",
    role: user.role,
    organizationId: user.organizationId,
    name: user.name,
    email: user.email,
    image: null,
    locale: "en",
    timeZone,
    organizationKind: "SCHOOL",
    sessionExpiresAt: new Date(Date.now() + 3_600_000),
    staffOf: [],
    origin: { ip: null, requestId: null },
  };
}
