import { Link, useSearchParams } from "react-router";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { paths } from "~/lib/paths.ts";
import { buttonClasses, LinkButton } from "../button.tsx";
import { EmptyState } from "../empty-state.tsx";
import { Select } from "../field.tsx";
import { PlusIcon } from "../icons.tsx";
import { PageHeader } from "../page-header.tsx";
import { Pagination } from "../pagination.tsx";
import { SearchForm } from "../search-form.tsx";
import { StatusBadge, useStatusLabel, type PersonKind } from "./status-badge.tsx";

export type PersonRow = {
  id: string;
  name: string;
  email: string | null;
  externalId: string | null;
  age: number | null;
  grade: string | null;
  status: string;
};

/** The list's filters a roster file carries over (GET /api/students/export). */
const EXPORT_FILTERS = ["search", "status", "groupId"];

/** The students or candidates list: search and status filter (a GET form), rows, pages. */
export function PersonListPage({
  kind,
  rows,
  statuses,
  status,
  groups,
  groupId,
  total,
  page,
  limit,
}: {
  kind: PersonKind;
  rows: PersonRow[];
  statuses: readonly string[];
  status: string | undefined;
  /** The organization's groups, to filter by one. */
  groups: { id: string; name: string }[];
  groupId: string | undefined;
  total: number;
  page: number;
  limit: number;
}) {
  const t = useT();
  const locale = useLocale();
  const format = useFormat();
  const statusLabel = useStatusLabel(kind);
  const detail = kind === "students" ? paths.student : paths.candidate;
  const newHref = kind === "students" ? paths.newStudent(locale) : paths.newCandidate(locale);
  // The file of the people listed: a plain link to the API's export, with the list's filters.
  const [params] = useSearchParams();
  const filters = new URLSearchParams([...params].filter(([name, value]) => EXPORT_FILTERS.includes(name) && value !== ""));
  const exportHref = `/api/${kind}/export${filters.size > 0 ? `?${filters}` : ""}`;
  return (
    <div className="space-y-6">
      <PageHeader
        title={t[kind].title}
        description={t[kind].description}
        actions={
          <>
            <a href={exportHref} download className={buttonClasses({ variant: "secondary" })}>
              {t.rosterImport.exportAction}
            </a>
            <LinkButton to={kind === "students" ? paths.importStudents(locale) : paths.importCandidates(locale)}>{t.rosterImport.action}</LinkButton>
            <LinkButton to={newHref} variant="primary" icon={<PlusIcon className="size-4" />}>
              {t[kind].new}
            </LinkButton>
          </>
        }
      />
      <SearchForm label={t.people.searchLabel}>
        <Select
          name="status"
          label={t.people.status}
          className="sm:w-48"
          defaultValue={status ?? ""}
          key={status ?? ""}
          placeholder={t.people.allStatuses}
          options={statuses.map((value) => ({ value, label: statusLabel(value) }))}
        />
        {groups.length > 0 ? (
          <Select
            name="groupId"
            label={t.groups.filter}
            className="sm:w-56"
            defaultValue={groupId ?? ""}
            key={`group-${groupId ?? ""}`}
            placeholder={t.groups.allGroups}
            options={groups.map((group) => ({ value: group.id, label: group.name }))}
          />
        ) : null}
      </SearchForm>
      <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
        {rows.length === 0 ? (
          <EmptyState title={t[kind].empty} description={t[kind].emptyHint} />
        ) : (
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t[kind].title}</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold sm:px-5">
                  {t.people.name}
                </th>
                <th scope="col" className="hidden px-4 py-3 font-semibold sm:table-cell">
                  {t.people.externalId}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t.people.status}
                </th>
                <th scope="col" className="hidden px-4 py-3 font-semibold md:table-cell">
                  {t.people.gradeAge}
                </th>
                <th scope="col" className="hidden px-4 py-3 font-semibold lg:table-cell">
                  {t.people.email}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {rows.map((row) => {
                const gradeAge = [row.grade, row.age === null ? null : t.people.ageYears(format.number(row.age))].filter(Boolean).join(" · ");
                return (
                  <tr key={row.id} className="hover:bg-slate-50">
                    <td className="px-4 py-3 sm:px-5">
                      <Link
                        to={detail(locale, row.id)}
                        className="font-medium wrap-anywhere text-indigo-700 underline-offset-2 hover:text-indigo-900 hover:underline"
                      >
                        {row.name}
                      </Link>
                      {/* What the hidden columns would say, under the name on narrower screens. */}
                      {row.externalId ? <p className="mt-0.5 text-slate-600 wrap-anywhere sm:hidden">{row.externalId}</p> : null}
                      {row.email ? <p className="mt-0.5 text-slate-600 wrap-anywhere lg:hidden">{row.email}</p> : null}
                      {gradeAge ? <p className="mt-0.5 text-slate-600 md:hidden">{gradeAge}</p> : null}
                    </td>
                    <td className="hidden px-4 py-3 wrap-anywhere text-slate-700 sm:table-cell">{row.externalId ?? t.people.notGiven}</td>
                    <td className="px-4 py-3 align-top">
                      <StatusBadge kind={kind} status={row.status} />
                    </td>
                    <td className="hidden px-4 py-3 text-slate-700 md:table-cell">{gradeAge || t.people.notGiven}</td>
                    <td className="hidden px-4 py-3 wrap-anywhere text-slate-700 lg:table-cell">{row.email ?? t.people.notGiven}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      <Pagination total={total} page={page} limit={limit} />
    </div>
  );
}
