import { testDatabase } from "./database.ts";

/**
 * The form summary's tallies ("SummaryTotal", "SummaryChoice", kept by triggers: ADR 32) as they
 * are, and as counting a form's results gives them, for the tests that check every kind of write
 * keeps the two equal.
 */
export type Tallies = { totals: Record<string, number>; choices: Record<string, [number, number]> };

/** The tallies as they are, without the rows that went back to zero. */
export async function tallies(formId: string): Promise<Tallies> {
  const db = testDatabase();
  const totals = await db.summaryTotal.findMany({ where: { formId, results: { not: 0 } } });
  const choices = await db.summaryChoice.findMany({ where: { formId, answers: { not: 0 } } });
  return {
    totals: Object.fromEntries(totals.map((row) => [`${row.assignedById}|${row.totalScore}`, row.results])),
    choices: Object.fromEntries(
      choices.map((row) => [`${row.assignedById}|${row.questionId}|${row.optionId}`, [row.answers, Math.round(row.scoreSum * 1e6) / 1e6]]),
    ),
  };
}

/** The tallies as counting the rows gives them. */
export async function countedTallies(formId: string): Promise<Tallies> {
  const results = await testDatabase().submission.findMany({
    where: { formId, isCompleted: true, deletedAt: null, totalScore: { not: null } },
    include: { answers: true },
  });
  const totals: Record<string, number> = {};
  const choices: Record<string, [number, number]> = {};
  const add = (key: string, score: number) => {
    const [answers, sum] = choices[key] ?? [0, 0];
    choices[key] = [answers + 1, Math.round((sum + score) * 1e6) / 1e6];
  };
  for (const result of results) {
    const key = `${result.assignedById}|${result.totalScore}`;
    totals[key] = (totals[key] ?? 0) + 1;
    for (const answer of result.answers) {
      const optionIds = answer.optionIds as string[];
      if (optionIds.length > 0 || answer.text !== null) add(`${result.assignedById}|${answer.questionId}|`, answer.score);
      for (const optionId of optionIds) add(`${result.assignedById}|${answer.questionId}|${optionId}`, 0);
    }
  }
  return { totals, choices };
}

/** Submissions (not deleted) and how many of them completed, per organization, assigner and form (ADR 36). */
export type Counts = Record<string, { submissions: number; completed: number }>;

/** The submission counts as the triggers keep them, leaving out rows that fell to zero. */
export async function keptCounts(organizationIds: string[]): Promise<Counts> {
  const rows = await testDatabase().submissionCount.findMany({ where: { organizationId: { in: organizationIds } } });
  return Object.fromEntries(
    rows
      .filter((row) => row.submissions !== 0 || row.completed !== 0)
      .map((row) => [`${row.organizationId}/${row.assignedById}/${row.formId}`, { submissions: row.submissions, completed: row.completed }]),
  );
}

/** The same counts, counted. */
export async function countedCounts(organizationIds: string[]): Promise<Counts> {
  const rows = await testDatabase().submission.groupBy({
    by: ["organizationId", "assignedById", "formId", "isCompleted"],
    where: { organizationId: { in: organizationIds }, deletedAt: null },
    _count: { _all: true },
  });
  const counts: Counts = {};
  for (const row of rows) {
    const entry = (counts[`${row.organizationId}/${row.assignedById}/${row.formId}`] ??= { submissions: 0, completed: 0 });
    entry.submissions += row._count._all;
    if (row.isCompleted) entry.completed += row._count._all;
  }
  return counts;
}
