import { Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";

/**
 * The `scoring.display` a result captured (`scoredAgainst`, ADR 68) as an SQL expression on the
 * "Submission" row `alias`, so that a list reads that one field and the database keeps the rest of
 * the snapshot (ADR 79). Read it back with readScoreDisplay: a snapshot without it is PERCENT.
 */
export function capturedDisplaySql(alias: string): Prisma.Sql {
  const column = Prisma.raw(`${alias}."scoredAgainst"`);
  return env().databaseProvider === "postgresql" ? Prisma.sql`(${column}->'scoring'->>'display')` : Prisma.sql`json_extract(${column}, '$.scoring.display')`;
}
