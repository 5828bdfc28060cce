import { Link } from "react-router";
import type { Route } from "./+types/groups";
import { LinkButton } from "~/components/button.tsx";
import { EmptyState } from "~/components/empty-state.tsx";
import { PlusIcon } from "~/components/icons.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { Pagination } from "~/components/pagination.tsx";
import { SearchForm } from "~/components/search-form.tsx";
import { listGroupsQuery } from "~/features/groups/group-schemas.ts";
import { listGroups } from "~/features/groups/groups.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { staffPageActor } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { pageQuery } from "~/lib/http.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.groups.title) }];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  // An empty search is no search; anything the schema refuses shows the whole first page, as the other lists do.
  const raw = pageQuery(request, ["search", "page"]);
  const parsed = listGroupsQuery.safeParse(raw);
  return listGroups(actor, parsed.success ? parsed.data : listGroupsQuery.parse({}));
}

export default function Groups({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { groups, total, page, limit } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader
        title={t.groups.title}
        description={t.groups.description}
        actions={
          <LinkButton to={paths.newGroup(locale)} variant="primary" icon={<PlusIcon className="size-4" />}>
            {t.groups.new}
          </LinkButton>
        }
      />
      <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <SearchForm label={t.groups.search} />
      </div>
      <section aria-label={t.groups.title} className="rounded-xl border border-slate-200 bg-white shadow-sm">
        {groups.length === 0 ? (
          <EmptyState title={t.groups.empty} description={t.groups.emptyHint} />
        ) : (
          <ul className="divide-y divide-slate-200">
            {groups.map((group) => (
              <li key={group.id} className="flex flex-col gap-1 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5">
                <div className="min-w-0">
                  <Link to={paths.group(locale, group.id)} className="font-medium wrap-anywhere text-indigo-700 underline-offset-2 hover:underline">
                    {group.name}
                  </Link>
                  {group.description ? <p className="mt-0.5 line-clamp-2 text-sm text-slate-600">{group.description}</p> : null}
                </div>
                <p className="shrink-0 text-sm text-slate-600 sm:text-right">
                  {t.groups.membersCount(group._count.members, format.number(group._count.members))}
                  {group.createdBy ? (
                    <>
                      <br />
                      {t.groups.createdBy(group.createdBy.name)}
                    </>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Pagination page={page} limit={limit} total={total} />
    </div>
  );
}
