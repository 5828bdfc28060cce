/** The columns every reports export starts with (docs/api-contract.md §13), before a chosen form's questions. */
export const EXPORT_FIXED_COLUMNS = [
  "submissionId",
  "respondent",
  "kind",
  "groups",
  "form",
  "assignedBy",
  "assignedAt",
  "completedAt",
  "totalScore",
  "maxScore",
  "percentage",
  "scoreLabel",
  // Change over time (docs/api-contract.md §18): the result against the respondent's previous and
  // first results on its form that the caller may see.
  "fromPrevious",
  "fromBaseline",
  "reliableChange",
  "response",
  "remission",
] as const;

/** The columns that hold a date and time: written in the organization's time zone (docs/api-contract.md §23). */
export const EXPORT_TIME_COLUMNS: readonly number[] = [EXPORT_FIXED_COLUMNS.indexOf("assignedAt"), EXPORT_FIXED_COLUMNS.indexOf("completedAt")];
