import { hostname } from "node:os";
import { db } from "./db.server.ts";
import type { PlainResponse } from "./service-status.server.ts";

/**
 * Whether the database is answering, for the whole process.
 *
 * A request that fails because the database cannot be reached (connection refused or lost, a
 * timeout, a locked, full, read-only or vanished SQLite file) marks the database unavailable. From
 * then on every request is answered 503 with Retry-After at once by the HTTP server, instead of
 * each one waiting for its own connection timeout and ending in a 500; a probe checks every
 * second and clears the mark as soon as the database answers a read and accepts a write again, so
 * the service recovers by itself.
 */

/** Seconds a client is asked to wait (Retry-After) while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
const PROBE_INTERVAL_MS = 1_000;

/** This process, as its row in the HealthCheck table. */
const instance = `${hostname()}:${process.pid}`;

/**
 * The check `/healthz` makes and the probe repeats: a read, then a write to this instance's own
 * row (a disk that is full or a database that went read-only passes reads and fails writes).
 */
export async function checkDatabase(): Promise<void> {
  await db.$queryRaw`SELECT 1`;
  const checkedAt = new Date();
  await db.healthCheck.upsert({ where: { instance }, create: { instance, checkedAt }, update: { checkedAt } });
}

/**
 * The answer of `/healthz`: 200 once the database answers a read and accepts a write, 503 with
 * Retry-After otherwise. A failure that says the database is away also marks it so for every request.
 */
export async function healthCheck(): Promise<PlainResponse> {
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  try {
    await checkDatabase();
    // Answered ahead of the unavailable fast path, so a check that passes ends an outage at once.
    noteDatabaseBack();
    return { status: 200, headers, body: JSON.stringify({ status: "ok" }) };
  } catch (error) {
    if (!noteDatabaseFailure(error)) {
      console.error("[healthz] database check failed:", error instanceof Error ? error.message : error);
    }
    return { status: 503, headers: { ...headers, "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) }, body: JSON.stringify({ status: "unavailable" }) };
  }
}

/** Driver and Prisma error kinds and codes that mean "the database is not there", not "bad query". */
const UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "DatabaseAccessDenied",
  "ConnectionClosed",
  "TlsConnectionError",
  "AuthenticationFailed",
  "TooManyConnections",
  "SocketTimeout",
]);
const UNAVAILABLE_PRISMA_CODES = new Set(["P1000", "P1001", "P1002", "P1003", "P1008", "P1010", "P1011", "P1017", "P2024"]);
const UNAVAILABLE_MESSAGES =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|Connection terminated|connection timeout|terminating connection|the database system is (starting up|shutting down|in recovery)|Can't reach database|SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY|CORRUPT|NOTADB)|database is locked|database or disk is full|disk I\/O error|unable to open database|attempt to write a readonly database|no such table: (main\.)?"?HealthCheck/i;

/** True when `error` or anything in its cause chain passes `test` (a chain that loops is walked once). */
export function anyInCauseChain(error: unknown, test: (candidate: Record<string, unknown>) => boolean): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === "object" && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if (test(current as Record<string, unknown>)) return true;
  }
  return false;
}

/**
 * The errors the database client raises: Prisma's own, its driver adapters', and the drivers'
 * (better-sqlite3, pg). Only these can say the database is away. A socket error elsewhere in the
 * request (the client resetting its connection while its body was being read) carries the same
 * `ECONNRESET` or `EPIPE` and says nothing about the database: counted as one, a phone losing its
 * signal mid-submit put every other request into 503 for a second.
 */
const DATABASE_CLIENT_ERROR = /^(PrismaClient\w*Error|DriverAdapterError|SqliteError|DatabaseError)$/;

function databaseClientError(error: unknown): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  anyInCauseChain(error, (candidate) => {
    // pg's DatabaseError names itself after the protocol message ("error"), hence the class too.
    const names = [candidate.name, candidate.constructor?.name];
    if (names.some((name) => typeof name === "string" && DATABASE_CLIENT_ERROR.test(name))) found = candidate;
    return found !== undefined;
  });
  return found;
}

/**
 * True when `error` was raised by the database client and it (or anything in its cause chain)
 * says the database cannot be used right now.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  const raised = databaseClientError(error);
  if (!raised) return false;
  return anyInCauseChain(raised, (candidate) => {
    if (typeof candidate.kind === "string" && UNAVAILABLE_KINDS.has(candidate.kind)) return true;
    for (const code of [candidate.code, candidate.errorCode]) {
      if (typeof code === "string" && (UNAVAILABLE_PRISMA_CODES.has(code) || UNAVAILABLE_MESSAGES.test(code))) return true;
    }
    return typeof candidate.message === "string" && UNAVAILABLE_MESSAGES.test(candidate.message);
  });
}

type State = { available: true } | { available: false; since: number; probe: ReturnType<typeof setInterval> };
let state: State = { available: true };

/** False from the first unreachable-database failure until a probe succeeds again. */
export const isDatabaseAvailable = () => state.available;

/**
 * Records a failure; when it is an unreachable database, marks the database unavailable and starts
 * probing. Returns whether it was (so the caller can answer 503 instead of 500).
 */
export function noteDatabaseFailure(error: unknown): boolean {
  if (!isDatabaseUnavailableError(error)) return false;
  if (!state.available) return true;
  console.error(`[database] unavailable (${describe(error)}); answering 503 until it is back`);
  const probe = setInterval(() => void probeOnce(), PROBE_INTERVAL_MS);
  probe.unref();
  state = { available: false, since: Date.now(), probe };
  return true;
}

let probing = false;
async function probeOnce(): Promise<void> {
  if (probing || state.available) return;
  probing = true;
  try {
    await checkDatabase();
    noteDatabaseBack();
  } catch {
    // Still unavailable: the next tick tries again.
  } finally {
    probing = false;
  }
}

/** Clears the mark after a check passed. */
function noteDatabaseBack(): void {
  if (state.available) return;
  clearInterval(state.probe);
  console.error(`[database] available again after ${Math.round((Date.now() - state.since) / 1000)} s`);
  state = { available: true };
}

/** Stops probing (at shutdown). */
export function stopDatabaseProbe(): void {
  if (!state.available) clearInterval(state.probe);
}

/** A short, secret-free description: the error's class and code, never its query or parameters. */
function describe(error: unknown): string {
  const candidate = error as { name?: unknown; code?: unknown; cause?: { kind?: unknown } };
  return [candidate?.name, candidate?.code, candidate?.cause?.kind].filter((part) => typeof part === "string").join(" ") || "error";
}
