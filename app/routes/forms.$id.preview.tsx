import { Link, data } from "react-router";
import type { Route } from "./+types/forms.$id.preview";
import { TestForm } from "~/components/test-form.tsx";
import { getForm } from "~/features/forms/forms.server.ts";
import { formImageUrl, imageView } from "~/features/forms/form-image-schemas.ts";
import { requiredOnTheLink, submitProblems } from "~/features/scoring/scales.ts";
import { answersFrom, answersValidation, errorsByQuestion, type TestView } from "~/features/submissions/test-link-page.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { pageResult } from "~/lib/client-validation.server.ts";
import { formSubmission } from "~/lib/http.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * A form exactly as its respondent will see it (docs/api-contract.md §12): the respondent's own component and
 * the same checks of the answers, for any form the teacher can see, published or not. Answering
 * stores nothing: no submission, no draft, no result.
 */
export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.preview.pageTitle(loaderData?.test.form.title ?? "")) }];
};

async function previewOf(context: Route.LoaderArgs["context"], id: string, locale: ReturnType<typeof resolveLocale>) {
  const form = await forPage(getForm(staffPageActor(context), id));
  const formImage = (imageId: string) => formImageUrl(form.id, imageId);
  const test: TestView = {
    // What the public link gives the respondent: no scores, no bands.
    form: {
      title: form.title,
      description: form.description,
      questions: form.questions.map(({ id, text, type, required, scale, options, ...question }) => ({
        id,
        text,
        type,
        required: requiredOnTheLink(form, { required, type, options }),
        scale,
        options: options.map((o) => ({ id: o.id, text: o.text, image: imageView(o, formImage) })),
        image: imageView(question, formImage),
      })),
    },
    respondent: { name: pageTranslations(context, locale).preview.respondentName },
    progress: { answered: 0, total: form.questions.length },
  };
  return { form, test };
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const locale = resolveLocale(params.locale);
  const { form, test } = await previewOf(context, params.id, locale);
  return { formId: form.id, test, validation: answersValidation(test, pageTranslations(context, locale)) };
}

/** Checks the answers as a submit would, and says so; nothing is written. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const locale = resolveLocale(params.locale);
  const { form } = await previewOf(context, params.id, locale);
  const formData = await request.formData();
  const answers = answersFrom(form.questions, formData);
  const problems = submitProblems(form, answers);
  if (problems.length > 0) {
    const fieldErrors = errorsByQuestion(pageTranslations(context, locale), problems, answers);
    return data({ result: pageResult(formSubmission(formData), { fieldErrors, formError: null }), checked: false }, { status: 400 });
  }
  return { result: undefined, checked: true };
}

export default function FormPreview({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="space-y-4">
      <p>
        <Link to={paths.form(locale, loaderData.formId)} className="text-sm font-medium text-indigo-700 hover:underline">
          ← {t.preview.back}
        </Link>
      </p>
      <TestForm
        test={loaderData.test}
        validation={loaderData.validation}
        result={actionData?.result}
        preview={{ title: t.preview.title, text: t.preview.text, checked: actionData?.checked ?? false, checkedText: t.preview.checked }}
      />
    </div>
  );
}
