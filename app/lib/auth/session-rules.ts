/**
 * What a session is, apart from the database: the cookie that carries its token and the times
 * after which it ends unused or its lastSeenAt is written again. Kept apart from
 * session.server.ts, which loads the database client, so that the bench's baseline
 * (scripts/bench/baseline.ts) checks a session by the same rules without it.
 */
export const SESSION_COOKIE_NAME = "remix-auth.session-token";
/** A session unused this long ends even before its absolute expiry. */
export const SESSION_IDLE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
/** lastSeenAt is refreshed at most this often, so reads do not turn into writes. */
export const LAST_SEEN_RESOLUTION_MS = 60 * 60 * 1000;
