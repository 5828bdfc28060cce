import type { Route } from "./+types/assignments.$id";
import { Badge, ScoreBadge } from "~/components/badge.tsx";
import { CopyField } from "~/components/copy-field.tsx";
import { PlusIcon } from "~/components/icons.tsx";
import { PageHeader, SectionLink } from "~/components/page-header.tsx";
import { assignmentState } from "~/features/assignments/assignments.server.ts";
import { getSubmission, revokeSubmission, updateSubmission } from "~/features/submissions/submissions.server.ts";
import { resendLink } from "~/features/submissions/delivery.server.ts";
import { expiryPageForm } from "~/features/assignments/assign-page-form.server.ts";
import { useForm } from "@conform-to/react/future";
import { coerceFormValue } from "@conform-to/zod/v4/future";
import { Form, data, redirect } from "react-router";
import { Button, LinkButton } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { DangerDetails } from "~/components/danger-details.tsx";
import { Field } from "~/components/field.tsx";
import { type PageResult, pageFormOptions } from "~/components/page-form.ts";
import { clientValidation, pageResult } from "~/lib/client-validation.server.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { formSubmission } from "~/lib/http.server.ts";
import { ApiError, fieldTexts, issueTexts } from "~/lib/problem.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT, useTotalText } from "~/i18n/hooks.ts";
import { capturedDisplays } from "~/features/scoring/score-display.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, readPagePost, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { dayIn } from "~/lib/zoned-time.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.assignments.createdTitle) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const submission = await forPage(getSubmission(actor, params.id, { locale }));
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
    totalScore: submission.totalScore,
    maxScore: submission.maxScore,
    percentage: submission.percentage,
    // How the result shows its total (ADR 79).
    display: state === "completed" ? ((await capturedDisplays([submission.id])).get(submission.id) ?? "PERCENT") : "PERCENT",
    openedAt: submission.openedAt,
    revokedAt: submission.revokedAt,
    // The latest e-mail about the link failed for good (ADR 46): when, and the mail server's reply.
    mailFailed: submission.mailFailedAt ? { at: submission.mailFailedAt, reason: submission.mailError ?? t.progress.mailUnreachable } : null,
    // The link in the page's language (or its form's, ADR 78), for staff, while it still works.
    url: state === "pending" && "url" in submission ? submission.url : null,
    expiryValidation: clientValidation(expiryPageForm, t),
  };
}

/** Change the expiry of a link not yet completed, or withdraw it (the assigner or an administrator). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const formData = await readPagePost(request);
  const here = paths.assignment(locale, params.id);
  // Completed or withdrawn meanwhile (409, 410): the page itself now says so.
  const settled = (error: unknown) => {
    if (error instanceof ApiError && (error.status === 409 || error.status === 410)) return redirect(here);
    throw error;
  };
  if (formData.get("intent") === "send") {
    return forPage(resendLink(actor, params.id)).then(
      () => redirectWithFlash(here, { kind: "success", key: "linkQueued" }),
      (error: unknown) => {
        if (error instanceof ApiError && error.code === "NO_EMAIL") return redirectWithFlash(here, { kind: "error", key: "noEmail" });
        if (error instanceof ApiError && error.code === "MAIL_QUOTA") return redirectWithFlash(here, { kind: "error", key: "mailQuota" });
        if (error instanceof ApiError && error.status === 429) return redirectWithFlash(here, { kind: "error", key: "sentRecently" });
        return settled(error);
      },
    );
  }
  if (formData.get("intent") === "revoke") {
    return forPage(revokeSubmission(actor, params.id)).then(() => redirectWithFlash(here, { kind: "success", key: "linkRevoked" }), settled);
  }
  const submission = formSubmission(formData, ["csrfToken", "intent"]);
  const parsed = coerceFormValue(expiryPageForm).safeParse(submission.payload);
  if (!parsed.success) {
    return data(
      { result: pageResult(submission, { fieldErrors: issueTexts(pageTranslations(context, locale), parsed.error.issues), formError: null }) },
      { status: 400 },
    );
  }
  return forPage(updateSubmission(actor, params.id, { expiresAt: parsed.data.expiresAt ?? null })).then(
    () => redirectWithFlash(here, { kind: "success", key: "expiryChanged" }),
    (error: unknown) => {
      // A day already past in the organization's time zone.
      if (error instanceof ApiError && error.status === 400) {
        return data(
          { result: pageResult(submission, { fieldErrors: fieldTexts(pageTranslations(context, locale), error.errors), formError: null }) },
          { status: 400 },
        );
      }
      return settled(error);
    },
  );
}

const STATE_TONE = { pending: "info", completed: "success", expired: "warning", revoked: "neutral" } as const;

export default function Assignment({ loaderData: a, actionData }: Route.ComponentProps) {
  const totalOf = useTotalText();
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const open = a.state === "pending" || a.state === "expired";
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
          {a.openedAt ? (
            <>
              <span aria-hidden="true"> · </span>
              {t.assignments.opened(format.dateTime(a.openedAt))}
            </>
          ) : null}
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
            {a.totalScore !== null ? <span className="text-sm text-slate-700 tabular-nums">{totalOf(a).headline}</span> : null}
            <LinkButton to={paths.report(locale, a.id)} variant="primary">
              {t.assignments.viewReport}
            </LinkButton>
          </div>
        ) : null}
      </section>
      {a.mailFailed && a.state === "pending" ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm wrap-anywhere text-amber-900">
          {t.assignments.mailFailedNote(format.dateTime(a.mailFailed.at), a.mailFailed.reason)}
        </p>
      ) : null}
      {a.revokedAt ? <p className="text-sm text-slate-700">{t.assignments.revokedNote(format.dateTime(a.revokedAt))}</p> : null}
      {open ? <LinkControls validation={a.expiryValidation} result={actionData?.result} expiresAt={a.expiresAt} canSend={a.state === "pending"} /> : null}
      <p>
        <SectionLink to={paths.assignments(locale)}>{t.assignments.allAssignments}</SectionLink>
      </p>
    </div>
  );
}

/** A link's expiry (a Conform form) and its withdrawal (behind a <details>, so it asks first). */
function LinkControls({
  validation,
  result,
  expiresAt,
  canSend,
}: {
  validation: ClientValidation<"expiresAt">;
  result: PageResult | undefined;
  expiresAt: string | Date | null;
  canSend: boolean;
}) {
  const t = useT();
  const format = useFormat();
  const { form, fields } = useForm(pageFormOptions(validation, result, { expiresAt: expiresAt ? dayIn(new Date(expiresAt), format.timeZone) : "" }));
  return (
    <section aria-labelledby="link-controls" className="space-y-5 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      {canSend ? (
        <Form method="post">
          <CsrfInput />
          <Button type="submit" name="intent" value="send" variant="secondary" pendingText={t.common.working}>
            {t.assignments.sendNow}
          </Button>
        </Form>
      ) : null}
      <h2 id="link-controls" className="text-base font-semibold text-slate-900">
        {t.assignments.changeExpiry}
      </h2>
      <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end" {...form.props}>
        <CsrfInput />
        <Field
          id="expiresAt"
          name={fields.expiresAt.name}
          type="date"
          label={t.assignments.newExpiry}
          description={t.assignments.newExpiryHint(format.timeZone.replaceAll("_", " "))}
          defaultValue={fields.expiresAt.defaultValue}
          error={fields.expiresAt.errors}
          className="min-w-0 flex-1"
        />
        <Button type="submit" name="intent" value="extend" variant="secondary" pendingText={t.common.saving}>
          {t.assignments.saveExpiry}
        </Button>
      </Form>
      <DangerDetails
        className="border-t border-slate-200 pt-4"
        summary={t.assignments.revoke}
        text={t.assignments.revokeText}
        intent="revoke"
        confirmLabel={t.assignments.confirmRevoke}
      />
    </section>
  );
}
