import { Form, Link, data, useLocation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/admin.users";
import { Alert } from "~/components/alert.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { Badge } from "~/components/badge.tsx";
import { Button, LinkButton } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { EmptyState } from "~/components/empty-state.tsx";
import { Field, Select } from "~/components/field.tsx";
import { PageHeader, Section, SectionLink } from "~/components/page-header.tsx";
import { Pagination } from "~/components/pagination.tsx";
import { SearchForm } from "~/components/search-form.tsx";
import { listUsersQuery, updateUserBody, type UpdateUserInput } from "~/features/users/user-admin-schemas.ts";
import { listUsers, revokeSessions, updateUser } from "~/features/users/user-admin.server.ts";
import { createUserBody } from "~/features/users/user-schemas.ts";
import { createUser } from "~/features/users/users.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import type { Role } from "~/lib/auth/actor.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { adminPageActor, forPage, pageError, parsePageForm, postedIntent, readPagePost, refusal, serviceRefusal, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, problemTextOf } from "~/lib/problem.server.ts";
import { idSchema } from "~/lib/schemas.ts";
import { clientValidation, type pageResult } from "~/lib/client-validation.server.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { pageQuery } from "~/lib/http.server.ts";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.adminUsers.title) }];
};

/** The same lists as the schemas' (which are server-only modules): every role, and those a staff login moves between. */
const ROLES = ["SUPER_ADMIN", "ADMIN", "TEACHER", "STUDENT"] as const satisfies readonly Role[];
const STAFF_ROLES = ["SUPER_ADMIN", "ADMIN", "TEACHER"] as const satisfies readonly Role[];

const STATUSES = { active: "true", inactive: "false" } as const;

/** The roles `role` may give: only a SUPER_ADMIN grants SUPER_ADMIN. */
const grantable = (role: Role): readonly Role[] => (role === "SUPER_ADMIN" ? ROLES : ROLES.filter((r) => r !== "SUPER_ADMIN"));

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = adminPageActor(context);
  const { status, confirmReset: confirmId, ...filters } = pageQuery(request, ["search", "role", "status", "page", "confirmReset"]);
  const query = listUsersQuery.safeParse({ ...filters, ...(status === "active" || status === "inactive" ? { isActive: STATUSES[status] } : {}) });
  const list = await forPage(listUsers(actor, query.success ? query.data : listUsersQuery.parse({})));
  const confirmReset = confirmId ? (list.users.find((user) => user.id === confirmId) ?? null) : null;
  const validation = clientValidation(createUserBody, pageTranslations(context, params.locale));
  return { ...list, me: { id: actor.userId, role: actor.role }, grantable: grantable(actor.role), confirmReset, validation };
}

type ActionData = { intent: "create" | "manage"; formError: string | null; result?: ReturnType<typeof pageResult> };

/**
 * A row's forms: their button's intent and their user (PATCH /api/users/:id has the id in its
 * path); a role change, the role too, as the API's body has it.
 */
const userRowForm = z.discriminatedUnion("intent", [
  z.strictObject({ intent: z.literal("role"), userId: idSchema, role: updateUserBody.shape.role.nonoptional() }),
  z.strictObject({ intent: z.enum(["activate", "deactivate", "resetTwoFactor", "revoke"]), userId: idSchema }),
]);

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = adminPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const formData = await readPagePost(request);
  const url = new URL(request.url);
  url.searchParams.delete("confirmReset");
  const back = `${paths.adminUsers(locale)}${url.search}`;
  const intent = postedIntent(formData, ["create", "role", "activate", "deactivate", "resetTwoFactor", "revoke"]);

  if (intent === "create") {
    // The form posts the API's body as it is, the page's language among it (the invitation's).
    const form = parsePageForm(formData, createUserBody, t, { skip: ["intent"] });
    const answer = (reply: ReturnType<typeof refusal>) => data<ActionData>({ intent: "create", formError: null, ...reply.data }, reply.init ?? undefined);
    if (!form.ok) return answer(form.reply);
    try {
      await createUser(actor, form.value);
    } catch (error) {
      if (error instanceof ApiError && error.code === "EMAIL_TAKEN") {
        return answer(refusal(form.submission, { fieldErrors: { email: t.adminUsers.emailTaken }, formError: null }, 409));
      }
      return answer(serviceRefusal(t, form.submission, error));
    }
    throw await redirectWithFlash(back, { kind: "success", key: form.value.password ? "userCreated" : "userInvited" });
  }

  const manageError = (formError: string, status: number) => data<ActionData>({ intent: "manage", formError }, { status });
  if (!intent) return manageError(t.adminUsers.unknownAction, 400);
  const form = parsePageForm(formData, userRowForm, t);
  if (!form.ok) {
    // Only the role is chosen; the user is a hidden field, so a wrong one names no user there is.
    if (form.fieldErrors.userId) throw pageError(404);
    return manageError(t.adminUsers.invalidRole, 400);
  }
  const row = form.value;
  /** What the row's button asks of PATCH /api/users/:id's service. */
  const change: UpdateUserInput | null =
    row.intent === "role"
      ? { role: row.role }
      : row.intent === "resetTwoFactor"
        ? { resetTwoFactor: true }
        : row.intent === "revoke"
          ? null
          : { isActive: row.intent === "activate" };
  try {
    if (change) await forPage(updateUser(actor, row.userId, change));
    else await forPage(revokeSessions(actor, row.userId));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // Changing one's own role or active flag names that field.
    const path = error.errors?.[0]?.path;
    return manageError(path === "isActive" || path === "role" ? t.adminUsers.notYourself : problemTextOf(t, error), error.status);
  }
  const flash = {
    role: "userUpdated",
    activate: "userActivated",
    deactivate: "userDeactivated",
    resetTwoFactor: "twoFactorReset",
    revoke: "userSignedOut",
  } as const;
  throw await redirectWithFlash(back, { kind: "success", key: flash[row.intent] });
}

type Data = Route.ComponentProps["loaderData"];
type User = Data["users"][number];

export default function AdminUsers({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  params.delete("confirmReset");
  const cancelHref = `${paths.adminUsers(locale)}${params.size > 0 ? `?${params}` : ""}`;
  return (
    <div className="space-y-8">
      <PageHeader
        title={t.adminUsers.title}
        description={t.adminUsers.description}
        actions={
          <>
            <SectionLink to={paths.organizationSettings(locale)}>{t.organizationSettings.title}</SectionLink>
            <SectionLink to={paths.adminWebhooks(locale)}>{t.adminWebhooks.title}</SectionLink>
            <SectionLink to={paths.adminAudit(locale)}>{t.audit.title}</SectionLink>
          </>
        }
      />
      {actionData?.intent === "manage" && actionData.formError ? <Alert tone="error">{actionData.formError}</Alert> : null}
      {loaderData.confirmReset ? (
        <section aria-labelledby="confirm-reset-title" className="rounded-xl border border-amber-300 bg-amber-50 p-4 sm:p-5">
          <h2 id="confirm-reset-title" className="font-semibold text-amber-950">
            {t.adminUsers.confirmResetTitle(loaderData.confirmReset.name)}
          </h2>
          <p className="mt-1 text-sm text-amber-950">{t.adminUsers.confirmResetText}</p>
          <Form method="post" className="mt-4 flex flex-wrap gap-2">
            <CsrfInput />
            <input type="hidden" name="userId" value={loaderData.confirmReset.id} />
            <Button type="submit" name="intent" value="resetTwoFactor" variant="danger" pendingText={t.common.working}>
              {t.adminUsers.confirmReset}
            </Button>
            <LinkButton to={cancelHref}>{t.common.cancel}</LinkButton>
          </Form>
        </section>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <div className="space-y-4 lg:col-span-2">
          <SearchForm label={t.adminUsers.search}>
            <Select
              name="role"
              label={t.adminUsers.role}
              placeholder={t.adminUsers.anyRole}
              defaultValue={params.get("role") ?? ""}
              options={ROLES.map((role) => ({ value: role, label: t.user.roles[role] }))}
            />
            <Select
              name="status"
              label={t.adminUsers.status}
              placeholder={t.adminUsers.anyStatus}
              defaultValue={params.get("status") ?? ""}
              options={[
                { value: "active", label: t.adminUsers.active },
                { value: "inactive", label: t.adminUsers.inactive },
              ]}
            />
          </SearchForm>
          <Section id="users" title={t.adminUsers.listTitle}>
            {loaderData.users.length === 0 ? (
              <EmptyState title={t.adminUsers.empty} />
            ) : (
              <ul className="divide-y divide-slate-200">
                {loaderData.users.map((user) => (
                  <UserRow key={user.id} user={user} data={loaderData} />
                ))}
              </ul>
            )}
          </Section>
          <Pagination total={loaderData.total} page={loaderData.page} limit={loaderData.limit} />
        </div>
        <CreateUser result={actionData?.intent === "create" ? actionData : undefined} grantable={loaderData.grantable} validation={loaderData.validation} />
      </div>
    </div>
  );
}

function UserRow({ user, data }: { user: User; data: Data }) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const { search } = useLocation();
  const isMe = user.id === data.me.id;
  const manageable = !isMe && (user.role !== "SUPER_ADMIN" || data.me.role === "SUPER_ADMIN");
  const confirmParams = new URLSearchParams(search);
  confirmParams.set("confirmReset", user.id);
  return (
    <li className="px-4 py-4 sm:px-5" data-user-email={user.email}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-medium wrap-anywhere text-slate-900">{user.name}</p>
            {isMe ? <Badge tone="info">{t.adminUsers.you}</Badge> : null}
          </div>
          <p className="text-sm wrap-anywhere text-slate-700">{user.email}</p>
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            <Badge>{t.user.roles[user.role]}</Badge>
            <Badge tone={user.isActive ? "success" : "danger"}>{user.isActive ? t.adminUsers.active : t.adminUsers.inactive}</Badge>
            {user.twoFactorEnabled ? <Badge tone="info">{t.adminUsers.twoFactorOn}</Badge> : null}
          </div>
          <p className="mt-1 text-sm text-slate-600">
            {user.lastLoginAt ? t.adminUsers.lastLogin(format.dateTime(user.lastLoginAt)) : t.adminUsers.neverSignedIn}
          </p>
        </div>
        {manageable ? (
          <details className="group w-full sm:w-auto">
            <summary className="inline-flex min-h-9 cursor-pointer items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50">
              {t.adminUsers.manage}
              <span className="sr-only">: {user.name}</span>
            </summary>
            <div className="mt-3 space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3 sm:w-80">
              {user.role !== "STUDENT" ? (
                <Form method="post" className="flex items-end gap-2">
                  <CsrfInput />
                  <input type="hidden" name="userId" value={user.id} />
                  <Select
                    className="min-w-0 flex-1"
                    id={`role-${user.id}`}
                    name="role"
                    label={t.adminUsers.role}
                    defaultValue={user.role}
                    options={STAFF_ROLES.filter((role) => data.grantable.includes(role)).map((role) => ({ value: role, label: t.user.roles[role] }))}
                  />
                  <Button type="submit" name="intent" value="role" size="sm" variant="secondary">
                    {t.adminUsers.changeRole}
                  </Button>
                </Form>
              ) : null}
              <Form method="post" className="flex flex-wrap gap-2">
                <CsrfInput />
                <input type="hidden" name="userId" value={user.id} />
                {user.isActive ? (
                  <Button type="submit" name="intent" value="deactivate" size="sm" variant="danger">
                    {t.adminUsers.deactivate}
                  </Button>
                ) : (
                  <Button type="submit" name="intent" value="activate" size="sm" variant="secondary">
                    {t.adminUsers.activate}
                  </Button>
                )}
                <Button type="submit" name="intent" value="revoke" size="sm" variant="secondary">
                  {t.adminUsers.signOutEverywhere}
                </Button>
              </Form>
              {user.twoFactorEnabled ? (
                <Link
                  to={`${paths.adminUsers(locale)}?${confirmParams}`}
                  className="inline-block text-sm font-medium text-indigo-700 underline hover:text-indigo-900"
                >
                  {t.adminUsers.resetTwoFactor}
                </Link>
              ) : null}
            </div>
          </details>
        ) : null}
      </div>
    </li>
  );
}

function CreateUser({
  result,
  grantable,
  validation,
}: {
  result: ActionData | undefined;
  grantable: readonly Role[];
  validation: ClientValidation<"name" | "email" | "role" | "password" | "locale">;
}) {
  const t = useT();
  const locale = useLocale();
  const { form, fields } = useForm(pageFormOptions(validation, result?.result, { role: "TEACHER" }));
  return (
    <Section id="create-user" title={t.adminUsers.createTitle} description={t.adminUsers.createDescription}>
      <Form method="post" className="space-y-4 px-4 py-5 sm:px-5" {...form.props}>
        <CsrfInput />
        {/* The language of the invitation e-mail: the administrator's page's. */}
        <input type="hidden" name="locale" value={locale} />
        <ErrorSummary
          form={form}
          fields={["name", "email", "role", "password"]}
          label={(name) => t.adminUsers[name as "name" | "email" | "role" | "password"]}
          target={(name) => `new-${name}`}
        />
        <Field label={t.adminUsers.name} id="new-name" name={fields.name.name} required defaultValue={fields.name.defaultValue} error={fields.name.errors} />
        <Field
          label={t.adminUsers.email}
          id="new-email"
          name={fields.email.name}
          type="email"
          required
          defaultValue={fields.email.defaultValue}
          error={fields.email.errors}
        />
        <Select
          label={t.adminUsers.role}
          id="new-role"
          name={fields.role.name}
          required
          defaultValue={fields.role.defaultValue ?? "TEACHER"}
          error={fields.role.errors}
          options={grantable.map((role) => ({ value: role, label: t.user.roles[role] }))}
        />
        <Field
          label={t.adminUsers.password}
          description={t.adminUsers.passwordHint}
          id="new-password"
          name={fields.password.name}
          type="password"
          autoComplete="new-password"
          error={fields.password.errors}
        />
        <Button type="submit" name="intent" value="create" variant="primary" pendingText={t.common.saving}>
          {t.adminUsers.create}
        </Button>
      </Form>
    </Section>
  );
}
