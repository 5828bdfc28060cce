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
] as const;

/** The columns that hold a date and time: written in the organization's time zone (docs/api-contract.md §23). */
export const EXPORT_TIME_COLUMNS: readonly number[] = [EXPORT_FIXED_COLUMNS.indexOf("assignedAt"), EXPORT_FIXED_COLUMNS.indexOf("completedAt")];
