import type { Actor } from "~/lib/auth/actor.server.ts";
import { SESSION_IDLE_TIMEOUT_MS } from "~/lib/auth/session.server.ts";
import { db } from "~/lib/db.server.ts";

/**
 * The caller's own sessions (the profile page's "active sessions"): the ones still usable, newest
 * activity first, the caller's own marked `current`. Tokens never leave the database; the id shown
 * is the row id, a hash nobody can sign in with.
 */
export async function listSessions(actor: Actor) {
  const now = Date.now();
  const sessions = await db.session.findMany({
    where: { userId: actor.userId, expiresAt: { gt: new Date(now) }, lastSeenAt: { gt: new Date(now - SESSION_IDLE_TIMEOUT_MS) } },
    select: { id: true, createdAt: true, lastSeenAt: true, ipAddress: true, userAgent: true },
    orderBy: [{ lastSeenAt: "desc" }, { createdAt: "desc" }],
  });
  return sessions.map((session) => ({ ...session, current: session.id === actor.sessionId })).sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends every session of the caller but the one making the request; answers how many ended. */
export async function endOtherSessions(actor: Actor): Promise<{ ended: number }> {
  const { count } = await db.session.deleteMany({ where: { userId: actor.userId, id: { not: actor.sessionId } } });
  return { ended: count };
}
