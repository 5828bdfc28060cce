import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formContentSelect } from "~/features/forms/forms.server.ts";

/**
 * The bench's baseline reads a form's content with its own SQL and must store the same snapshot
 * the app does: the bench compares the two as text and stops when they differ. A column added to
 * the app's content select and not to the baseline's statements would first show in CI's bench
 * smoke run, after the whole test suite; this says so at once. Plain file reads.
 */

const baseline = readFileSync(join(import.meta.dirname, "../../scripts/bench/baseline.ts"), "utf8");

/** The quoted columns of the baseline's SELECT that reads from `table`. */
function selectedColumns(table: string): string[] {
  const statement = baseline.split("`").find((text) => text.startsWith("SELECT") && new RegExp(`FROM "${table}"`).test(text));
  if (!statement) throw new Error(`the baseline has no SELECT from "${table}"`);
  const columns = statement.slice(0, statement.indexOf(" FROM "));
  return [...columns.matchAll(/"(\w+)"/g)].map((match) => match[1]!);
}

describe("the bench baseline's form content", () => {
  const { options, ...questionFields } = formContentSelect.questions.select;

  it("reads every column of a question the app's snapshot holds", () => {
    expect(selectedColumns("Question")).toEqual(expect.arrayContaining(Object.keys(questionFields)));
  });

  it("reads every column of an option the app's snapshot holds", () => {
    expect(selectedColumns("Option")).toEqual(expect.arrayContaining(Object.keys(options.select)));
  });

  it("reads every column of a band the app's snapshot holds", () => {
    expect(selectedColumns("ScoreRange")).toEqual(expect.arrayContaining(Object.keys(formContentSelect.scoreRanges.select)));
  });
});
