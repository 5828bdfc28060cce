import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/admin.audit";
import { Badge } from "~/components/badge.tsx";
import { EmptyState } from "~/components/empty-state.tsx";
import { DateRangeFields } from "~/components/date-range-fields.tsx";
import { FilterSelect } from "~/components/filter-select.tsx";
import { PageHeader, SectionLink } from "~/components/page-header.tsx";
import { Pagination } from "~/components/pagination.tsx";
import { SearchForm } from "~/components/search-form.tsx";
import { AUDIT_ACTIONS, auditActions, type AuditAction } from "~/features/audit/audit-actions.ts";
import { listAuditQuery } from "~/features/audit/audit-schemas.ts";
import { auditActorChoices, listAuditEvents } from "~/features/audit/audit-log.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { serverTranslations } from "~/i18n/dictionaries.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { pageQuery } from "~/lib/http.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { adminPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { parseSubmission, useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";
import { type DateFilterErrors, dateParseErrors, dateRangeErrors } from "~/lib/date-filters.server.ts";
import { clientValidation, pageResult } from "~/lib/client-validation.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.audit.title) }];
};

/** The filters the page shows (the API's, less paging and a super admin's organization), checked in the browser as the loader checks them. */
const FILTER_NAMES = ["actorId", "action", "targetType", "targetId", "from", "to"] as const;
const pageFilters = listAuditQuery.pick({ actorId: true, action: true, targetType: true, targetId: true, from: true, to: true });
const TARGET_TYPES = [...new Set(Object.values(AUDIT_ACTIONS))];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = adminPageActor(context);
  const t = pageTranslations(context, params.locale);
  const raw = pageQuery(request, [...FILTER_NAMES, "page", "limit"]);
  const filled = FILTER_NAMES.flatMap((name): [string, string][] => (raw[name] === undefined ? [] : [[name, raw[name]]]));
  const submission = parseSubmission(new URLSearchParams(filled));
  const actors = await auditActorChoices(actor);
  // Only administrators read these names: they come with the page, not in every page's dictionary.
  const { actions, targetTypes } = serverTranslations(resolveLocale(params.locale), actor.organizationKind).auditLog;
  const answer = (list: Awaited<ReturnType<typeof listAuditEvents>>, errors: DateFilterErrors) => ({
    ...list,
    errors,
    actors,
    labels: { actions, targetTypes },
    filters: { validation: clientValidation(pageFilters, t), result: pageResult(submission, { fieldErrors: { ...errors }, formError: null }) },
  });
  const empty = { events: [], total: 0, page: 1, limit: 20 };
  const parsed = listAuditQuery.safeParse(raw);
  if (!parsed.success) {
    const errors = dateParseErrors(t, parsed.error);
    if (errors) return answer(empty, errors);
    // Any other hand-edited value (an action that is not one) is left out, as the other lists do.
    return answer(await listAuditEvents(actor, listAuditQuery.parse({})), {});
  }
  try {
    return answer(await listAuditEvents(actor, parsed.data), {});
  } catch (error) {
    return answer(empty, dateRangeErrors(t, error));
  }
}

type AuditEvent = Route.ComponentProps["loaderData"]["events"][number];

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const [params] = useSearchParams();
  const { errors } = loaderData;
  const { form, fields } = useForm(pageFormOptions(loaderData.filters.validation, loaderData.filters.result));
  const exportFilters = new URLSearchParams(FILTER_NAMES.flatMap((name): [string, string][] => (params.get(name) ? [[name, params.get(name) ?? ""]] : [])));
  return (
    <div className="space-y-6">
      <PageHeader
        title={t.audit.title}
        description={t.audit.description}
        actions={
          <>
            <SectionLink to={paths.adminUsers(locale)}>{t.adminUsers.title}</SectionLink>
            <SectionLink to={paths.organizationSettings(locale)}>{t.organizationSettings.title}</SectionLink>
          </>
        }
      />
      <SearchForm label={t.audit.targetId} name="targetId" form={form}>
        <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-start">
          <FilterSelect
            name="actorId"
            label={t.audit.actor}
            all={t.audit.anyActor}
            choices={loaderData.actors.map((user) => ({ id: user.id, label: user.name }))}
            className="col-span-2 min-w-0 sm:w-56"
          />
          <FilterSelect
            name="action"
            label={t.audit.action}
            all={t.audit.anyAction}
            choices={auditActions.map((action) => ({ id: action, label: loaderData.labels.actions[action] }))}
            className="col-span-2 min-w-0 sm:w-64"
          />
          <FilterSelect
            name="targetType"
            label={t.audit.targetType}
            all={t.audit.anyTarget}
            choices={TARGET_TYPES.map((type) => ({ id: type, label: loaderData.labels.targetTypes[type] }))}
            className="col-span-2 min-w-0 sm:w-48"
          />
          <DateRangeFields from={fields.from} to={fields.to} labels={{ from: t.audit.from, to: t.audit.to }} />
        </div>
      </SearchForm>
      <p>
        <a
          href={`/api/audit/export${exportFilters.size > 0 ? `?${exportFilters}` : ""}`}
          download
          className="inline-flex min-h-9 items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50"
        >
          {t.audit.exportCsv}
        </a>
      </p>
      <section aria-labelledby="audit-events" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <h2 id="audit-events" className="sr-only">
          {t.audit.events}
        </h2>
        {loaderData.events.length === 0 ? (
          <EmptyState title={(errors.from ?? errors.to) || t.audit.empty} />
        ) : (
          <ol className="divide-y divide-slate-200">
            {loaderData.events.map((event) => (
              <EventRow key={event.id} event={event} locale={locale} labels={loaderData.labels} />
            ))}
          </ol>
        )}
      </section>
      <Pagination total={loaderData.total} page={loaderData.page} limit={loaderData.limit} />
    </div>
  );
}

/** Where a target's own page is, for the kinds of thing that have one. */
function targetHref(locale: Locale, type: string, id: string, details: Record<string, unknown> | null): string | null {
  switch (type) {
    case "form":
      return paths.form(locale, id);
    case "student":
      return paths.student(locale, id);
    case "candidate":
      return paths.candidate(locale, id);
    case "group":
      return paths.group(locale, id);
    case "submission":
      return paths.report(locale, id);
    case "person":
      return details?.kind === "candidate" ? paths.candidate(locale, id) : details?.kind === "student" ? paths.student(locale, id) : null;
    default:
      return null;
  }
}

const ROLES = ["SUPER_ADMIN", "ADMIN", "TEACHER", "STUDENT"] as const;
const isRole = (value: unknown): value is (typeof ROLES)[number] => ROLES.includes(value as (typeof ROLES)[number]);

/**
 * A detail's value as the page's reader reads it: a role in their words (a clinic's clinician),
 * yes or no; anything else (field names, counts, filters) as the event stored it.
 */
function detailText(t: ReturnType<typeof useT>, key: string, value: unknown): string {
  if (key === "role" && isRole(value)) return t.user.roles[value];
  if (typeof value === "boolean") return value ? t.common.yes : t.common.no;
  return typeof value === "string" ? value : JSON.stringify(value);
}

type Labels = Route.ComponentProps["loaderData"]["labels"];

function EventRow({ event, locale, labels }: { event: AuditEvent; locale: Locale; labels: Labels }) {
  const t = useT();
  const format = useFormat();
  const action = event.action as AuditAction;
  const targetType = event.target.type as keyof Labels["targetTypes"];
  const href = event.target.id ? targetHref(locale, event.target.type, event.target.id, event.details) : null;
  const who =
    event.actor.kind === "SYSTEM"
      ? t.audit.actorKinds.SYSTEM
      : event.actor.kind === "RESPONDENT"
        ? t.audit.actorKinds.RESPONDENT
        : (event.actor.name ?? t.audit.unknownUser);
  const details = Object.entries(event.details ?? {});
  return (
    <li className="px-4 py-3 sm:px-5" data-audit-action={event.action}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="font-medium text-slate-900">{labels.actions[action] ?? event.action}</p>
        <time dateTime={new Date(event.at).toISOString()} className="text-sm whitespace-nowrap text-slate-600 tabular-nums">
          {format.dateTime(event.at)}
        </time>
      </div>
      <p className="mt-1 flex flex-wrap items-center gap-1.5 text-sm text-slate-700">
        <span className="wrap-anywhere">{who}</span>
        {event.actor.kind === "TOKEN" ? <Badge tone="info">{t.audit.actorKinds.TOKEN}</Badge> : null}
        {event.target.id ? (
          <>
            <span aria-hidden="true">·</span>
            <span>{labels.targetTypes[targetType] ?? event.target.type}</span>
            {href ? (
              <Link to={href} className="font-mono text-xs text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                {event.target.id}
              </Link>
            ) : (
              <span className="font-mono text-xs wrap-anywhere">{event.target.id}</span>
            )}
          </>
        ) : null}
      </p>
      {details.length > 0 ? (
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
          {details.map(([key, value]) => (
            <div key={key} className="flex gap-1">
              <dt className="font-mono">{key}</dt>
              <dd className="wrap-anywhere">{detailText(t, key, value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p className="mt-1 text-xs text-slate-500">
        {event.ip ? <span>{t.audit.ip(event.ip)} </span> : null}
        {event.requestId ? <span className="wrap-anywhere">{t.audit.requestId(event.requestId)}</span> : null}
      </p>
    </li>
  );
}
