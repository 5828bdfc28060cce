import type { z } from "zod";
import type { Dictionary } from "~/i18n/dictionaries.ts";
import { ApiError, fieldTexts } from "./problem.server.ts";

/** A list page's messages by its `from`/`to` date filters, in the page's language. */
export type DateFilterErrors = { from?: string; to?: string };

/** The messages for a query whose dates did not parse; null when something else was wrong with it. */
export function dateParseErrors(t: Dictionary, error: z.ZodError): DateFilterErrors | null {
  const errors: DateFilterErrors = {};
  for (const issue of error.issues) {
    if (issue.path[0] === "from") errors.from = t.fieldProblems.date;
    if (issue.path[0] === "to") errors.to = t.fieldProblems.date;
  }
  return errors.from || errors.to ? errors : null;
}

/** The messages for the service's 400 about the dates (a start after the end); anything else is thrown on. */
export function dateRangeErrors(t: Dictionary, error: unknown): DateFilterErrors {
  if (!(error instanceof ApiError) || error.status !== 400) throw error;
  const { from, to } = fieldTexts(t, error.errors);
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
