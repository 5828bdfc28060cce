import { Form, Link, data } from "react-router";
import type { Route } from "./+types/assignments.new";
import { Alert } from "~/components/alert.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { Checkbox, Field } from "~/components/field.tsx";
import { FormChoice, RemindAfterDays, RespondentChoice, RespondentSearch } from "~/components/assignments/respondent-fields.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { respondentChoices } from "~/features/assignments/assignments.server.ts";
import { assignForm } from "~/features/submissions/submissions.server.ts";
import { bulkAssign } from "~/features/submissions/bulk-assignment.server.ts";
import { Button, LinkButton } from "~/components/button.tsx";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { parsePagePost, refusal, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, fieldTexts, problemTextOf } from "~/lib/problem.server.ts";
import { mailAllowance } from "~/features/submissions/mail-quota.server.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { pageQuery } from "~/lib/http.server.ts";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";
import { assignPageForm } from "~/features/assignments/assign-page-form.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.assignments.newTitle) }];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const query = pageQuery(request, ["q", "studentId", "candidateId", "respondent", "formId"]);
  const [choices, mail] = await Promise.all([respondentChoices(actor, query), mailAllowance({ organizationId: actor.organizationId, userId: actor.userId })]);
  return {
    ...choices,
    mail,
    selected: { formId: query.formId ?? "", respondent: choices.respondent },
    validation: clientValidation(assignPageForm, pageTranslations(context, params.locale)),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const form = await parsePagePost(request, assignPageForm, t);
  if (!form.ok) return form.reply;
  const { submission } = form;
  const { formId, respondent, expiresAt, send, remindAfterDays } = form.value;
  const delivery = { send: send ?? false, ...(remindAfterDays ? { remindAfterDays } : {}) };
  try {
    if ("groupId" in respondent) {
      // A whole group: the page shows who got a link and who was skipped, and why.
      const { created, skipped } = await bulkAssign(actor, { formId, groupId: respondent.groupId, ...(expiresAt ? { expiresAt } : {}), ...delivery });
      const noEmail = created.filter((link) => "delivery" in link && link.delivery === "NO_EMAIL").length;
      return data({ bulk: { formId, created: created.length, skipped, noEmail } });
    }
    const created = await assignForm(actor, { formId, ...respondent, ...(expiresAt ? { expiresAt } : {}) }, delivery);
    throw await redirectWithFlash(paths.assignment(locale, created.id), { kind: "success", key: send ? "assignedAndSent" : "assigned" });
  } catch (error) {
    // A day already past in the organization's time zone.
    if (error instanceof ApiError && error.status === 400) {
      return refusal(submission, { fieldErrors: fieldTexts(t, error.errors), formError: null }, 400);
    }
    // Past an e-mail quota: nothing was assigned or queued (ADR 45).
    if (error instanceof ApiError && error.code === "MAIL_QUOTA") {
      return refusal(submission, { fieldErrors: {}, formError: problemTextOf(t, error) }, 429);
    }
    // A group's VIEWER reads its results and assigns nothing to it (docs/api-contract.md §19).
    if (error instanceof ApiError && error.status === 403) {
      return refusal(submission, { fieldErrors: {}, formError: t.assignments.errors.groupViewer }, 403);
    }
    if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
      const formError = error.status === 409 ? t.assignments.errors.notPublished : t.assignments.errors.notFound;
      return refusal(submission, { fieldErrors: {}, formError }, 400);
    }
    throw error;
  }
}

export default function NewAssignment({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const format = useFormat();
  const { form, fields } = useForm(
    pageFormOptions(loaderData.validation, actionData && "result" in actionData ? actionData.result : undefined, loaderData.selected),
  );
  if (actionData && "bulk" in actionData) return <BulkResult {...actionData.bulk} />;
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader title={t.assignments.newTitle} description={t.assignments.newDescription} />

      <ErrorSummary
        form={form}
        fields={["formId", "respondent", "expiresAt", "send", "remindAfterDays"]}
        label={(name) =>
          ({
            formId: t.assignments.form,
            respondent: t.assignments.respondent,
            expiresAt: t.assignments.expiresAt,
            send: t.assignments.sendByEmail,
            remindAfterDays: t.assignments.remindAfterDays,
          })[name]
        }
      />

      <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <RespondentSearch q={loaderData.q} keep={["formId", "studentId", "candidateId"]} />

        <Form method="post" className="mt-6 space-y-5 border-t border-slate-200 pt-6" {...form.props}>
          <CsrfInput />
          {loaderData.forms.length === 0 ? <Alert tone="warning" title={t.assignments.noForms} /> : null}
          <FormChoice field={fields.formId} forms={loaderData.forms} />
          <RespondentChoice field={fields.respondent} choices={loaderData} />

          <Field
            id="expiresAt"
            name={fields.expiresAt.name}
            type="date"
            min={tomorrow}
            label={t.assignments.expiresAt}
            description={t.assignments.expiresAtHint(format.timeZone.replaceAll("_", " "))}
            defaultValue={fields.expiresAt.defaultValue}
            error={fields.expiresAt.errors}
            className="max-w-xs"
          />

          <fieldset className="space-y-3">
            <legend className="text-sm font-medium text-slate-900">{t.assignments.deliveryTitle}</legend>
            <Checkbox
              id="send"
              name={fields.send.name}
              label={t.assignments.sendByEmail}
              description={t.assignments.sendByEmailHint}
              defaultChecked={fields.send.defaultChecked}
            />
            <p id="mail-left" className="text-sm text-slate-600">
              {t.assignments.mailLeft(format.number(loaderData.mail.user.left), format.number(loaderData.mail.organization.left))}
            </p>
            <RemindAfterDays field={fields.remindAfterDays} />
          </fieldset>

          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" variant="primary" pendingText={t.assignments.assigning}>
              {t.assignments.assign}
            </Button>
            <Link to={paths.assignments(locale)} className="text-sm font-medium text-indigo-700 underline hover:text-indigo-900">
              {t.assignments.allAssignments}
            </Link>
          </div>
        </Form>
      </div>
    </div>
  );
}

/** After assigning to a group: how many links were made, and who was skipped and why. */
function BulkResult({
  formId,
  created,
  skipped,
  noEmail,
}: {
  formId: string;
  created: number;
  skipped: { kind: "student" | "candidate"; id: string; name: string; reason: "ALREADY_PENDING" | "NOT_ACTIVE" }[];
  noEmail: number;
}) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader title={t.assignments.bulkTitle} />
      <Alert tone={created > 0 ? "success" : "warning"} title={t.assignments.bulkCreated(created, format.number(created))} />
      {noEmail > 0 ? <Alert tone="warning" title={t.assignments.bulkNoEmail(noEmail, format.number(noEmail))} /> : null}
      {skipped.length > 0 ? (
        <section aria-labelledby="skipped-title" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
          <h2 id="skipped-title" className="font-semibold text-slate-900">
            {t.assignments.bulkSkipped(skipped.length, format.number(skipped.length))}
          </h2>
          <ul className="mt-3 divide-y divide-slate-200">
            {skipped.map((person) => (
              <li key={`${person.kind}-${person.id}`} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                <span className="font-medium wrap-anywhere text-slate-900">{person.name}</span>
                <span className="text-slate-700">{t.assignments.skipReasons[person.reason]}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="flex flex-wrap gap-3">
        <LinkButton to={`${paths.assignments(locale)}?formId=${formId}`} variant="primary">
          {t.assignments.seeAssignments}
        </LinkButton>
        <LinkButton to={paths.newAssignment(locale)}>{t.assignments.assignAnother}</LinkButton>
      </p>
    </div>
  );
}
