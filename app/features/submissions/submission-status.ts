/**
 * The life of a link (docs/api-contract.md §10): PENDING until opened, OPENED once the respondent has seen it,
 * IN_PROGRESS while answers are saved but not sent (drafts, docs/api-contract.md §12), COMPLETED, EXPIRED
 * after its expiry, REVOKED when the assigner stopped it. Expiry is a matter of time, so the
 * status is derived when read, never stored.
 */
export const SUBMISSION_STATUSES = ["PENDING", "OPENED", "IN_PROGRESS", "COMPLETED", "EXPIRED", "REVOKED"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** The statuses of a link that still waits for its respondent's answers. */
export const WAITING_STATUSES = ["PENDING", "OPENED", "IN_PROGRESS"] as const satisfies readonly SubmissionStatus[];
export const isWaiting = (status: SubmissionStatus) => (WAITING_STATUSES as readonly SubmissionStatus[]).includes(status);

export type StatusFields = {
  isCompleted: boolean;
  revokedAt: Date | string | null;
  expiresAt: Date | string | null;
  openedAt: Date | string | null;
  startedAt: Date | string | null;
};

/** The columns `submissionStatus` reads, for a query's `select`. */
export const STATUS_SELECT = { isCompleted: true, revokedAt: true, expiresAt: true, openedAt: true, startedAt: true } as const;

export function submissionStatus(row: StatusFields, now: Date): SubmissionStatus {
  if (row.isCompleted) return "COMPLETED";
  if (row.revokedAt) return "REVOKED";
  if (row.expiresAt && new Date(row.expiresAt).getTime() <= now.getTime()) return "EXPIRED";
  if (row.startedAt) return "IN_PROGRESS";
  return row.openedAt ? "OPENED" : "PENDING";
}
