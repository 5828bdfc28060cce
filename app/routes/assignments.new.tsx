import { Form, Link, data, useSearchParams } from "react-router";
import type { Route } from "./+types/assignments.new";
import { Alert } from "~/components/alert.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { Checkbox, controlClasses, Field } from "~/components/field.tsx";
import { cx } from "~/components/cx.ts";
import { SearchIcon } from "~/components/icons.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { assignmentChoices, assignmentChoicesQuery, respondentChoice } from "~/features/assignments/assignments.server.ts";
import { assignForm } from "~/features/submissions/submissions.server.ts";
import { bulkAssign } from "~/features/submissions/bulk-assignment.server.ts";
import { groupChoice, groupChoices } from "~/features/groups/groups.server.ts";
import { Button, LinkButton } from "~/components/button.tsx";
import { documentTitle, translations } from "~/i18n/dictionaries.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { parsePagePost, refusal, staffPageActor } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, fieldTexts, problemTextOf } from "~/lib/problem.server.ts";
import { mailAllowance } from "~/features/submissions/mail-quota.server.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { pageQuery } from "~/lib/http.server.ts";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";
import { assignPageForm } from "~/features/assignments/assign-page-form.server.ts";

export const meta: Route.MetaFunction = ({ params }) => {
  const locale = resolveLocale(params.locale);
  return [{ title: documentTitle(locale, translations(locale).assignments.newTitle) }];
};

/** The respondent select's value: `student:<id>` or `candidate:<id>`. */
const respondentValue = (kind: "student" | "candidate", id: string) => `${kind}:${id}`;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const query = pageQuery(request, ["q", "studentId", "candidateId", "respondent", "formId"]);
  const { q } = assignmentChoicesQuery.parse({ q: query.q });
  const [choices, groups, mail] = await Promise.all([
    assignmentChoices(actor, { search: q }),
    groupChoices(actor, q),
    mailAllowance({ organizationId: actor.organizationId, userId: actor.userId }),
  ]);
  const { studentId, candidateId, respondent } = query;
  const selected = studentId ? respondentValue("student", studentId) : candidateId ? respondentValue("candidate", candidateId) : (respondent ?? "");
  // A preselected person stays in the list even when a search (or the list's cap) would leave them out.
  const [kind, id] = selected.split(":");
  if (kind === "group" && id && !groups.some((group) => group.id === id)) {
    const found = await groupChoice(actor, id);
    if (found) groups.unshift(found);
  }
  if ((kind === "student" || kind === "candidate") && id) {
    const list = kind === "student" ? choices.students : choices.candidates;
    if (!list.some((person) => person.id === id)) {
      const found = await respondentChoice(actor, kind, id);
      if (found) list.unshift(found);
    }
  }
  return {
    ...choices,
    groups,
    mail,
    q: q ?? "",
    selected: { formId: query.formId ?? "", respondent: selected },
    validation: clientValidation(assignPageForm, translations(resolveLocale(params.locale))),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = translations(locale);
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
  const [params] = useSearchParams();
  const { form, fields } = useForm(
    pageFormOptions(loaderData.validation, actionData && "result" in actionData ? actionData.result : undefined, loaderData.selected),
  );
  if (actionData && "bulk" in actionData) return <BulkResult {...actionData.bulk} />;
  const hasPeople = loaderData.students.length + loaderData.candidates.length + loaderData.groups.length > 0;
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
        <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
          {["formId", "studentId", "candidateId"].map((key) =>
            params.get(key) ? <input key={key} type="hidden" name={key} value={params.get(key)!} /> : null,
          )}
          <div className="min-w-0 flex-1">
            <label htmlFor="respondent-search" className="block text-sm font-medium text-slate-900">
              {t.assignments.findRespondent}
            </label>
            <p id="respondent-search-hint" className="mt-1 text-sm text-slate-600">
              {t.assignments.findRespondentHint}
            </p>
            <div className="relative mt-1.5">
              <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
              <input
                id="respondent-search"
                type="search"
                name="q"
                defaultValue={loaderData.q}
                key={loaderData.q}
                aria-describedby="respondent-search-hint"
                className={`${controlClasses(false)} pl-9`}
              />
            </div>
          </div>
          <Button type="submit" variant="secondary">
            {t.common.search}
          </Button>
        </Form>

        <Form method="post" className="mt-6 space-y-5 border-t border-slate-200 pt-6" {...form.props}>
          <CsrfInput />
          {loaderData.forms.length === 0 ? <Alert tone="warning" title={t.assignments.noForms} /> : null}
          <div>
            <label htmlFor="formId" className="block text-sm font-medium text-slate-900">
              {t.assignments.form}
              <span aria-hidden="true" className="text-red-700">
                {" "}
                *
              </span>
              <span className="sr-only"> ({t.common.required})</span>
            </label>
            <select
              id="formId"
              name={fields.formId.name}
              required
              defaultValue={fields.formId.defaultValue}
              aria-invalid={fields.formId.errors ? true : undefined}
              aria-describedby={fields.formId.errors ? "formId-error" : undefined}
              className={cx(controlClasses(!!fields.formId.errors), "mt-1.5 pr-8")}
            >
              <option value="">{t.assignments.chooseForm}</option>
              {loaderData.forms.map((form) => (
                <option key={form.id} value={form.id}>
                  {form.title}
                </option>
              ))}
            </select>
            {fields.formId.errors ? (
              <p id="formId-error" className="mt-1.5 text-sm font-medium text-red-700">
                {fields.formId.errors[0]}
              </p>
            ) : null}
          </div>

          <div>
            <label htmlFor="respondent" className="block text-sm font-medium text-slate-900">
              {t.assignments.respondent}
              <span aria-hidden="true" className="text-red-700">
                {" "}
                *
              </span>
              <span className="sr-only"> ({t.common.required})</span>
            </label>
            {loaderData.truncated ? (
              <p id="respondent-hint" className="mt-1 text-sm text-slate-600">
                {t.assignments.truncated}
              </p>
            ) : null}
            <select
              id="respondent"
              name={fields.respondent.name}
              required
              defaultValue={fields.respondent.defaultValue}
              key={`respondent-${loaderData.q}`}
              aria-invalid={fields.respondent.errors ? true : undefined}
              aria-describedby={
                [loaderData.truncated ? "respondent-hint" : "", fields.respondent.errors ? "respondent-error" : ""].filter(Boolean).join(" ") || undefined
              }
              className={cx(controlClasses(!!fields.respondent.errors), "mt-1.5 pr-8")}
            >
              <option value="">{hasPeople ? t.assignments.chooseRespondent : t.assignments.noRespondents}</option>
              {loaderData.groups.length > 0 ? (
                <optgroup label={t.assignments.wholeGroups}>
                  {loaderData.groups.map((group) => (
                    <option key={group.id} value={`group:${group.id}`}>
                      {t.assignments.wholeGroup(group.name)}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {loaderData.students.length > 0 ? (
                <optgroup label={t.assignments.students}>
                  {loaderData.students.map((person) => (
                    <option key={person.id} value={respondentValue("student", person.id)}>
                      {person.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {loaderData.candidates.length > 0 ? (
                <optgroup label={t.assignments.candidates}>
                  {loaderData.candidates.map((person) => (
                    <option key={person.id} value={respondentValue("candidate", person.id)}>
                      {person.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
            {fields.respondent.errors ? (
              <p id="respondent-error" className="mt-1.5 text-sm font-medium text-red-700">
                {fields.respondent.errors[0]}
              </p>
            ) : null}
          </div>

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
            <Field
              id="remindAfterDays"
              name={fields.remindAfterDays.name}
              type="number"
              inputMode="numeric"
              min={1}
              max={60}
              label={t.assignments.remindAfterDays}
              description={t.assignments.remindAfterDaysHint}
              defaultValue={fields.remindAfterDays.defaultValue}
              error={fields.remindAfterDays.errors}
              className="max-w-xs"
            />
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
