import { Form } from "react-router";
import type { Route } from "./+types/forms.$id.rescore";
import { Alert } from "~/components/alert.tsx";
import { BackLink } from "~/components/back-link.tsx";
import { ScoreBadge } from "~/components/badge.tsx";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import type { PageResult } from "~/components/page-form.ts";
import { editableForm } from "~/features/forms/form-pages.server.ts";
import { rescoreBody } from "~/features/forms/rescore-schemas.ts";
import { rescoreForm } from "~/features/forms/rescore.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { pageTranslations, parsePageForm, readPagePost, serviceRefusal, staffPageActor } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * "Rescore results" (docs/api-contract.md §22, ADR 94): the results scored against an earlier
 * version of the form, those whose scores would change with their scores before and after (the
 * dry run of POST /api/forms/:id/rescore), and the button that rescores them. The form's editor
 * comes here after a save that raised the version. Works without JavaScript.
 */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.forms.rescore.title) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const form = await editableForm(actor, params.id);
  const plan = await rescoreForm(actor, form.id, { dryRun: true });
  return { form: { id: form.id, title: form.title }, plan };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const posted = parsePageForm(await readPagePost(request), rescoreBody, t);
  if (!posted.ok) return posted.reply;
  try {
    await rescoreForm(actor, params.id, { dryRun: false });
  } catch (error) {
    return serviceRefusal(t, posted.submission, error);
  }
  return redirectWithFlash(paths.formRescore(locale, params.id), { kind: "success", key: "resultsRescored" });
}

export default function RescoreResults({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const format = useFormat();
  const copy = t.forms.rescore;
  const { form, plan } = loaderData;
  const result = actionData?.result as PageResult | undefined;
  const formError = result?.error?.formErrors?.[0] ?? null;
  const version = format.number(plan.version);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to={paths.form(locale, form.id)}>{t.forms.backToForm}</BackLink>
      <PageHeader title={copy.title} description={copy.description(form.title, version)} />
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      {plan.results === 0 ? (
        <p className="text-slate-700">{copy.none(version)}</p>
      ) : (
        <>
          <p className="text-slate-700">{copy.count(plan.results, format.number(plan.results), format.number(plan.changed.length))}</p>
          {plan.changed.length === 0 ? (
            <p className="text-sm text-slate-600">{copy.noChange}</p>
          ) : (
            <table className="w-full text-sm">
              <caption className="mb-2 text-left text-base font-semibold text-slate-900">{copy.caption}</caption>
              <thead>
                <tr className="text-left text-slate-600">
                  {[copy.respondent, copy.before, copy.after].map((header) => (
                    <th key={header} scope="col" className="py-1 pr-4 font-medium">
                      {header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {plan.changed.map((change) => (
                  <tr key={change.submissionId} className="border-t border-slate-200">
                    <th scope="row" className="py-2 pr-4 text-left font-medium text-slate-900">
                      {change.respondentName === null ? <span className="text-slate-600">{copy.colleague}</span> : change.respondentName || "—"}
                    </th>
                    {[change.before, change.after].map((score, index) => (
                      <td key={index === 0 ? "before" : "after"} className="py-2 pr-4 text-slate-700">
                        <span className="tabular-nums">{`${index === 1 ? "→ " : ""}${format.number(score.totalScore)}`}</span>{" "}
                        <ScoreBadge label={score.scoreLabel} color={score.scoreColor} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Form method="post">
            <CsrfInput />
            <Button type="submit" pendingText={t.common.working}>
              {copy.submit(plan.results, format.number(plan.results))}
            </Button>
          </Form>
        </>
      )}
    </div>
  );
}
