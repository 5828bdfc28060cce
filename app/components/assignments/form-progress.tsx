import { Form, Link } from "react-router";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { paths } from "~/lib/paths.ts";
import { Alert } from "../alert.tsx";
import { Button } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { SendIcon } from "../icons.tsx";

/** The statuses a link goes through, in the order a teacher reads them. */
const SHOWN_STATUSES = ["PENDING", "OPENED", "IN_PROGRESS", "COMPLETED", "EXPIRED", "REVOKED"] as const;

type Status = (typeof SHOWN_STATUSES)[number];

export type FormProgressItem = {
  form: { id: string; title: string };
  assigned: number;
  sent: number;
  waiting: number;
  counts: Record<Status, number>;
  /** Who is still to answer (the group page lists them; the assignments page links to its list). */
  waitingPeople?: {
    id: string;
    name: string;
    hasEmail: boolean;
    sentAt: string | Date | null;
    remindedAt: string | Date | null;
    /** The latest e-mail failed for good, and the mail server's reply (null: no server answered). */
    mailFailedAt?: string | Date | null;
    mailError?: string | null;
  }[];
};

/** `mailQuotaMinutes`: refused by an e-mail quota (nothing queued), and when to try again. */
export type RemindOutcome = { formId: string; queued: number; noEmail: number; recentlySent: number; mailQuotaMinutes?: string };

/**
 * Progress at a glance: one card per form with its counts by status, who is still to answer, and
 * "remind now" (a plain POST with `intent=remind`, so it works without JavaScript).
 */
export function FormProgressList({ items, groupId, reminded }: { items: FormProgressItem[]; groupId?: string; reminded?: RemindOutcome | undefined }) {
  return (
    <ul className="grid gap-4 p-4 sm:p-5 lg:grid-cols-2">
      {items.map((item) => (
        <li key={item.form.id}>
          <FormProgressCard item={item} groupId={groupId} reminded={reminded?.formId === item.form.id ? reminded : undefined} />
        </li>
      ))}
    </ul>
  );
}

function FormProgressCard({ item, groupId, reminded }: { item: FormProgressItem; groupId?: string | undefined; reminded: RemindOutcome | undefined }) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const completed = item.counts.COMPLETED;
  const waitingList = `${paths.assignments(locale)}?formId=${encodeURIComponent(item.form.id)}&state=pending`;
  const headingId = `progress-${item.form.id}`;
  return (
    <section aria-labelledby={headingId} className="h-full space-y-4 rounded-lg border border-slate-200 p-4">
      <div className="space-y-2">
        <h3 id={headingId} className="font-semibold wrap-anywhere text-slate-900">
          <Link to={`${paths.assignments(locale)}?formId=${encodeURIComponent(item.form.id)}`} className="hover:underline">
            {item.form.title}
          </Link>
        </h3>
        <p className="text-sm text-slate-600">{t.progress.completedOf(format.number(completed), format.number(item.assigned))}</p>
        {/* A native <progress>: no inline style, which the Content-Security-Policy refuses. */}
        <progress
          aria-labelledby={headingId}
          aria-valuetext={t.progress.completedOf(format.number(completed), format.number(item.assigned))}
          value={completed}
          max={Math.max(item.assigned, 1)}
          className="block h-2 w-full appearance-none overflow-hidden rounded-full bg-slate-100 [&::-moz-progress-bar]:bg-emerald-600 [&::-webkit-progress-bar]:bg-slate-100 [&::-webkit-progress-value]:bg-emerald-600"
        />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <Count label={t.progress.assigned} value={format.number(item.assigned)} />
        <Count label={t.progress.sent} value={format.number(item.sent)} />
        {SHOWN_STATUSES.map((status) => (
          <Count key={status} label={t.progress.statuses[status]} value={format.number(item.counts[status])} />
        ))}
      </dl>
      {reminded ? <RemindAlert outcome={reminded} /> : null}
      {item.waiting > 0 ? (
        <div className="space-y-3 border-t border-slate-200 pt-3">
          {item.waitingPeople ? (
            <details>
              <summary className="cursor-pointer text-sm font-medium text-indigo-700">
                {t.progress.waitingTitle(item.waiting, format.number(item.waiting))}
              </summary>
              <ul className="mt-2 divide-y divide-slate-100 text-sm">
                {item.waitingPeople.map((person) => (
                  <li key={person.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5">
                    <Link to={paths.assignment(locale, person.id)} className="font-medium text-slate-900 hover:underline">
                      {person.name}
                    </Link>
                    <span className="text-slate-600">
                      {!person.hasEmail
                        ? t.progress.noEmail
                        : person.mailFailedAt
                          ? t.progress.mailFailed(person.mailError ?? t.progress.mailUnreachable)
                          : person.remindedAt
                            ? t.progress.remindedOn(format.dateTime(person.remindedAt))
                            : person.sentAt
                              ? t.progress.sentOn(format.dateTime(person.sentAt))
                              : t.progress.notSent}
                    </span>
                  </li>
                ))}
              </ul>
              {item.waiting > item.waitingPeople.length ? (
                <p className="mt-1 text-sm">
                  <Link to={waitingList} className="text-indigo-700 hover:underline">
                    {t.progress.moreWaiting(format.number(item.waiting - item.waitingPeople.length))}
                  </Link>
                </p>
              ) : null}
            </details>
          ) : (
            <p className="text-sm">
              <Link to={waitingList} className="font-medium text-indigo-700 hover:underline">
                {`${t.progress.seeWaiting} (${format.number(item.waiting)})`}
              </Link>
            </p>
          )}
          <Form method="post" className="flex flex-wrap items-center gap-3">
            <CsrfInput />
            <input type="hidden" name="formId" value={item.form.id} />
            {groupId ? <input type="hidden" name="groupId" value={groupId} /> : null}
            <Button type="submit" name="intent" value="remind" variant="secondary" size="sm" icon={<SendIcon className="size-4" />}>
              {t.progress.remindNow}
            </Button>
            <span className="text-xs text-slate-600">{t.progress.remindHint}</span>
          </Form>
        </div>
      ) : null}
    </section>
  );
}

function Count({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between gap-2 sm:block">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-semibold text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}

function RemindAlert({ outcome }: { outcome: RemindOutcome }) {
  const t = useT();
  const format = useFormat();
  if (outcome.mailQuotaMinutes) {
    return <Alert tone="error" title={t.problems.MAIL_QUOTA(outcome.mailQuotaMinutes)} />;
  }
  return (
    <Alert tone={outcome.queued > 0 ? "success" : "info"} title={t.progress.remindedTitle}>
      <p>{t.progress.remindQueued(outcome.queued, format.number(outcome.queued))}</p>
      {outcome.noEmail > 0 ? <p>{t.progress.remindNoEmail(outcome.noEmail, format.number(outcome.noEmail))}</p> : null}
      {outcome.recentlySent > 0 ? <p>{t.progress.remindRecent(outcome.recentlySent, format.number(outcome.recentlySent))}</p> : null}
    </Alert>
  );
}
