import { useId, useRef } from "react";
import { Form } from "react-router";
import type { Route } from "./+types/forms.$id.delete";
import { Alert } from "~/components/alert.tsx";
import { BackLink } from "~/components/back-link.tsx";
import { Button, LinkButton } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { useConfirmationFocus } from "~/components/focus.ts";
import { PageHeader } from "~/components/page-header.tsx";
import { editableForm } from "~/features/forms/form-pages.server.ts";
import { deleteForm } from "~/features/forms/forms.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, staffPageActor, readPagePost } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/** The confirmation step before a form is deleted: a page of its own, so it works without JavaScript. */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.forms.deleteTitle) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const form = await editableForm(staffPageActor(context), params.id);
  return { form: { id: form.id, title: form.title, questions: form.questions.length } };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  await readPagePost(request);
  await forPage(deleteForm(actor, params.id));
  return redirectWithFlash(paths.forms(resolveLocale(params.locale)), { kind: "success", key: "deleted" });
}

export default function DeleteForm({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { form } = loaderData;
  // The question and its buttons take the focus when the page opens (the link to it is gone).
  const ref = useRef<HTMLElement>(null);
  const questionId = useId();
  useConfirmationFocus(ref);
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <BackLink to={paths.form(locale, form.id)}>{t.forms.backToForm}</BackLink>
      <PageHeader title={t.forms.deleteTitle} />
      {/* biome-ignore lint/a11y/noAutofocus: without JavaScript too, the page starts at its question */}
      <section ref={ref} tabIndex={-1} aria-labelledby={questionId} autoFocus className="space-y-6 rounded-lg outline-none focus:ring-2 focus:ring-amber-600">
        <Alert tone="warning" title={<span id={questionId}>{t.forms.deleteQuestion(form.title)}</span>}>
          {t.forms.deleteExplanation(format.number(form.questions))}
        </Alert>
        <Form method="post" className="flex flex-wrap gap-3">
          <CsrfInput />
          <Button type="submit" variant="danger" pendingText={t.common.working}>
            {t.forms.confirmDelete}
          </Button>
          <LinkButton to={paths.form(locale, form.id)}>{t.common.cancel}</LinkButton>
        </Form>
      </section>
    </div>
  );
}
