import { db, type Prisma } from "~/lib/db.server.ts";
import { enqueueJobs, type NewJob } from "../jobs/jobs.server.ts";
import { chargeMail, type MailSender } from "./mail-quota.server.ts";

/**
 * Queueing the e-mails about a link (ADR 45): which jobs a new link asks for, the claim that lets
 * one of several identical requests queue a message, and what still waits to go out. The quota is
 * charged in the same transaction (mail-quota.server.ts).
 */

/** A link is e-mailed at most once in this long, counted from when the message was queued (docs/api-contract.md §23). */
export const RESEND_INTERVAL_MS = 10 * 60_000;

/**
 * The e-mails a new link asks for: the link itself (`send`), and one reminder `remindAfterDays`
 * later. Queued by the caller, in its transaction, with the quota charged for them (`chargeMail`).
 */
export function deliveryJobs(
  submissionIds: string[],
  options: { send?: boolean | undefined; remindAfterDays?: number | undefined },
  now = new Date(),
): NewJob[] {
  const remindAt = options.remindAfterDays ? new Date(now.getTime() + options.remindAfterDays * 86_400_000) : null;
  return submissionIds.flatMap((submissionId) => [
    ...(options.send ? [{ kind: "sendLink" as const, payload: { submissionId }, submissionId }] : []),
    ...(remindAt ? [{ kind: "remind" as const, payload: { submissionId }, runAt: remindAt, submissionId }] : []),
  ]);
}

/**
 * The links of `submissionIds` with a message still waiting to go out (queued and due, or being
 * retried after the mail server refused it); a reminder scheduled for later does not count.
 */
export async function linksWithMailWaiting(submissionIds: string[], now: Date): Promise<Map<string, Date>> {
  if (submissionIds.length === 0) return new Map();
  const jobs = await db.job.findMany({
    where: {
      submissionId: { in: submissionIds },
      kind: { in: ["sendLink", "remind"] },
      doneAt: null,
      failedAt: null,
      OR: [{ runAt: { lte: now } }, { attempts: { gt: 0 } }],
    },
    select: { submissionId: true, runAt: true },
  });
  return new Map(jobs.map((job) => [job.submissionId!, job.runAt]));
}

/** Seconds until a link may be e-mailed again, given when its latest message was queued. */
export const secondsUntilResend = (queuedAt: Date, now: Date) => Math.max(1, Math.ceil((queuedAt.getTime() + RESEND_INTERVAL_MS - now.getTime()) / 1000));

/**
 * The conditional update that claims links for a message: it matches a link only when no message
 * about it was queued in the last 10 minutes. On PostgreSQL a second transaction claiming the same
 * row waits for the first and then finds its condition false (READ COMMITTED re-checks it); SQLite
 * has one writer. Answers the ids claimed.
 */
export async function claimLinksForMail(tx: Prisma.TransactionClient, submissionIds: string[], now: Date): Promise<string[]> {
  if (submissionIds.length === 0) return [];
  const claimed = await tx.submission.updateManyAndReturn({
    where: { id: { in: submissionIds }, OR: [{ mailQueuedAt: null }, { mailQueuedAt: { lte: new Date(now.getTime() - RESEND_INTERVAL_MS) } }] },
    // A new message: the failure of the one before is no longer what the link shows.
    data: { mailQueuedAt: now, mailFailedAt: null, mailError: null },
    select: { id: true },
  });
  return claimed.map((row) => row.id);
}

/**
 * Queues the e-mails a link just created asks for (`send`, `remindAfterDays`), in the transaction
 * that created it (with `mailQueuedAt` set when it is sent) and charged to the quota: a refusal
 * keeps nothing, the link included.
 */
export async function queueNewLinkMail(
  tx: Prisma.TransactionClient,
  sender: MailSender,
  submissionId: string,
  options: { send?: boolean | undefined; remindAfterDays?: number | undefined },
  now = new Date(),
) {
  const jobs = deliveryJobs([submissionId], options, now);
  if (jobs.length === 0) return;
  await chargeMail(tx, sender, jobs.length, now);
  await enqueueJobs(tx, jobs);
}
