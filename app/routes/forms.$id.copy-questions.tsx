import { Form } from "react-router";
import type { Route } from "./+types/forms.$id.copy-questions";
import { Alert } from "~/components/alert.tsx";
import { BackLink } from "~/components/back-link.tsx";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { Checkbox, Select } from "~/components/field.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import type { PageResult } from "~/components/page-form.ts";
import { copyQuestionsBody } from "~/features/forms/copy-questions-schemas.ts";
import { copyQuestions, copySources } from "~/features/forms/copy-questions.server.ts";
import { editableForm } from "~/features/forms/form-pages.server.ts";
import { getForm } from "~/features/forms/forms.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { pageTranslations, parsePageForm, readPagePost, serviceRefusal, staffPageActor } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * "Copy questions from another form" (docs/api-contract.md §22): a GET form chooses the form to copy
 * from (`?from=`), then its questions are checkboxes posted here, copied by the service of
 * POST /api/forms/:id/questions/copy. Works without JavaScript.
 */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.forms.copyQuestions.title) }];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const form = await editableForm(actor, params.id);
  const sources = await copySources(actor, form.id);
  const from = new URL(request.url).searchParams.get("from");
  const source = sources.find((candidate) => candidate.id === from) ?? null;
  const questions = source ? (await getForm(actor, source.id)).questions.map(({ id, text, type }) => ({ id, text, type })) : [];
  return { form: { id: form.id, title: form.title, locked: form.instrument !== null }, sources, source, questions };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const posted = parsePageForm(await readPagePost(request), copyQuestionsBody, t, { listsWhenAbsent: ["questionIds"] });
  if (!posted.ok) return posted.reply;
  try {
    await copyQuestions(actor, params.id, posted.value);
  } catch (error) {
    return serviceRefusal(t, posted.submission, error);
  }
  return redirectWithFlash(paths.form(locale, params.id), { kind: "success", key: "questionsCopied" });
}

/** The first message of the refused post for `name` (`questionIds.2` counts as `questionIds`). */
function errorOf(result: PageResult | undefined, name: string): string | null {
  const errors = result?.error?.fieldErrors ?? {};
  const key = Object.keys(errors).find((field) => field === name || field.startsWith(`${name}.`) || field.startsWith(`${name}[`));
  return key ? (errors[key]?.[0] ?? null) : null;
}

export default function CopyQuestions({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const copy = t.forms.copyQuestions;
  const { form, sources, source, questions } = loaderData;
  const result = actionData?.result as PageResult | undefined;
  const formError = result?.error?.formErrors?.[0] ?? null;
  const questionsError = errorOf(result, "questionIds") ?? errorOf(result, "fromFormId");
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to={paths.form(locale, form.id)}>{t.forms.backToForm}</BackLink>
      <PageHeader title={copy.title} description={copy.description(form.title)} />
      {form.locked ? (
        <Alert tone="warning">{copy.locked}</Alert>
      ) : sources.length === 0 ? (
        <p className="text-sm text-slate-700">{copy.noSources}</p>
      ) : (
        <>
          <Form method="get" className="flex flex-wrap items-end gap-3">
            <Select
              label={copy.source}
              name="from"
              id="from"
              className="min-w-64 grow"
              placeholder={copy.choose}
              defaultValue={source?.id ?? ""}
              options={sources.map((candidate) => ({ value: candidate.id, label: candidate.title }))}
            />
            <Button type="submit" variant="secondary">
              {copy.show}
            </Button>
          </Form>
          {source ? (
            <Form method="post" className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="fromFormId" value={source.id} />
              {formError ? <Alert tone="error">{formError}</Alert> : null}
              <fieldset className="space-y-3" aria-describedby={questionsError ? "questionIds-error" : undefined}>
                <legend className="text-base font-semibold text-slate-900">{copy.questions(source.title)}</legend>
                {questionsError ? (
                  <p id="questionIds-error" className="text-sm font-medium text-red-700">
                    {questionsError}
                  </p>
                ) : null}
                {questions.length === 0 ? <p className="text-sm text-slate-700">{copy.noQuestions}</p> : null}
                {questions.map((question, index) => (
                  <Checkbox
                    key={question.id}
                    id={`question-${question.id}`}
                    name="questionIds"
                    value={question.id}
                    label={`${index + 1}. ${question.text}`}
                    description={t.forms.questionTypes[question.type]}
                  />
                ))}
              </fieldset>
              {questions.length > 0 ? (
                <Button type="submit" pendingText={t.common.working}>
                  {copy.submit}
                </Button>
              ) : null}
            </Form>
          ) : null}
        </>
      )}
    </div>
  );
}
