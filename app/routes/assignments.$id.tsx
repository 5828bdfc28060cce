import type { Route } from "./+types/assignments.$id";
import { Badge, ScoreBadge } from "~/components/badge.tsx";
import { LinkButton } from "~/components/button.tsx";
import { CopyField } from "~/components/copy-field.tsx";
import { PlusIcon } from "~/components/icons.tsx";
import { PageHeader, SectionLink } from "~/components/page-header.tsx";
import { assignmentState } from "~/features/assignments/assignments.server.ts";
import { getSubmission, testLinkUrl } from "~/features/submissions/submissions.server.ts";
import { documentTitle, translations } from "~/i18n/dictionaries.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, staffPageActor } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params }) => {
  const locale = resolveLocale(params.locale);
  return [{ title: documentTitle(locale, translations(locale).assignments.createdTitle) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const submission = await forPage(getSubmission(actor, params.id));
  const state = assignmentState(submission, new Date());
  const respondent = submission.student
    ? { kind: "student" as const, ...submission.student }
    : { kind: "candidate" as const, id: submission.candidate?.id ?? "", name: submission.candidate?.name ?? "" };
  return {
    id: submission.id,
    state,
    form: submission.form,
    respondent,
    createdAt: submission.createdAt,
    expiresAt: submission.expiresAt,
    completedAt: submission.completedAt,
    scoreLabel: submission.scoreLabel,
    scoreColor: submission.scoreColor,
    percentage: submission.percentage,
    // The link in the page's language, for staff, while it still works.
    url: state === "pending" && submission.token ? testLinkUrl(submission.token, locale) : null,
  };
}

const STATE_TONE = { pending: "info", completed: "success", expired: "warning" } as const;

export default function Assignment({ loaderData: a }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader
        title={a.state === "pending" ? t.assignments.createdTitle : a.form.title}
        actions={
          <LinkButton to={paths.newAssignment(locale)} variant="secondary" icon={<PlusIcon className="size-4" />}>
            {t.assignments.assignAnother}
          </LinkButton>
        }
      />
      <section aria-labelledby="assignment-title" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="assignment-title" className="text-lg font-semibold wrap-anywhere text-slate-900">
            {a.respondent.name}
          </h2>
          <Badge>{t.respondent[a.respondent.kind]}</Badge>
          <Badge tone={STATE_TONE[a.state]}>{t.assignments.states[a.state]}</Badge>
        </div>
        <p className="mt-1 wrap-anywhere text-slate-700">{a.form.title}</p>
        <p className="mt-1 text-sm text-slate-600">
          {t.assignments.assigned(format.date(a.createdAt))}
          <span aria-hidden="true"> · </span>
          {a.expiresAt
            ? a.state === "expired"
              ? t.assignments.expired(format.dateTime(a.expiresAt))
              : t.assignments.expires(format.dateTime(a.expiresAt))
            : t.assignments.noExpiry}
        </p>
        {a.url ? (
          <div className="mt-5 space-y-2">
            <p className="text-sm text-slate-800">{t.assignments.createdIntro(a.respondent.name, a.form.title)}</p>
            <CopyField id="test-link" value={a.url} label={t.assignments.linkLabel(a.respondent.name)} />
            <p className="text-sm text-slate-600">{t.assignments.linkHint}</p>
          </div>
        ) : null}
        {a.state === "completed" ? (
          <div className="mt-5 flex flex-wrap items-center gap-3">
            <ScoreBadge label={a.scoreLabel} color={a.scoreColor} />
            {a.percentage !== null ? <span className="text-sm text-slate-700 tabular-nums">{format.percent(a.percentage)}</span> : null}
            <LinkButton to={paths.report(locale, a.id)} variant="primary">
              {t.assignments.viewReport}
            </LinkButton>
          </div>
        ) : null}
      </section>
      <p>
        <SectionLink to={paths.assignments(locale)}>{t.assignments.allAssignments}</SectionLink>
      </p>
    </div>
  );
}
