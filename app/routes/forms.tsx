import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/forms";
import { Badge } from "~/components/badge.tsx";
import { Button, LinkButton } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { EmptyState } from "~/components/empty-state.tsx";
import { Select } from "~/components/field.tsx";
import { PlusIcon } from "~/components/icons.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { Pagination } from "~/components/pagination.tsx";
import { SearchForm } from "~/components/search-form.tsx";
import { listFormsQuery } from "~/features/forms/form-schemas.ts";
import { listForms } from "~/features/forms/forms.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { staffPageActor } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { pageQuery } from "~/lib/http.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.forms.title) }];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  // Empty filters ("All") are left out; anything the schema refuses shows the whole first page.
  const raw = pageQuery(request, ["search", "published", "isTemplate", "page"]);
  const parsed = listFormsQuery.safeParse({ ...raw, limit: "10" });
  const query = parsed.success ? parsed.data : listFormsQuery.parse({ limit: "10" });
  return listForms(actor, query);
}

export default function Forms({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { forms, total, page, limit } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader
        title={t.forms.title}
        description={t.forms.description}
        actions={
          <>
            <LinkButton to={paths.formTemplates(locale)}>{t.forms.fromTemplate}</LinkButton>
            <LinkButton to={paths.newForm(locale)} variant="primary" icon={<PlusIcon className="size-4" />}>
              {t.forms.newForm}
            </LinkButton>
          </>
        }
      />
      <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <SearchForm label={t.forms.search}>
          <FilterSelect
            name="published"
            label={t.forms.filters.status}
            options={[
              ["true", t.forms.filters.published],
              ["false", t.forms.filters.drafts],
            ]}
          />
          <FilterSelect
            name="isTemplate"
            label={t.forms.filters.kind}
            options={[
              ["true", t.forms.filters.templates],
              ["false", t.forms.filters.notTemplates],
            ]}
          />
        </SearchForm>
      </div>
      <section aria-labelledby="forms-list-title" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <h2 id="forms-list-title" className="sr-only">
          {t.forms.listTitle}
        </h2>
        {forms.length === 0 ? (
          <EmptyState title={t.forms.empty} description={t.forms.emptyHint} />
        ) : (
          <ul className="divide-y divide-slate-200">
            {forms.map((form) => (
              <li key={form.id} className="flex flex-col gap-2 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5">
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link to={paths.form(locale, form.id)} className="font-medium wrap-anywhere text-indigo-700 underline-offset-2 hover:underline">
                      {form.title}
                    </Link>
                    {form.isPublished ? <Badge tone="success">{t.forms.published}</Badge> : <Badge>{t.forms.draft}</Badge>}
                    {form.isTemplate ? <Badge tone="info">{t.forms.template}</Badge> : null}
                  </div>
                  <p className="mt-0.5 text-sm text-slate-600">{form.category ?? t.forms.noCategory}</p>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-3 sm:justify-end">
                  <p className="text-sm text-slate-600 sm:text-right">
                    {t.forms.counts(format.number(form._count.questions), format.number(form._count.submissions))}
                    <br />
                    {t.forms.updated(format.date(form.updatedAt))}
                  </p>
                  {form.isTemplate ? (
                    <Form method="post" action={paths.formTemplates(locale)}>
                      <CsrfInput />
                      <input type="hidden" name="formId" value={form.id} />
                      <Button
                        type="submit"
                        size="sm"
                        variant="secondary"
                        formAction={paths.formTemplates(locale)}
                        pendingText={t.common.working}
                        aria-label={t.forms.copyTemplateNamed(form.title)}
                      >
                        {t.forms.copyTemplate}
                      </Button>
                    </Form>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Pagination total={total} page={page} limit={limit} />
    </div>
  );
}

function FilterSelect({ name, label, options }: { name: string; label: string; options: [string, string][] }) {
  const t = useT();
  const [params] = useSearchParams();
  const current = params.get(name) ?? "";
  return (
    <Select
      key={current}
      className="sm:w-44"
      label={label}
      name={name}
      id={`filter-${name}`}
      defaultValue={current}
      options={[{ value: "", label: t.forms.filters.all }, ...options.map(([value, text]) => ({ value, label: text }))]}
    />
  );
}
