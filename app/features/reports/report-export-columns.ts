/** The columns every reports export starts with (contract §13), before a chosen form's questions. */
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
