import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import { createFormat } from "~/i18n/format.ts";
import { mailRefusal, sendMail } from "~/lib/mail/mailer.server.ts";
import { reminderMail, testLinkMail } from "~/lib/mail/messages.server.ts";
import { ApiError, conflict, notFound, rateLimited } from "~/lib/problem.server.ts";
import { enqueueJobs, type JobHandler, type JobRun, PermanentJobFailure } from "../jobs/jobs.server.ts";
import { chargeMail } from "./mail-quota.server.ts";
import { claimLinksForMail, linksWithMailWaiting, RESEND_INTERVAL_MS, secondsUntilResend } from "./link-mail.server.ts";
import { assertMayChangeSubmission, visibleSubmissionsWhere } from "./submission-scope.server.ts";
import { isWaiting, submissionStatus, STATUS_SELECT } from "./submission-status.ts";
import { getSubmission, respondentLocale, testLinkUrl } from "./submissions.server.ts";

/**
 * Links sent by e-mail (docs/api-contract.md §10) through the durable job queue (ADR 20): a request only
 * queues the message; the worker writes it in the language of the teacher who assigned the link
 * (the respondent's own is not known), with the organization's name, the form's title and the
 * expiry in the organization's time zone, then records `sentAt` and `sendCount` (or `remindedAt`)
 * once the mail server has accepted it.
 *
 * Queueing claims the link (ADR 45): `mailQueuedAt` is set by a conditional update that matches
 * only when no message about the link was queued in the last 10 minutes, so of several identical
 * requests at once exactly one queues a message; and every message queued by a staff user counts
 * against the e-mail quotas (mail-quota.server.ts) in the same transaction.
 */
export type SendLinkPayload = { submissionId: string };
/** `now`: asked for by a teacher ("remind now"), sent even when a reminder went out before. */
export type RemindPayload = SendLinkPayload & { now?: boolean };

/**
 * E-mails one link, unless it stopped taking answers meanwhile (then there is nothing to send). A
 * scheduled reminder goes out once per link; one asked for now goes out whatever came before.
 * `sentAt` and `remindedAt` say what the mail server accepted: a message it refused leaves them
 * as they were, so a refused reminder neither shows as sent nor cancels the scheduled one. A
 * message refused for good (a 5xx reply) or still refused at its last try sets `mailFailedAt` and
 * `mailError` (the server's reply, or null when no server answered), which the teacher sees.
 */
async function mailLink(submissionId: string, kind: "link" | "reminder" | "reminderNow", run: JobRun) {
  const submission = await db.submission.findUnique({
    where: { id: submissionId },
    select: {
      token: true,
      ...STATUS_SELECT,
      remindedAt: true,
      deletedAt: true,
      form: { select: { title: true, instrument: true } },
      organization: { select: { name: true, timeZone: true, kind: true } },
      assignedBy: { select: { locale: true } },
      student: { select: { name: true, email: true, deletedAt: true } },
      candidate: { select: { name: true, email: true, deletedAt: true } },
    },
  });
  const respondent = submission?.student ?? submission?.candidate;
  if (!submission || submission.deletedAt || !respondent?.email || respondent.deletedAt) return;
  const status = submissionStatus(submission, new Date());
  if (!isWaiting(status)) return;
  if (kind === "reminder" && submission.remindedAt) return;
  // In the language the respondent's page opens in: the form's instrument's, or the assigner's.
  const locale = respondentLocale(submission.assignedBy.locale, submission.form.instrument);
  const expiry = submission.expiresAt ? createFormat(locale, submission.organization.timeZone).dateTime(submission.expiresAt) : null;
  const url = testLinkUrl(submission.token, locale, submission.form.instrument);
  const write = kind === "link" ? testLinkMail : reminderMail;
  try {
    await sendMail({
      to: respondent.email,
      ...write(locale, submission.organization.kind, respondent.name, submission.organization.name, submission.form.title, expiry, url),
    });
  } catch (error) {
    // Refused for good (5xx), or the last try: the link shows "e-mail failed" with the reason (ADR 46).
    const { permanent, reply } = mailRefusal(error);
    if (permanent || run.lastAttempt) {
      await db.submission.updateMany({ where: { id: submissionId }, data: { mailFailedAt: new Date(), mailError: reply } });
    }
    if (permanent) throw new PermanentJobFailure(`mail server refused the message: ${reply}`);
    throw error;
  }
  await db.submission.update({
    where: { id: submissionId },
    data:
      kind === "link"
        ? { sentAt: new Date(), sendCount: { increment: 1 }, mailFailedAt: null, mailError: null }
        : { remindedAt: new Date(), mailFailedAt: null, mailError: null },
    select: { id: true },
  });
}

/** The job of a link to e-mail. */
export const sendLinkJob: JobHandler = (payload, run) => mailLink((payload as SendLinkPayload).submissionId, "link", run);

/** The job of a reminder, due `remindAfterDays` after a bulk assignment or now ("remind now"): only to those still waiting. */
export const remindJob: JobHandler = (payload, run) => {
  const { submissionId, now } = payload as RemindPayload;
  return mailLink(submissionId, now ? "reminderNow" : "reminder", run);
};

/**
 * POST /api/submissions/:id/send: e-mails one waiting link again. Refused (429, Retry-After) while
 * a message about it waits to go out and for 10 minutes after the latest was queued; of identical
 * requests at once, one queues the message and the others are refused.
 */
export async function resendLink(actor: Actor, id: string, now = new Date()) {
  const submission = await db.submission.findFirst({
    where: { AND: [{ id }, visibleSubmissionsWhere(actor)] },
    select: {
      ...STATUS_SELECT,
      organizationId: true,
      mailQueuedAt: true,
      student: { select: { email: true } },
      candidate: { select: { email: true } },
    },
  });
  if (!submission) throw notFound("submission");
  // E-mailing the respondent is a change to the link: a group's VIEWER reads it and sends nothing.
  await assertMayChangeSubmission(actor, id);
  const status = submissionStatus(submission, now);
  if (status === "COMPLETED") throw conflict("This test has already been completed.", "ALREADY_COMPLETED");
  if (status === "REVOKED") throw new ApiError(410, "LINK_REVOKED", "This test link was withdrawn.");
  if (status === "EXPIRED") throw new ApiError(410, "LINK_EXPIRED", "This test link has expired; give it a later expiry first.");
  if (!(submission.student ?? submission.candidate)?.email) throw conflict("The respondent has no e-mail address.", "NO_EMAIL");
  if (submission.mailQueuedAt && now.getTime() - submission.mailQueuedAt.getTime() < RESEND_INTERVAL_MS) {
    throw rateLimited(secondsUntilResend(submission.mailQueuedAt, now));
  }
  // Still waiting for the mail server (it refused the message and it will be tried again), or
  // queued by an identical request since this one read the link: then the 10 minutes from that
  // queueing are what the client must wait, not the next try's time.
  const waiting = (await linksWithMailWaiting([id], now)).get(id);
  if (waiting) {
    const latest = await db.submission.findUnique({ where: { id }, select: { mailQueuedAt: true } });
    if (latest?.mailQueuedAt && now.getTime() - latest.mailQueuedAt.getTime() < RESEND_INTERVAL_MS) {
      throw rateLimited(secondsUntilResend(latest.mailQueuedAt, now));
    }
    throw rateLimited(Math.max(60, Math.ceil((waiting.getTime() - now.getTime()) / 1000)));
  }
  await db.$transaction(async (tx) => {
    const [claimed] = await claimLinksForMail(tx, [id], now);
    if (!claimed) {
      // Another request queued it a moment ago.
      const latest = await tx.submission.findUnique({ where: { id }, select: { mailQueuedAt: true } });
      throw rateLimited(latest?.mailQueuedAt ? secondsUntilResend(latest.mailQueuedAt, now) : Math.ceil(RESEND_INTERVAL_MS / 1000));
    }
    await chargeMail(tx, { organizationId: submission.organizationId, userId: actor.userId }, 1, now);
    await enqueueJobs(tx, [{ kind: "sendLink", payload: { submissionId: id }, submissionId: id }]);
  });
  return getSubmission(actor, id);
}
