import { Form, Link } from "react-router";
import type { Route } from "./+types/forms.templates";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { EmptyState } from "~/components/empty-state.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { listFormsQuery } from "~/features/forms/form-schemas.ts";
import { duplicateForm, listForms } from "~/features/forms/forms.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, pageError, staffPageActor, readPagePost } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/** "Start from a template": the templates the caller can see; using one copies it as the caller's own draft. */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.forms.templatesTitle) }];
};

export async function loader({ context }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  return listForms(actor, listFormsQuery.parse({ isTemplate: "true", limit: "100" }));
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const formData = await readPagePost(request);
  const id = formData.get("formId");
  if (typeof id !== "string" || id === "") throw pageError(404);
  const copy = await forPage(duplicateForm(actor, id, { title: (title) => title }));
  const locale = resolveLocale(params.locale);
  return redirectWithFlash(paths.form(locale, copy.id), { kind: "success", key: "formFromTemplate" });
}

export default function Templates({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  return (
    <div className="space-y-6">
      <p>
        <Link to={paths.forms(locale)} className="text-sm font-medium text-indigo-700 hover:underline">
          ← {t.forms.backToList}
        </Link>
      </p>
      <PageHeader title={t.forms.templatesTitle} description={t.forms.templatesDescription} />
      {loaderData.forms.length === 0 ? (
        <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
          <EmptyState title={t.forms.templatesEmpty} />
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {loaderData.forms.map((form) => (
            <li key={form.id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <h2 className="font-semibold wrap-anywhere text-slate-900">{form.title}</h2>
              <p className="text-sm text-slate-600">{form.category ?? t.forms.noCategory}</p>
              {form.description ? <p className="mt-2 line-clamp-3 text-sm text-slate-700">{form.description}</p> : null}
              <p className="mt-2 text-sm text-slate-600">{t.forms.questionCount(format.number(form._count.questions))}</p>
              <Form method="post" className="mt-auto pt-4">
                <CsrfInput />
                <input type="hidden" name="formId" value={form.id} />
                <Button type="submit" variant="primary" className="w-full" pendingText={t.common.working} aria-label={t.forms.copyTemplateNamed(form.title)}>
                  {t.forms.copyTemplate}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
