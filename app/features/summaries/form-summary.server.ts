import { type Actor, isAdmin } from "~/lib/auth/actor.server.ts";
import { db, Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { getFormOfResults } from "../forms/forms.server.ts";
import { submissionSelection } from "../reports/reports.server.ts";
import { dateRange } from "~/lib/date-range.server.ts";
import {
  type ChoiceTally,
  type CompletedResults,
  fromTallies,
  missedQuestions,
  round2,
  summaryCounts,
  summaryQuestion,
  type TotalTally,
} from "./form-summary-rows.ts";
import type { FormSummary, FormSummaryQuery } from "./form-summary-schemas.ts";

/**
 * A form at a glance over the caller's results (docs/api-contract.md §13): how many links were assigned and
 * where they stand, the spread of the totals, how many fall in each band, and per question how
 * often each option was chosen and its mean score. Counted by the database in a few aggregate
 * queries, whatever the number of results.
 *
 * The date range selects each link by the date that matters for it: a completed result by when it
 * was completed (as the reports list does), a link still waiting, expired or withdrawn by when it
 * was assigned. A version (docs/api-contract.md §22) selects the completed results scored against
 * it; the links waiting have none yet and are counted all the same.
 */

/** The JSON array of chosen option ids, per provider: its length, and its elements as rows. */
function optionIdsSql() {
  return env().databaseProvider === "postgresql"
    ? {
        length: Prisma.sql`jsonb_array_length(a."optionIds")`,
        elements: Prisma.sql`CROSS JOIN LATERAL jsonb_array_elements_text(a."optionIds") AS o(value)`,
      }
    : { length: Prisma.sql`json_array_length(a."optionIds")`, elements: Prisma.sql`CROSS JOIN json_each(a."optionIds") AS o` };
}

export async function formSummary(actor: Actor, formId: string, query: FormSummaryQuery): Promise<FormSummary> {
  const form = await getFormOfResults(actor, formId);
  const range = dateRange(query, actor.timeZone);
  const { sql: scope } = await submissionSelection(actor, { formId, groupId: query.groupId });
  const within = (column: "completedAt" | "createdAt") => {
    const bounds = [Prisma.sql`TRUE`];
    if (range?.gte) bounds.push(Prisma.sql`s.${Prisma.raw(`"${column}"`)} >= ${range.gte}`);
    if (range?.lte) bounds.push(Prisma.sql`s.${Prisma.raw(`"${column}"`)} <= ${range.lte}`);
    return Prisma.join(bounds, " AND ");
  };
  const open = Prisma.join([...scope, Prisma.sql`s."isCompleted" = FALSE`, within("createdAt")], " AND ");
  const now = new Date();
  // The whole of a form's results (no group, no dates) is kept counted by the database as they
  // are written (ADR 32), per assigner; a selection of them is counted when asked for, and so is
  // the share of a teacher who shares groups (ADR 86), which is not a set of assigners.
  // The tallies hold no version either: a version's results are counted.
  const unfiltered = !query.groupId && !range && query.version === undefined && actor.role !== "STUDENT" && (isAdmin(actor) || actor.staffOf.length === 0);
  const everyVersion = [...scope, Prisma.sql`s."isCompleted" = TRUE`, within("completedAt")];
  const completed = Prisma.join(query.version === undefined ? everyVersion : [...everyVersion, Prisma.sql`s."formVersion" = ${query.version}`], " AND ");

  const [states, results] = await Promise.all([
    db.$queryRaw<{ revoked: unknown; expired: unknown; waiting: unknown }[]>`
      SELECT
        SUM(CASE WHEN s."revokedAt" IS NOT NULL THEN 1 ELSE 0 END) AS revoked,
        SUM(CASE WHEN s."revokedAt" IS NULL AND s."expiresAt" IS NOT NULL AND s."expiresAt" <= ${now} THEN 1 ELSE 0 END) AS expired,
        SUM(CASE WHEN s."revokedAt" IS NULL AND (s."expiresAt" IS NULL OR s."expiresAt" > ${now}) THEN 1 ELSE 0 END) AS waiting
      FROM "Submission" AS s WHERE ${open}`,
    unfiltered ? tallied(actor, formId, form.scoreRanges) : counted(completed, form.scoreRanges),
  ]);
  const answeredBy = new Map(results.questionRows.map((row) => [row.questionId, row]));
  const chosen = new Map(results.optionRows.map((row) => [`${row.questionId}:${row.optionId}`, Number(row.count)]));

  const questions = form.questions.map((question) =>
    summaryQuestion(question, answeredBy.get(question.id), (optionId) => chosen.get(`${question.id}:${optionId}`) ?? 0, results.count),
  );
  const [subscales, versions] = await Promise.all([
    subscaleSpread(completed, form.subscales),
    // A form never changed since it had results has them all at version 1.
    form.version === 1 && query.version === undefined
      ? [{ version: 1, results: results.count }]
      : resultsByVersion(Prisma.join(everyVersion, " AND "), form.version),
  ]);
  return {
    ...summaryCounts(results.count, states[0], results.spread, results.median),
    bands: form.scoreRanges.map((band, i) => ({ ...band, count: results.bandCounts[i] ?? 0 })),
    subscales,
    questions,
    missed: missedQuestions(questions),
    versions,
  };
}

/** Every version of the form, 1 to `current`, with how many of the selected results are scored against it. */
async function resultsByVersion(completed: Prisma.Sql, current: number): Promise<FormSummary["versions"]> {
  const rows = await db.$queryRaw<{ version: unknown; results: unknown }[]>`
    SELECT s."formVersion" AS version, COUNT(*) AS results FROM "Submission" AS s WHERE ${completed} GROUP BY s."formVersion"`;
  const counts = new Map(rows.map((row) => [Number(row.version), Number(row.results)]));
  return Array.from({ length: current }, (_, index) => ({ version: index + 1, results: counts.get(index + 1) ?? 0 }));
}

/**
 * From the tallies (ADR 32): the number of results per distinct total (a few hundred rows at most,
 * whatever the number of results) and the tally per question and option. A teacher's share is
 * their own assigner's rows.
 */
async function tallied(actor: Actor, formId: string, bands: { min: number; max: number }[]): Promise<CompletedResults> {
  const assigner = isAdmin(actor) ? Prisma.empty : Prisma.sql`AND "assignedById" = ${actor.userId}`;
  const [totalRows, choiceRows] = await Promise.all([
    db.$queryRaw<TotalTally[]>`
      SELECT "totalScore", SUM("results") AS results FROM "SummaryTotal" WHERE "formId" = ${formId} ${assigner}
      GROUP BY "totalScore" HAVING SUM("results") > 0 ORDER BY "totalScore"`,
    db.$queryRaw<ChoiceTally[]>`
      SELECT "questionId", "optionId", SUM("answers") AS answers, SUM("scoreSum") AS "scoreSum" FROM "SummaryChoice" WHERE "formId" = ${formId} ${assigner}
      GROUP BY "questionId", "optionId" HAVING SUM("answers") > 0`,
  ]);
  return fromTallies(totalRows, choiceRows, bands);
}

/** By reading every selected result and answer: for a group or a date range, which no tally keeps. */
async function counted(completed: Prisma.Sql, bands: { min: number; max: number }[]): Promise<CompletedResults> {
  const [spread, questionRows, optionRows] = await Promise.all([
    db.$queryRaw<{ count: unknown; mean: unknown; min: unknown; max: unknown }[]>`
      SELECT COUNT(*) AS count, AVG(s."totalScore") AS mean, MIN(s."totalScore") AS min, MAX(s."totalScore") AS max
      FROM "Submission" AS s WHERE ${completed}`,
    db.$queryRaw<{ questionId: string; answered: unknown; mean: unknown; scoreSum: unknown }[]>`
      SELECT a."questionId", COUNT(*) AS answered, AVG(a."score") AS mean, SUM(a."score") AS "scoreSum"
      FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId"
      WHERE ${completed} AND (${optionIdsSql().length} > 0 OR a."text" IS NOT NULL)
      GROUP BY a."questionId"`,
    db.$queryRaw<{ questionId: string; optionId: string; count: unknown }[]>`
      SELECT a."questionId", o.value AS "optionId", COUNT(*) AS count
      FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId" ${optionIdsSql().elements}
      WHERE ${completed}
      GROUP BY a."questionId", o.value`,
  ]);
  const count = Number(spread[0]?.count ?? 0);
  const [median, bandCounts] = await Promise.all([medianTotal(completed, count), countInBands(completed, bands)]);
  return { count, spread: spread[0], median, bandCounts, questionRows, optionRows };
}

/**
 * Each subscale's spread over the scores the selected results captured for its key (ADR 68): read
 * from the results' `subscales` JSON, so only a form that has subscales pays for it.
 */
async function subscaleSpread(completed: Prisma.Sql, subscales: { key: string; name: string }[]): Promise<FormSummary["subscales"]> {
  if (subscales.length === 0) return [];
  const postgres = env().databaseProvider === "postgresql";
  const score = postgres ? Prisma.sql`(e.value->>'score')::float8` : Prisma.sql`json_extract(e.value, '$.score')`;
  const key = postgres ? Prisma.sql`e.value->>'key'` : Prisma.sql`json_extract(e.value, '$.key')`;
  const elements = postgres
    ? Prisma.sql`CROSS JOIN LATERAL jsonb_array_elements(s."subscales") AS e(value)`
    : Prisma.sql`CROSS JOIN json_each(s."subscales") AS e`;
  const rows = await db.$queryRaw<{ key: string; scored: unknown; mean: unknown; min: unknown; max: unknown }[]>`
    SELECT ${key} AS key, COUNT(${score}) AS scored, AVG(${score}) AS mean, MIN(${score}) AS min, MAX(${score}) AS max
    FROM "Submission" AS s ${elements}
    WHERE ${completed} AND s."subscales" IS NOT NULL
    GROUP BY ${key}`;
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return subscales.map(({ key, name }) => {
    const row = byKey.get(key);
    const mean = number(row?.mean);
    return { key, name, scored: Number(row?.scored ?? 0), mean: mean === null ? null : round2(mean), min: number(row?.min), max: number(row?.max) };
  });
}

/** The middle total (the mean of the two middle ones for an even count), read from the index order, not sorted here. */
async function medianTotal(completed: Prisma.Sql, count: number): Promise<number | null> {
  if (count === 0) return null;
  const rows = await db.$queryRaw<{ totalScore: unknown }[]>`
    SELECT s."totalScore" FROM "Submission" AS s WHERE ${completed}
    ORDER BY s."totalScore" LIMIT ${count % 2 === 0 ? 2 : 1} OFFSET ${Math.floor((count - 1) / 2)}`;
  const values = rows.map((row) => Number(row.totalScore));
  return round2(values.reduce((a, b) => a + b, 0) / values.length);
}

/** How many completed totals fall in each band (bands never overlap, docs/api-contract.md §3): one pass. */
async function countInBands(completed: Prisma.Sql, bands: { min: number; max: number }[]): Promise<number[]> {
  if (bands.length === 0) return [];
  const columns = bands.map(
    (band, i) => Prisma.sql`SUM(CASE WHEN s."totalScore" >= ${band.min} AND s."totalScore" <= ${band.max} THEN 1 ELSE 0 END) AS ${Prisma.raw(`"b${i}"`)}`,
  );
  const rows = await db.$queryRaw<Record<string, unknown>[]>`SELECT ${Prisma.join(columns, ", ")} FROM "Submission" AS s WHERE ${completed}`;
  return bands.map((_, i) => Number(rows[0]?.[`b${i}`] ?? 0));
}
