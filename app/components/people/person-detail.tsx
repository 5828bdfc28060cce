import { type ReactNode, useId, useRef } from "react";
import { Form, Link } from "react-router";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { paths } from "~/lib/paths.ts";
import { Alert } from "../alert.tsx";
import { Button, LinkButton } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { useConfirmationFocus } from "../focus.ts";
import { ChevronLeftIcon } from "../icons.tsx";
import { PageHeader, Section } from "../page-header.tsx";
import { History, type HistoryByForm } from "./history.tsx";
import { StatusBadge, type PersonKind } from "./status-badge.tsx";

export type PersonProfile = {
  id: string;
  name: string;
  email: string | null;
  externalId: string | null;
  dateOfBirth: string | null;
  phone: string | null;
  age: number | null;
  grade: string | null;
  gender: string | null;
  status: string;
  createdAt: Date | string;
};

/** "Back to the list" above a person's pages. */
export function BackLink({ to }: { to: string }) {
  const t = useT();
  return (
    <Link
      to={to}
      className="inline-flex min-h-6 items-center gap-1 rounded text-sm font-medium text-indigo-700 hover:text-indigo-900 hover:underline print:hidden"
    >
      <ChevronLeftIcon className="size-4" />
      {t.people.back}
    </Link>
  );
}

/**
 * A student's or candidate's page: profile, admin actions, and the history of results. Delete and
 * promote ask first: the button is a link to `?confirm=…`, which shows the real POST form (no
 * JavaScript needed, and a reload never repeats it).
 */
export function PersonDetail({
  kind,
  person,
  history,
  actions,
  confirmation,
  notice,
  groups,
  dataProtection,
}: {
  kind: PersonKind;
  person: PersonProfile;
  history: HistoryByForm;
  actions: ReactNode;
  confirmation?: ReactNode;
  notice?: ReactNode;
  /** The groups block, under the profile. */
  groups?: ReactNode;
  /** The data protection block (administrators), under the groups. */
  dataProtection?: ReactNode;
}) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const rows: [string, string | null][] = [
    [t.people.email, person.email],
    [t.people.externalId, person.externalId],
    [t.people.dateOfBirth, person.dateOfBirth === null ? null : format.day(person.dateOfBirth)],
    [t.people.phone, person.phone],
    [t.people.age, person.age === null ? null : format.number(person.age)],
    [t.people.grade, person.grade],
    [t.people.gender, person.gender],
  ];
  return (
    <div className="space-y-6">
      <BackLink to={kind === "students" ? paths.students(locale) : paths.candidates(locale)} />
      <PageHeader
        title={person.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <StatusBadge kind={kind} status={person.status} />
            <span>{t.people.added(format.date(person.createdAt))}</span>
          </span>
        }
        actions={actions}
      />
      {confirmation}
      {notice}
      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <div className="space-y-6 lg:col-span-1">
          <Section id="profile" title={t.people.profile}>
            <dl className="divide-y divide-slate-200">
              {rows.map(([label, value]) => (
                <div key={label} className="grid grid-cols-3 gap-3 px-4 py-3 text-sm sm:px-5">
                  <dt className="font-medium text-slate-700">{label}</dt>
                  <dd className="col-span-2 wrap-anywhere text-slate-900">{value ?? t.people.notGiven}</dd>
                </div>
              ))}
            </dl>
          </Section>
          {groups}
          {dataProtection}
        </div>
        <div className="min-w-0 lg:col-span-2">
          <History {...history} personName={person.name} />
        </div>
      </div>
    </div>
  );
}

/**
 * The "are you sure?" step: a warning with the POST form that does it, and a way back. It takes
 * the focus when it appears (with JavaScript; without, `autofocus`); Escape cancels, and cancelling
 * gives the focus back to the button that opened it (`returnTo`, its id).
 */
export function Confirmation({
  title,
  text,
  intent,
  confirmLabel,
  pendingText,
  cancelTo,
  returnTo,
  tone = "danger",
}: {
  title: string;
  text: string;
  intent: string;
  confirmLabel: string;
  pendingText: string;
  cancelTo: string;
  returnTo: string;
  tone?: "danger" | "primary";
}) {
  const t = useT();
  const ref = useRef<HTMLElement>(null);
  const titleId = useId();
  useConfirmationFocus(ref, { cancelTo, returnTo });
  return (
    // biome-ignore lint/a11y/noAutofocus: the step the person asked for is where the page should start
    <section ref={ref} tabIndex={-1} aria-labelledby={titleId} autoFocus className="rounded-lg outline-none focus:ring-2 focus:ring-amber-600">
      <Alert tone="warning" title={<span id={titleId}>{title}</span>}>
        <p>{text}</p>
        <Form method="post" className="mt-3 flex flex-wrap gap-2">
          <CsrfInput />
          <Button type="submit" name="intent" value={intent} variant={tone} pendingText={pendingText}>
            {confirmLabel}
          </Button>
          <LinkButton to={cancelTo} variant="secondary" replace preventScrollReset>
            {t.people.cancel}
          </LinkButton>
        </Form>
      </Alert>
    </section>
  );
}
