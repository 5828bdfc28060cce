import type { Prisma } from "~/lib/db.server.ts";
import { type FormChangeConstants, formChangeConstants, type ResultChange, seriesChanges } from "./change.ts";
import { subscaleDefinitions, subscaleResults } from "./scale-schemas.ts";

/**
 * Reading what change over time needs (docs/api-contract.md §18, ADR 80): a form's constants from
 * its columns, and a person's completed results on a form as a series for `seriesChanges`.
 */

/** The form's columns its results are compared with. */
export const formChangeSelect = {
  reliableChangeSd: true,
  reliableChangeReliability: true,
  remissionBelow: true,
  lowerIsBetter: true,
  subscales: true,
} satisfies Prisma.FormSelect;

export type FormChangeColumns = Prisma.FormGetPayload<{ select: typeof formChangeSelect }>;

/** A form's constants for its total and its subscales, from its columns. */
export const constantsOf = (form: FormChangeColumns): FormChangeConstants => formChangeConstants(form, subscaleDefinitions.parse(form.subscales));

/** A completed result as a series reads it: who, which form, when, its total and its stored subscales. */
export type SeriesRow = {
  id: string;
  formId: string;
  /** The respondent: the student, or the candidate of a result that has no student. */
  person: string;
  completedAt: Date;
  totalScore: number | null;
  subscales: unknown;
};

/**
 * The figures of every result in `rows` (completed results, any order, of any people and forms),
 * each compared within its person's and form's series, oldest first. `rows` must hold each series
 * from its first result on, in full around every result whose figures are used.
 */
export function changesOfRows(rows: readonly SeriesRow[], constantsFor: (formId: string) => FormChangeConstants): Map<string, ResultChange> {
  const series = new Map<string, SeriesRow[]>();
  for (const row of rows) {
    const key = `${row.person}\u0000${row.formId}`;
    const list = series.get(key);
    if (list) list.push(row);
    else series.set(key, [row]);
  }
  const changes = new Map<string, ResultChange>();
  for (const list of series.values()) {
    list.sort((a, b) => a.completedAt.getTime() - b.completedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const figures = seriesChanges(
      list.map((row) => ({ score: row.totalScore, subscales: subscaleResults.parse(row.subscales ?? []) })),
      constantsFor(list[0]!.formId),
    );
    for (const [index, row] of list.entries()) changes.set(row.id, figures[index]!);
  }
  return changes;
}
