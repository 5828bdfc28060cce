// Brings every completed submission's `searchText` in line with its respondent's current name.
// Since 20261122080024_submission_form_title_search the reports search reads only that column
// (docs/decisions/0011-substring-search.md) and renames keep it current; results of people renamed
// before that migration still hold the name they had at completion. SQL cannot fold text the way
// app/lib/search.ts does, so the migration leaves them and this runs once after it (server/start.ts,
// scripts/migrate.ts), or by hand: `npx tsx scripts/refresh-search-text.ts`. Idempotent.

import { createDatabase, type Database } from "../../app/lib/db.server.ts";
import { submissionSearchText } from "../../app/lib/search.ts";

/** The migration after which the refresh is due. */
export const SEARCH_TEXT_MIGRATION = "20261122080024_submission_form_title_search";

type StaleRow = { id: string; formTitle: string | null; name: string; searchText: string | null };

/**
 * Rewrites the `searchText` of completed submissions whose text does not start with their
 * respondent's folded name (the student, or the candidate while no student was promoted from
 * them); returns how many rows changed. The SQL only preselects; each text is recomputed exactly
 * and written when it differs.
 */
export async function refreshStaleSearchText(db: Database): Promise<number> {
  const rows = await db.$queryRaw<StaleRow[]>`
    SELECT s."id", s."formTitle", COALESCE(st."name", c."name") AS "name", s."searchText"
    FROM "Submission" s
    LEFT JOIN "Student" st ON st."id" = s."studentId"
    LEFT JOIN "Candidate" c ON c."id" = s."candidateId"
    WHERE s."isCompleted" = TRUE AND COALESCE(st."name", c."name") IS NOT NULL AND (
      s."searchText" IS NULL OR
      substr(s."searchText", 1, length(COALESCE(st."searchName", c."searchName")) + 1)
        <> COALESCE(st."searchName", c."searchName") || ' '
    )`;
  let changed = 0;
  for (const row of rows) {
    const searchText = submissionSearchText(row.name, row.formTitle);
    if (searchText === row.searchText) continue;
    await db.submission.update({ where: { id: row.id }, data: { searchText }, select: { id: true } });
    changed += 1;
  }
  return changed;
}

/** Runs the refresh when `applied` (this run's migrations) includes SEARCH_TEXT_MIGRATION. */
export async function refreshSearchTextAfter(databaseUrl: string, applied: string[], log: (message: string) => void) {
  if (!applied.includes(SEARCH_TEXT_MIGRATION)) return;
  const db = createDatabase(databaseUrl);
  try {
    const changed = await refreshStaleSearchText(db);
    if (changed > 0) log(`Rewrote the search text of ${changed} completed submission(s) for their respondents' current names.`);
  } finally {
    await db.$disconnect();
  }
}
