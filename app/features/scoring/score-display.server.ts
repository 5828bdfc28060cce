import { db, Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { type ScoreDisplay, readScoreDisplay } from "./score-display.ts";

/**
 * The `scoring.display` a result captured (`scoredAgainst`, ADR 68) as an SQL expression on the
 * "Submission" row `alias`, so that a list reads that one field and the database keeps the rest of
 * the snapshot (ADR 79). Read it back with readScoreDisplay: a snapshot without it is PERCENT.
 */
export function capturedDisplaySql(alias: string): Prisma.Sql {
  const column = Prisma.raw(`${alias}."scoredAgainst"`);
  return env().databaseProvider === "postgresql" ? Prisma.sql`(${column}->'scoring'->>'display')` : Prisma.sql`json_extract(${column}, '$.scoring.display')`;
}

/**
 * How each of these results shows its total, by id, for a page whose rows came from a query that
 * could not select it. The ids must come from rows already read in the caller's scope.
 */
export async function capturedDisplays(ids: string[]): Promise<Map<string, ScoreDisplay>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; display: unknown }[]>`
    SELECT s."id", ${capturedDisplaySql("s")} AS "display" FROM "Submission" AS s WHERE s."id" IN (${Prisma.join(ids)})`;
  return new Map(rows.map((row) => [row.id, readScoreDisplay(row.display)]));
}
