import { type ActorRow, CALLER_OF_SESSION, readCaller } from "../../app/lib/auth/actor-row.server.ts";
import { avatarUrl, hashToken, isUsable } from "../../app/lib/auth/actor-user.server.ts";
import { LAST_SEEN_RESOLUTION_MS, SESSION_COOKIE_NAME, SESSION_IDLE_TIMEOUT_MS } from "../../app/lib/auth/session-rules.ts";
import { readSignedCookie } from "../../app/lib/auth/signed-cookie.server.ts";
import type { SqlClient } from "../../app/lib/sql-client.server.ts";

/**
 * The two reads the baseline (scripts/bench/baseline.ts) and the reference app
 * (scripts/bench/reference/) answer alike: the session check and an administrator's reports
 * list, with the app's statements and the app's JSON. Each server runs them through its own layer:
 * the baseline through the driver, the reference app through Prisma's client. Nothing here is an
 * endpoint of the app; from app/ it takes pure functions, the session's constants and the caller's
 * statement (ADR 95).
 */

/** What the statements run through: the driver (SqlClient) or anything that answers the same way. */
export type Reads = Pick<SqlClient, "dialect" | "all" | "run">;

export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type Caller = { userId: string; organizationId: string; role: string; name: string; email: string; image: string | null; sessionExpiresAt: Date };

export const bool = (value: unknown) => value === true || value === 1;
export const asDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/**
 * The caller, as the app's readActor (app/lib/auth/session.server.ts) finds them: the cookie's
 * signature, then the session with its user, avatar and organization (and a teacher's groups)
 * read by the app's own statements (app/lib/auth/actor-row.server.ts); an expired or idle session,
 * or one of a user who cannot sign in, is deleted; lastSeenAt is written at most once per
 * LAST_SEEN_RESOLUTION_MS.
 */
export async function callerOf(client: Reads, cookieHeader: string | null, sessionSecret: string): Promise<Caller | null> {
  const token = readSignedCookie(cookieHeader, SESSION_COOKIE_NAME, [sessionSecret]);
  if (typeof token !== "string" || token.length === 0) return null;
  const id = hashToken(token);
  const row = (await readCaller<ActorRow & { expiresAt: unknown; lastSeenAt: unknown }>(client, CALLER_OF_SESSION, "caller-of-session", id))?.row;
  if (!row) return null;
  const now = Date.now();
  const lastSeenAt = asDate(row.lastSeenAt).getTime();
  const usable = isUsable({ isActive: bool(row.isActive), deletedAt: row.deletedAt === null ? null : asDate(row.deletedAt) });
  if (asDate(row.expiresAt).getTime() <= now || lastSeenAt + SESSION_IDLE_TIMEOUT_MS <= now || !usable) {
    await client.run(`DELETE FROM "Session" WHERE "id" = ?`, [id]);
    return null;
  }
  if (now - lastSeenAt > LAST_SEEN_RESOLUTION_MS) await client.run(`UPDATE "Session" SET "lastSeenAt" = ? WHERE "id" = ?`, [new Date(now), id]);
  return {
    userId: row.id,
    organizationId: row.organizationId,
    role: row.role,
    name: row.name,
    email: row.email,
    image: row.avatarUpdatedAt === null ? null : avatarUrl(row.id, asDate(row.avatarUpdatedAt)),
    sessionExpiresAt: asDate(row.expiresAt),
  };
}

const NEWEST_FIRST = `ORDER BY s."completedAt" DESC, s."id" DESC`;

/** The page and limit of a list, as the app's pagination schema takes them (app/lib/schemas.ts); any other parameter is refused. */
function pageOf(url: URL): { page: number; limit: number } {
  for (const key of url.searchParams.keys())
    if (key !== "page" && key !== "limit") throw new Refusal(400, `the baseline's reports list takes page and limit only, not ${key}`);
  const page = Number(url.searchParams.get("page") ?? 1);
  const limit = Number(url.searchParams.get("limit") ?? 20);
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000 || !Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new Refusal(400, "bad page or limit");
  return { page, limit };
}

/**
 * An administrator's reports list without filters, as the app's listReports answers it
 * (app/features/reports/reports.server.ts): the page's ids from the scope's index, then their rows
 * and names in one statement; the total from the counts the triggers keep (ADR 36), which is what
 * the app reads for a whole organization's list.
 */
export const jsonOrNull = (value: unknown): unknown => (value === null || value === undefined ? null : typeof value === "string" ? JSON.parse(value) : value);
const jsonOrEmpty = (value: unknown): unknown => jsonOrNull(value) ?? [];

export async function listReports(client: Reads, caller: Caller, url: URL) {
  if (caller.role !== "ADMIN") throw new Refusal(400, "the baseline lists an administrator's reports only");
  const { page, limit } = pageOf(url);
  const scope = `(s."deletedAt" IS NULL AND s."organizationId" = ?) AND s."isCompleted" = TRUE`;
  const [rows, counted] = await Promise.all([
    client.all<Record<string, unknown>>(
      `SELECT s."id", s."completedAt", s."totalScore", s."maxScore", s."percentage", s."scoreLabel", s."scoreColor",
              s."subscales", s."flags", s."flaggedAt", s."formTitle",
              s."acknowledgedAt", s."acknowledgedById", ack."name" AS "acknowledgedByName", s."acknowledgementNote",
              COALESCE(st."name", ca."name") AS "respondentName", u."name" AS "assignedByName", s."updatedAt",
              ${client.dialect === "postgresql" ? `(s."scoredAgainst"->'scoring'->>'display')` : `json_extract(s."scoredAgainst", '$.scoring.display')`} AS "display"
         FROM "Submission" AS s
         JOIN "User" AS u ON u."id" = s."assignedById"
         LEFT JOIN "User" AS ack ON ack."id" = s."acknowledgedById"
         LEFT JOIN "Student" AS st ON st."id" = s."studentId"
         LEFT JOIN "Candidate" AS ca ON ca."id" = s."candidateId"
        WHERE s."id" IN (SELECT s."id" FROM "Submission" AS s WHERE ${scope} ${NEWEST_FIRST} LIMIT ? OFFSET ?) ${NEWEST_FIRST}`,
      [caller.organizationId, limit, (page - 1) * limit],
    ),
    client.all<{ completed: unknown }>(`SELECT COALESCE(SUM("completed"), 0) AS "completed" FROM "SubmissionCount" WHERE "organizationId" = ?`, [
      caller.organizationId,
    ]),
  ]);
  const reports = rows.map((row) => ({
    id: row.id,
    studentName: row.respondentName ?? "",
    formTitle: row.formTitle ?? "",
    completedAt: asDate(row.completedAt),
    totalScore: row.totalScore,
    maxScore: row.maxScore,
    percentage: row.percentage,
    scoreLabel: row.scoreLabel,
    scoreColor: row.scoreColor,
    // Kept as text by SQLite, null for results completed before they were stored.
    subscales: jsonOrEmpty(row.subscales),
    flags: jsonOrEmpty(row.flags),
    flaggedAt: row.flaggedAt === null ? null : asDate(row.flaggedAt),
    acknowledgedAt: row.acknowledgedAt === null ? null : asDate(row.acknowledgedAt),
    acknowledgedBy: row.acknowledgedAt === null || row.acknowledgedById === null ? null : { id: row.acknowledgedById, name: row.acknowledgedByName ?? "" },
    acknowledgementNote: row.acknowledgedAt === null ? null : row.acknowledgementNote,
    assignedByName: row.assignedByName,
    updatedAt: asDate(row.updatedAt),
    deletedAt: null,
    // How the total shows, as the result captured it (ADR 79): only "RAW" is not the default.
    display: row.display === "RAW" ? "RAW" : "PERCENT",
  }));
  return { reports, total: Number(counted[0]?.completed ?? 0), page, limit };
}

/** The session check's answer, as the app's `GET /api/auth/session` gives it. */
export function sessionAnswer(caller: Caller) {
  const { userId: id, name, email, role, image, sessionExpiresAt } = caller;
  return { user: { id, name, email, role, image }, expires: sessionExpiresAt };
}
