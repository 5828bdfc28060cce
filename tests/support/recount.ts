import { testDatabase } from "./database.ts";

/**
 * What the database keeps by triggers, and the same figures counted from the rows: the form
 * summary's tallies (ADR 32) and the submission counts (ADR 36). A test that writes results
 * compares the two after each write.
 */

/** The form summary's tallies as they are, without the rows that went back to zero. */
export async function summaryTallies(formId: string) {
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

/** The form summary's tallies as counting the rows gives them. */
export async function summaryRecount(formId: string) {
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

type Counts = Record<string, { submissions: number; completed: number }>;

/** The submission counts as the triggers keep them, leaving out rows that fell to zero. */
export async function submissionCounts(organizationIds: string[]): Promise<Counts> {
  const rows = await testDatabase().submissionCount.findMany({ where: { organizationId: { in: organizationIds } } });
  return Object.fromEntries(
    rows
      .filter((row) => row.submissions !== 0 || row.completed !== 0)
      .map((row) => [`${row.organizationId}/${row.assignedById}/${row.formId}`, { submissions: row.submissions, completed: row.completed }]),
  );
}

/** The same counts, counted. */
export async function submissionRecount(organizationIds: string[]): Promise<Counts> {
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
