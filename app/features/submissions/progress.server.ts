import type { Actor } from "~/lib/auth/actor.server.ts";
import { isStaff } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { forbidden, notFound } from "~/lib/problem.server.ts";
import { enqueueJobs } from "../jobs/jobs.server.ts";
import { visibleFormsWhere } from "../forms/forms.server.ts";
import { assertNotGroupViewer, groupChoice } from "../groups/groups.server.ts";
import { claimLinksForMail, linksWithMailWaiting, RESEND_INTERVAL_MS } from "./link-mail.server.ts";
import { chargeMail } from "./mail-quota.server.ts";
import { changeableSubmissionsWhere, inGroupWhere, visibleSubmissionsWhere } from "./submission-scope.server.ts";
import { SUBMISSION_STATUSES, type SubmissionStatus, submissionStatus, WAITING_STATUSES, STATUS_SELECT } from "./submission-status.ts";
import { statusWhere, waitingWhere } from "./submissions.server.ts";

/**
 * Progress at a glance: per form, how many links were assigned, sent, opened, are in
 * progress, completed, expired and withdrawn; who is still waiting; and "remind now" for them.
 * Counted by the database (one grouped count per status, each the mirror of `submissionStatus`),
 * over what the caller may see, optionally only a group's members.
 */

/** Whose links: a group's members only, and/or one form only. */
export type ProgressScope = { groupId?: string | undefined; formId?: string | undefined };

export type FormProgress = {
  form: { id: string; title: string };
  assigned: number;
  sent: number;
  waiting: number;
  counts: Record<SubmissionStatus, number>;
  lastAssignedAt: Date;
};

async function scopeWhere(actor: Actor, scope: ProgressScope): Promise<Prisma.SubmissionWhereInput[]> {
  if (!isStaff(actor)) throw forbidden();
  const filters: Prisma.SubmissionWhereInput[] = [visibleSubmissionsWhere(actor)];
  if (scope.groupId) {
    // Another organization's group, or none: 404, as everywhere.
    if (!(await groupChoice(actor, scope.groupId))) throw notFound("group");
    filters.push(inGroupWhere(scope.groupId));
  }
  if (scope.formId) filters.push({ formId: scope.formId });
  return filters;
}

/**
 * The forms of the caller's recent work, newest assignment first: with a group or a form, every
 * form in it; with neither, the forms that still have links waiting.
 */
export async function formProgress(actor: Actor, scope: ProgressScope, options: { limit?: number; now?: Date } = {}): Promise<FormProgress[]> {
  const now = options.now ?? new Date();
  const filters = await scopeWhere(actor, scope);
  const recent = await db.submission.groupBy({
    by: ["formId"],
    where: { AND: scope.groupId || scope.formId ? filters : [...filters, waitingWhere(now)] },
    _max: { createdAt: true },
    orderBy: { _max: { createdAt: "desc" } },
    take: options.limit ?? 10,
  });
  if (recent.length === 0) return [];
  const formIds = recent.map((row) => row.formId);
  const ofForms = [...filters, { formId: { in: formIds } }];
  const countBy = async (where: Prisma.SubmissionWhereInput) => {
    const rows = await db.submission.groupBy({ by: ["formId"], where: { AND: [...ofForms, where] }, _count: { _all: true } });
    return new Map(rows.map((row) => [row.formId, row._count._all]));
  };
  const [forms, assigned, sent, ...byStatus] = await Promise.all([
    db.form.findMany({ where: { id: { in: formIds } }, select: { id: true, title: true } }),
    countBy({}),
    countBy({ sentAt: { not: null } }),
    ...SUBMISSION_STATUSES.map((status) => countBy(statusWhere(status, now))),
  ]);
  const titles = new Map(forms.map((form) => [form.id, form.title]));
  return recent.map(({ formId, _max }) => {
    const counts = Object.fromEntries(SUBMISSION_STATUSES.map((status, index) => [status, byStatus[index]!.get(formId) ?? 0])) as Record<
      SubmissionStatus,
      number
    >;
    return {
      form: { id: formId, title: titles.get(formId) ?? "" },
      assigned: assigned.get(formId) ?? 0,
      sent: sent.get(formId) ?? 0,
      waiting: WAITING_STATUSES.reduce((sum, status) => sum + counts[status], 0),
      counts,
      lastAssignedAt: _max.createdAt ?? now,
    };
  });
}

/** At most this many waiting respondents are listed per form; the assignments list has them all. */
export const WAITING_LISTED = 100;

/** Who still has to answer a form (in the scope), by name, with what was sent to them. */
export async function waitingRespondents(actor: Actor, scope: ProgressScope & { formId: string }, now = new Date()) {
  const filters = await scopeWhere(actor, scope);
  const rows = await db.submission.findMany({
    where: { AND: [...filters, waitingWhere(now)] },
    select: {
      id: true,
      ...STATUS_SELECT,
      sentAt: true,
      remindedAt: true,
      mailFailedAt: true,
      mailError: true,
      student: { select: { name: true, email: true } },
      candidate: { select: { name: true, email: true } },
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: WAITING_LISTED,
  });
  return rows.map(({ student, candidate, ...row }) => {
    const person = student ?? candidate;
    return {
      id: row.id,
      name: person?.name ?? "",
      hasEmail: Boolean(person?.email),
      status: submissionStatus(row, now),
      sentAt: row.sentAt,
      remindedAt: row.remindedAt,
      mailFailedAt: row.mailFailedAt,
      mailError: row.mailError,
    };
  });
}

export type RemindResult = { queued: number; noEmail: number; recentlySent: number };

/**
 * "Remind now": one reminder e-mail, through the job queue, to each respondent of the form (in the
 * scope) still waiting who has an address, except those whose link had a message queued in the
 * last 10 minutes or still waiting to go out (as `POST /api/submissions/:id/send`). Each link is
 * claimed by a conditional update (ADR 45), so a double click, or ten at once, sends one reminder;
 * the reminders count against the e-mail quotas in the same transaction (429 MAIL_QUOTA: none is
 * queued). `remindedAt` is written when the mail server accepts the reminder, not here.
 */
export async function remindWaiting(actor: Actor, input: ProgressScope & { formId: string }, now = new Date()): Promise<RemindResult> {
  if (input.groupId) await assertNotGroupViewer(actor, input.groupId);
  // Reminds the links the caller may change: a group's viewer reads the others but sends nothing.
  const filters = [...(await scopeWhere(actor, input)), changeableSubmissionsWhere(actor)];
  const form = await db.form.findFirst({ where: { AND: [{ id: input.formId }, visibleFormsWhere(actor)] }, select: { id: true, organizationId: true } });
  if (!form) throw notFound("form");
  const rows = await db.submission.findMany({
    where: { AND: [...filters, waitingWhere(now)] },
    select: { id: true, mailQueuedAt: true, student: { select: { email: true } }, candidate: { select: { email: true } } },
  });
  const result: RemindResult = { queued: 0, noEmail: 0, recentlySent: 0 };
  const reachable: string[] = [];
  for (const row of rows) {
    if (!(row.student ?? row.candidate)?.email) result.noEmail++;
    else if (row.mailQueuedAt !== null && now.getTime() - row.mailQueuedAt.getTime() < RESEND_INTERVAL_MS) result.recentlySent++;
    else reachable.push(row.id);
  }
  const waitingMail = await linksWithMailWaiting(reachable, now);
  const due = reachable.filter((id) => !waitingMail.has(id));
  result.recentlySent += reachable.length - due.length;
  if (due.length > 0) {
    const claimed = await db.$transaction(async (tx) => {
      const ids = await claimLinksForMail(tx, due, now);
      await chargeMail(tx, { organizationId: form.organizationId, userId: actor.userId }, ids.length, now);
      await enqueueJobs(
        tx,
        ids.map((submissionId) => ({ kind: "remind" as const, payload: { submissionId, now: true }, submissionId })),
      );
      return ids.length;
    });
    // Those another request claimed a moment ago were just e-mailed too.
    result.queued = claimed;
    result.recentlySent += due.length - claimed;
  }
  return result;
}

/** A page's "progress at a glance": the forms' counts, and for a group who is still to answer. */
export async function progressForPage(actor: Actor, scope: ProgressScope, now = new Date()) {
  const items = await formProgress(actor, scope, { limit: scope.groupId ? 12 : 6, now });
  if (!scope.groupId) return items;
  return Promise.all(
    items.map(async (item) => ({
      ...item,
      waitingPeople: item.waiting > 0 ? await waitingRespondents(actor, { ...scope, formId: item.form.id }, now) : [],
    })),
  );
}
