import { Form, Link } from "react-router";
import type { Route } from "./+types/forms.$id";
import { Badge } from "~/components/badge.tsx";
import { Button, LinkButton } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { FormEditor } from "~/components/form-editor.tsx";
import { QuestionImageForms } from "~/components/form-editor/question-image.tsx";
import { InstalledForm } from "~/components/instruments/installed-form.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { draftFromForm } from "~/features/forms/form-editor.server.ts";
import { formImageUrl, imageView } from "~/features/forms/form-image-schemas.ts";
import { questionImagePost } from "~/features/forms/form-image-page.server.ts";
import { editableForm, editorPost, editorValidation } from "~/features/forms/form-pages.server.ts";
import { listFormVersions } from "~/features/forms/form-versions.server.ts";
import { duplicateForm, updateForm } from "~/features/forms/forms.server.ts";
import { installedFormDetailsPost, installedFormEditor } from "~/features/instruments/installed-form-page.server.ts";
import { openLinkCount } from "~/features/submissions/submissions.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, staffPageActor, readPagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData?.form.title ?? t.forms.editTitle) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const form = await editableForm(actor, params.id);
  const url = (imageId: string) => formImageUrl(form.id, imageId);
  const versions = await listFormVersions(form.id);
  return {
    // The version results are scored against now, and how many it has scored (ADR 90).
    version: { number: form.version, results: versions.find((row) => row.version === form.version)?.results ?? 0 },
    // Unpublishing closes the links still waiting for answers: the page says how many first.
    openLinks: form.isPublished ? await openLinkCount(form.id) : 0,
    form: { id: form.id, title: form.title, isPublished: form.isPublished, isTemplate: form.isTemplate, updatedAt: form.updatedAt },
    draft: draftFromForm(form),
    // Each saved question's and option's image (or none), for its small image form in the editor.
    images: {
      byQuestion: Object.fromEntries(form.questions.map((question) => [question.id, imageView(question, url)])),
      byOption: Object.fromEntries(form.questions.flatMap((question) => question.options.map((option) => [option.id, imageView(option, url)]))),
    },
    imageTargets: form.questions.map((question) => ({
      id: question.id,
      optionIds: question.type === "TEXT" ? [] : question.options.map((option) => option.id),
    })),
    validation: editorValidation(pageTranslations(context, params.locale)),
    // A form installed from the instrument library: its items and scoring are shown, not edited.
    installed: installedFormEditor(form, pageTranslations(context, params.locale)),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const formData = await readPagePost(request);
  const intent = String(formData.get("intent") ?? "save");
  if (intent === "publish" || intent === "unpublish") {
    await forPage(updateForm(actor, params.id, { isPublished: intent === "publish" }));
    return redirectWithFlash(paths.form(locale, params.id), { kind: "success", key: intent === "publish" ? "formPublished" : "formUnpublished" });
  }
  if (intent === "duplicate") {
    const copy = await forPage(duplicateForm(actor, params.id, { title: (title) => pageTranslations(context, locale).forms.copyTitle(title) }));
    return redirectWithFlash(paths.form(locale, copy.id), { kind: "success", key: "formDuplicated" });
  }
  if (intent === "details") return installedFormDetailsPost(actor, locale, formData, params.id);
  if (intent === "image" || intent === "removeImage") return questionImagePost(actor, locale, formData, params.id);
  return editorPost(actor, locale, formData, params.id);
}

export default function EditForm({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { form } = loaderData;
  return (
    <div className="space-y-6">
      <p>
        <Link to={paths.forms(locale)} className="text-sm font-medium text-indigo-700 hover:underline">
          ← {t.forms.backToList}
        </Link>
      </p>
      <PageHeader
        title={form.title}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {form.isPublished ? <Badge tone="success">{t.forms.published}</Badge> : <Badge>{t.forms.draft}</Badge>}
            {form.isTemplate ? <Badge tone="info">{t.forms.template}</Badge> : null}
            <span>{t.forms.updated(format.dateTime(form.updatedAt))}</span>
            <span data-testid="form-version">
              {t.forms.editor.version(format.number(loaderData.version.number), loaderData.version.results, format.number(loaderData.version.results))}
            </span>
          </span>
        }
        actions={
          <>
            <Form method="post" className="flex flex-col items-end gap-1">
              <CsrfInput />
              <Button
                type="submit"
                name="intent"
                value={form.isPublished ? "unpublish" : "publish"}
                variant={form.isPublished ? "secondary" : "primary"}
                aria-describedby={loaderData.openLinks > 0 ? "unpublish-note" : undefined}
                pendingText={t.common.working}
              >
                {form.isPublished ? t.forms.unpublish : t.forms.publish}
              </Button>
              {loaderData.openLinks > 0 ? (
                <p id="unpublish-note" className="max-w-xs text-right text-sm text-amber-800">
                  {t.forms.unpublishCloses(loaderData.openLinks, format.number(loaderData.openLinks))}
                </p>
              ) : null}
            </Form>
            <Form method="post">
              <CsrfInput />
              <Button type="submit" name="intent" value="duplicate" variant="secondary" pendingText={t.common.working}>
                {t.forms.duplicate}
              </Button>
            </Form>
            {loaderData.installed ? null : (
              <LinkButton to={paths.copyQuestions(locale, form.id)} variant="secondary">
                {t.forms.copyQuestions.link}
              </LinkButton>
            )}
            <LinkButton to={paths.formPreview(locale, form.id)} variant="secondary">
              {t.preview.link}
            </LinkButton>
            <LinkButton to={paths.formSummary(locale, form.id)} variant="secondary">
              {t.summary.link}
            </LinkButton>
            {form.isPublished ? (
              <LinkButton to={`${paths.newAssignment(locale)}?formId=${form.id}`} variant="primary">
                {t.forms.assign}
              </LinkButton>
            ) : null}
            {form.isPublished ? <LinkButton to={`${paths.newSchedule(locale)}?formId=${form.id}`}>{t.schedules.repeat}</LinkButton> : null}
            <LinkButton to={paths.deleteForm(locale, form.id)} className="text-red-700">
              {t.forms.delete}
            </LinkButton>
          </>
        }
      />
      {/* Each saved question's small image form: outside the editor's, as forms do not nest. */}
      {loaderData.installed ? null : <QuestionImageForms questions={loaderData.imageTargets} />}
      {loaderData.installed ? (
        <InstalledForm key={String(form.updatedAt)} editor={loaderData.installed} result={actionData && "image" in actionData ? undefined : actionData} />
      ) : (
        <FormEditor
          key={String(form.updatedAt)}
          draft={loaderData.draft}
          result={actionData && "image" in actionData ? undefined : actionData}
          validation={loaderData.validation}
          submitLabel={t.common.save}
          images={{ ...loaderData.images, refused: actionData && "image" in actionData ? actionData.image : undefined }}
        />
      )}
    </div>
  );
}
