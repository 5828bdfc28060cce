import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import { createFormat } from "~/i18n/format.ts";
import { sendMail } from "~/lib/mail/mailer.server.ts";
import { reminderMail, testLinkMail } from "~/lib/mail/messages.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { ApiError, conflict, notFound, rateLimited } from "~/lib/problem.server.ts";
import { enqueueJobs, type JobHandler } from "../jobs/jobs.server.ts";
import { visibleSubmissionsWhere } from "./submission-scope.server.ts";
import { isWaiting, submissionStatus, STATUS_SELECT } from "./submission-status.ts";
import { getSubmission, testLinkUrl } from "./submissions.server.ts";

/**
 * Links sent by e-mail (contract §10) through the durable job queue (ADR 20): a request only
 * queues the message; the worker writes it in the language of the teacher who assigned the link
 * (the respondent's own is not known), with the organization's name, the form's title and the
 * expiry in the organization's time zone, then records `sentAt` and `sendCount`.
 */
export const RESEND_INTERVAL_MS = 10 * 60_000;

export type SendLinkPayload = { submissionId: string };
/** `now`: asked for by a teacher ("remind now"), sent even when a reminder went out before. */
export type RemindPayload = SendLinkPayload & { now?: boolean };

/**
 * E-mails one link, unless it stopped taking answers meanwhile (then there is nothing to send). A
 * scheduled reminder goes out once per link; one asked for now goes out whatever came before.
 */
async function mailLink(submissionId: string, kind: "link" | "reminder" | "reminderNow") {
  const submission = await db.submission.findUnique({
    where: { id: submissionId },
    select: {
      token: true,
      ...STATUS_SELECT,
      remindedAt: true,
      deletedAt: true,
      form: { select: { title: true } },
      organization: { select: { name: true, timeZone: true } },
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
  const locale = resolveLocale(submission.assignedBy.locale);
  const expiry = submission.expiresAt ? createFormat(locale, submission.organization.timeZone).dateTime(submission.expiresAt) : null;
  const url = testLinkUrl(submission.token, locale);
  const write = kind === "link" ? testLinkMail : reminderMail;
  await sendMail({ to: respondent.email, ...write(locale, respondent.name, submission.organization.name, submission.form.title, expiry, url) });
  await db.submission.update({
    where: { id: submissionId },
    data: kind === "link" ? { sentAt: new Date(), sendCount: { increment: 1 } } : { remindedAt: new Date() },
    select: { id: true },
  });
}

/** The job of a link to e-mail. */
export const sendLinkJob: JobHandler = (payload) => mailLink((payload as SendLinkPayload).submissionId, "link");

/** The job of a reminder, due `remindAfterDays` after a bulk assignment or now ("remind now"): only to those still waiting. */
export const remindJob: JobHandler = (payload) => {
  const { submissionId, now } = payload as RemindPayload;
  return mailLink(submissionId, now ? "reminderNow" : "reminder");
};

/**
 * The e-mails a new link asks for: the link itself (`send`), and one reminder `remindAfterDays`
 * later. Queued by the caller, in its transaction.
 */
export function deliveryJobs(submissionIds: string[], options: { send?: boolean | undefined; remindAfterDays?: number | undefined }) {
  const remindAt = options.remindAfterDays ? new Date(Date.now() + options.remindAfterDays * 86_400_000) : null;
  return submissionIds.flatMap((submissionId) => [
    ...(options.send ? [{ kind: "sendLink" as const, payload: { submissionId } }] : []),
    ...(remindAt ? [{ kind: "remind" as const, payload: { submissionId }, runAt: remindAt }] : []),
  ]);
}

/** POST /api/submissions/:id/send: e-mails one waiting link again (at most once every 10 minutes). */
export async function resendLink(actor: Actor, id: string) {
  const submission = await db.submission.findFirst({
    where: { AND: [{ id }, visibleSubmissionsWhere(actor)] },
    select: {
      ...STATUS_SELECT,
      sentAt: true,
      student: { select: { email: true } },
      candidate: { select: { email: true } },
    },
  });
  if (!submission) throw notFound("submission");
  const status = submissionStatus(submission, new Date());
  if (status === "COMPLETED") throw conflict("This test has already been completed.", "ALREADY_COMPLETED");
  if (status === "REVOKED") throw new ApiError(410, "LINK_REVOKED", "This test link was withdrawn.");
  if (status === "EXPIRED") throw new ApiError(410, "LINK_EXPIRED", "This test link has expired; give it a later expiry first.");
  if (!(submission.student ?? submission.candidate)?.email) throw conflict("The respondent has no e-mail address.", "NO_EMAIL");
  const since = submission.sentAt ? Date.now() - submission.sentAt.getTime() : Number.POSITIVE_INFINITY;
  if (since < RESEND_INTERVAL_MS) throw rateLimited(Math.ceil((RESEND_INTERVAL_MS - since) / 1000));
  await enqueueJobs(db, [{ kind: "sendLink", payload: { submissionId: id } }]);
  return getSubmission(actor, id);
}
