import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/home";
import { Badge, ScoreBadge } from "~/components/badge.tsx";
import { CopyField } from "~/components/copy-field.tsx";
import { EmptyState } from "~/components/empty-state.tsx";
import { FlagMark } from "~/components/flag-mark.tsx";
import { ChartIcon, PlusIcon, SendIcon } from "~/components/icons.tsx";
import { PageHeader, Section, SectionLink } from "~/components/page-header.tsx";
import { loadDashboard } from "~/features/dashboard/dashboard.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT, useTotalText } from "~/i18n/hooks.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { pageActor } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.home.title) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  return loadDashboard(pageActor(context), { locale: resolveLocale(params.locale) });
}

type Dashboard = Route.ComponentProps["loaderData"];
type Staff = Extract<Dashboard, { kind: "staff" }>;

export default function Home({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="space-y-8">
      <PageHeader
        title={t.home.welcome(loaderData.name)}
        description={
          <>
            <span className="font-medium text-slate-800">{loaderData.organization}</span>
            <span aria-hidden="true"> · </span>
            {t.home.intro}
          </>
        }
      />
      {loaderData.kind === "staff" ? <StaffHome dashboard={loaderData} /> : <StudentHome assignments={loaderData.assignments} />}
    </div>
  );
}

function StaffHome({ dashboard }: { dashboard: Staff }) {
  const t = useT();
  const locale = useLocale();
  return (
    <>
      <NeedsAttention attention={dashboard.attention} />
      <Counts counts={dashboard.counts} />

      <section aria-labelledby="quick-actions-title">
        <h2 id="quick-actions-title" className="text-base font-semibold text-slate-900">
          {t.home.quickActions}
        </h2>
        <ul className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <QuickAction to={paths.newAssignment(locale)} icon={<SendIcon className="size-5" />} primary>
            {t.home.assign}
          </QuickAction>
          <QuickAction to={paths.newForm(locale)} icon={<PlusIcon className="size-5" />}>
            {t.home.newForm}
          </QuickAction>
          <QuickAction to={paths.newStudent(locale)} icon={<PlusIcon className="size-5" />}>
            {t.home.newStudent}
          </QuickAction>
          <QuickAction to={paths.reports(locale)} icon={<ChartIcon className="size-5" />}>
            {t.home.reports}
          </QuickAction>
        </ul>
      </section>

      <div className="grid gap-6 lg:grid-cols-5 lg:items-start">
        <PendingAssignments pending={dashboard.pending} className="lg:col-span-3" />
        <RecentResults recent={dashboard.recent} className="lg:col-span-2" />
      </div>
    </>
  );
}

function Counts({ counts }: { counts: Staff["counts"] }) {
  const t = useT();
  const format = useFormat();
  const items: [string, number][] = [
    [t.home.counts.pending, counts.pending],
    [t.home.counts.completedThisMonth, counts.completedThisMonth],
    [t.home.counts.students, counts.students],
    [t.home.counts.candidates, counts.candidates],
    [t.home.counts.forms, counts.forms],
  ];
  return (
    <section aria-labelledby="at-a-glance-title">
      <h2 id="at-a-glance-title" className="sr-only">
        {t.home.atAGlance}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {items.map(([label, value], index) => (
          <div
            key={label}
            className={`flex flex-col justify-between gap-1 rounded-xl border border-slate-200 bg-white px-4 py-4 shadow-sm ${index === 0 ? "col-span-2 sm:col-span-1" : ""}`}
          >
            <dt className="text-sm font-medium text-slate-600">{label}</dt>
            <dd className="text-3xl font-semibold tracking-tight text-slate-900 tabular-nums">{format.number(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function QuickAction({ to, icon, primary, children }: { to: string; icon: ReactNode; primary?: boolean; children: ReactNode }) {
  return (
    <li>
      <Link
        to={to}
        className={`flex h-full min-h-14 items-center gap-3 rounded-xl border px-3 py-3 text-sm font-medium shadow-sm transition-colors sm:px-4 sm:text-base ${
          primary
            ? "border-indigo-700 bg-indigo-700 text-white hover:bg-indigo-800"
            : "border-slate-200 bg-white text-slate-900 hover:border-indigo-300 hover:bg-indigo-50"
        }`}
      >
        <span className={`flex size-9 shrink-0 items-center justify-center rounded-lg ${primary ? "bg-white/15" : "bg-indigo-50 text-indigo-700"}`}>
          {icon}
        </span>
        {children}
      </Link>
    </li>
  );
}

function PendingAssignments({ pending, className }: { pending: Staff["pending"]; className?: string }) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  return (
    <Section
      id="pending"
      className={className}
      title={t.home.pendingTitle}
      description={t.home.pendingDescription}
      actions={<SectionLink to={paths.assignments(locale)}>{t.home.viewAllAssignments}</SectionLink>}
    >
      {pending.length === 0 ? (
        <EmptyState title={t.home.pendingEmpty} />
      ) : (
        <ul className="divide-y divide-slate-200">
          {pending.map((assignment) => (
            <li key={assignment.id} className="px-4 py-4 sm:px-5">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <p className="min-w-0 font-medium wrap-anywhere text-slate-900">{assignment.respondent.name}</p>
                <Badge>{t.respondent[assignment.respondent.kind]}</Badge>
              </div>
              <p className="mt-0.5 text-sm wrap-anywhere text-slate-700">{assignment.form.title}</p>
              <AssignedLine assignedAt={assignment.createdAt} expiresAt={assignment.expiresAt} />
              {assignment.url ? (
                <div className="mt-3">
                  <CopyField id={`link-${assignment.id}`} value={assignment.url} label={t.home.linkLabel(assignment.respondent.name, assignment.form.title)} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function RecentResults({ recent, className }: { recent: Staff["recent"]; className?: string }) {
  const t = useT();
  const locale = useLocale();
  return (
    <Section
      id="recent"
      className={className}
      title={t.home.recentTitle}
      description={t.home.recentDescription}
      actions={<SectionLink to={paths.reports(locale)}>{t.home.viewAllReports}</SectionLink>}
    >
      {recent.length === 0 ? <EmptyState title={t.home.recentEmpty} /> : <ResultLinks results={recent} />}
    </Section>
  );
}

/** Results as links to their reports: who, which form, when, the band, the flag's mark and the total as its form shows it. */
function ResultLinks({ results }: { results: Staff["recent"] }) {
  const t = useT();
  const format = useFormat();
  const totalOf = useTotalText();
  const locale = useLocale();
  return (
    <ul className="divide-y divide-slate-200">
      {results.map((result) => (
        <li key={result.id}>
          <Link to={paths.report(locale, result.id)} className="flex items-center justify-between gap-3 px-4 py-3 hover:bg-slate-50 sm:px-5">
            <div className="min-w-0">
              <p className="truncate font-medium text-slate-900">{result.studentName}</p>
              <p className="truncate text-sm text-slate-700">{result.formTitle}</p>
              <p className="text-sm text-slate-600">{t.home.completed(format.date(result.completedAt))}</p>
            </div>
            <div className="flex shrink-0 flex-col items-end gap-1">
              <ScoreBadge label={result.scoreLabel} color={result.scoreColor} />
              <FlagMark result={result} />
              <span className="text-sm text-slate-700 tabular-nums">{totalOf(result).headline}</span>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The flagged results nobody has acknowledged yet (docs/api-contract.md §16), before anything
 * else, each a link to its report (where it is acknowledged); absent when there are none.
 */
function NeedsAttention({ attention }: { attention: Staff["attention"] }) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  if (attention.results.length === 0) return null;
  const all = `${paths.reports(locale)}?${new URLSearchParams({ flagged: "unacknowledged" })}`;
  return (
    <Section
      id="needs-attention"
      title={t.flags.title}
      description={t.flags.homeDescription}
      actions={attention.total > attention.results.length ? <SectionLink to={all}>{t.flags.homeAll(format.number(attention.total))}</SectionLink> : null}
    >
      <ResultLinks results={attention.results} />
    </Section>
  );
}

/** A student's own tests: those to answer, opened from here, and those answered (with the result when the form shows it). */
function StudentHome({ assignments }: { assignments: Extract<Dashboard, { kind: "student" }>["assignments"] }) {
  const t = useT();
  const format = useFormat();
  const toAnswer = assignments.filter((assignment) => !assignment.completedAt);
  const answered = assignments.filter((assignment) => assignment.completedAt);
  return (
    <>
      <Section id="pending" title={t.home.studentPendingTitle} description={t.home.studentPendingDescription}>
        {toAnswer.length === 0 ? (
          <EmptyState title={t.home.studentPendingEmpty} />
        ) : (
          <ul className="divide-y divide-slate-200">
            {toAnswer.map((assignment) => (
              <li key={assignment.id} className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5">
                <div className="min-w-0">
                  <p className="font-medium wrap-anywhere text-slate-900">
                    {assignment.form.title}
                    {assignment.status === "IN_PROGRESS" ? (
                      <Badge tone="info" className="ml-2 align-middle">
                        {t.home.studentInProgress}
                      </Badge>
                    ) : null}
                  </p>
                  <AssignedLine assignedAt={assignment.assignedAt} expiresAt={assignment.expiresAt} />
                </div>
                {assignment.url ? (
                  <a
                    href={assignment.url}
                    className="inline-flex min-h-10 shrink-0 items-center justify-center rounded-md bg-indigo-700 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-800"
                  >
                    {assignment.status === "IN_PROGRESS" ? t.home.studentContinue : t.home.studentOpen}
                    <span className="sr-only">: {assignment.form.title}</span>
                  </a>
                ) : (
                  <span className="text-sm text-slate-600">{t.home.studentClosed}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
      {answered.length > 0 ? (
        <Section id="answered" title={t.home.studentAnsweredTitle}>
          <ul className="divide-y divide-slate-200">
            {answered.map((assignment) => (
              <li key={assignment.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-5">
                <div className="min-w-0">
                  <p className="font-medium wrap-anywhere text-slate-900">{assignment.form.title}</p>
                  <p className="mt-0.5 text-sm text-slate-600">{t.home.studentAnsweredOn(format.date(assignment.completedAt!))}</p>
                </div>
                {assignment.result ? (
                  <div className="flex items-center gap-3">
                    <ScoreBadge label={assignment.result.scoreLabel} color={assignment.result.scoreColor} />
                    <span className="text-sm text-slate-700 tabular-nums">
                      {t.home.studentScore(format.number(assignment.result.totalScore), format.number(assignment.result.maxScore))}
                    </span>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </>
  );
}

/** "Assigned 3 Mar 2026 · Expires 10 Mar 2026, 23:59" */
function AssignedLine({ assignedAt, expiresAt }: { assignedAt: string | Date; expiresAt: string | Date | null }) {
  const t = useT();
  const format = useFormat();
  return (
    <p className="mt-0.5 text-sm text-slate-600">
      {t.home.assigned(format.date(assignedAt))}
      {expiresAt ? (
        <>
          <span aria-hidden="true"> · </span>
          {t.home.expires(format.dateTime(expiresAt))}
        </>
      ) : null}
    </p>
  );
}
