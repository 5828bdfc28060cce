import { db } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { createFormat } from "~/i18n/format.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { mailRefusal, sendMail } from "~/lib/mail/mailer.server.ts";
import { flaggedResultMail } from "~/lib/mail/messages.server.ts";
import { paths } from "~/lib/paths.ts";
import { type JobHandler, type NewJob, PermanentJobFailure } from "../jobs/jobs.server.ts";

/**
 * The e-mails about a flagged result (docs/api-contract.md §16, ADR 71). The submit that flags a
 * result queues one `flagAlert` job per recipient in its own transaction, beside the
 * `submission.flagged` webhook event, so the e-mails exist exactly when the flagged result does
 * and each goes out once, whichever instance claims it (ADR 20, ADR 46). They have a lane of
 * their own (jobs.server.ts): a class's links being sent never holds them back. They are not
 * charged to the e-mail quotas (ADR 45): no staff user's action sends them, and a respondent's
 * submit is never refused for a teacher's quota.
 */
export type FlagAlertPayload = { submissionId: string; userId: string };

/** The link a flagged result came from, as the submit knows it. */
export type FlaggedLink = { id: string; organizationId: string; assignedById: string };

/**
 * Who is told that `link`'s result is flagged: the users' ids, each told once. Read before the
 * submit's transaction (as the webhook subscribers are), so that on SQLite the transaction holds
 * only its own statements.
 *
 * The person who assigned the link and, for a link given to a group (docs/api-contract.md §19,
 * ADR 86), every staff member of that group still live: a caseload's colleagues hear of it as its
 * assigner does (each recipient gets a job, written in their own language).
 */
export async function flagAlertRecipients(link: FlaggedLink): Promise<string[]> {
  const row = await db.submission.findUnique({
    where: { id: link.id },
    select: { group: { select: { deletedAt: true, staff: { select: { userId: true }, orderBy: { userId: "asc" } } } } },
  });
  const staff = row?.group && !row.group.deletedAt ? row.group.staff.map((member) => member.userId) : [];
  return [...new Set([link.assignedById, ...staff])];
}

/** The jobs that e-mail `recipients` about the flagged result of submission `submissionId`, for the submit's transaction. */
export function flagAlertJobs(submissionId: string, recipients: readonly string[]): NewJob[] {
  return recipients.map((userId) => ({ kind: "flagAlert", payload: { submissionId, userId } satisfies FlagAlertPayload, submissionId }));
}

/**
 * The job: e-mails one recipient, in their language, naming the form (as captured), the
 * respondent (by their name now) and the completion time in the organization's time zone, with
 * the report's address. Nothing to send when the result was deleted meanwhile, or the recipient
 * was deactivated or removed. A mail server's 5xx refusal ends the job; anything else is tried
 * again on the e-mails' schedule.
 */
export const flagAlertJob: JobHandler = async (payload) => {
  const { submissionId, userId } = payload as FlagAlertPayload;
  const [submission, user] = await Promise.all([
    db.submission.findUnique({
      where: { id: submissionId },
      select: {
        formTitle: true,
        flaggedAt: true,
        deletedAt: true,
        organization: { select: { timeZone: true, kind: true } },
        student: { select: { name: true } },
        candidate: { select: { name: true } },
      },
    }),
    db.user.findUnique({ where: { id: userId }, select: { email: true, name: true, locale: true, isActive: true, deletedAt: true } }),
  ]);
  const respondent = submission?.student ?? submission?.candidate;
  if (!submission?.flaggedAt || submission.deletedAt || !respondent || !user?.isActive || user.deletedAt) return;
  const locale = resolveLocale(user.locale);
  const completedAt = createFormat(locale, submission.organization.timeZone).dateTime(submission.flaggedAt);
  const url = `${env().APP_URL}${paths.report(locale, submissionId)}`;
  try {
    await sendMail({
      to: user.email,
      ...flaggedResultMail(locale, submission.organization.kind, user.name, respondent.name, submission.formTitle ?? "", completedAt, url),
    });
  } catch (error) {
    const { permanent, reply } = mailRefusal(error);
    if (permanent) throw new PermanentJobFailure(`mail server refused the message: ${reply}`);
    throw error;
  }
};
