import { Form, data } from "react-router";
import type { Route } from "./+types/profile";
import type { z } from "zod";
import { Alert } from "~/components/alert.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { Badge } from "~/components/badge.tsx";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { Field } from "~/components/field.tsx";
import { PageHeader, Section, SectionLink } from "~/components/page-header.tsx";
import { changePasswordBody } from "~/features/passwords/password-schemas.ts";
import { changePassword } from "~/features/passwords/passwords.server.ts";
import { endOtherSessions, listSessions } from "~/features/users/sessions.server.ts";
import { updateProfileBody } from "~/features/users/user-schemas.ts";
import { getProfile, updateProfile } from "~/features/users/users.server.ts";
import { documentTitle, translations, type Dictionary } from "~/i18n/dictionaries.ts";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";
import { verifyCsrfToken } from "~/lib/auth/csrf.server.ts";
import {
  beginTwoFactorSetup,
  disableTwoFactor,
  enableTwoFactor,
  twoFactorDisableBody,
  twoFactorEnableBody,
  type TwoFactorSetupResult,
} from "~/features/auth/two-factor.server.ts";
import { clientAddressContext } from "~/lib/context.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, pageActor, pageError } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, issueTexts, pageErrors } from "~/lib/problem.server.ts";
import { clientValidation, pageResult } from "~/lib/client-validation.server.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { formSubmission } from "~/lib/http.server.ts";
import type { Submission } from "@conform-to/react/future";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";

export const meta: Route.MetaFunction = ({ params }) => {
  const locale = resolveLocale(params.locale);
  return [{ title: documentTitle(locale, translations(locale).profile.title) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = pageActor(context);
  const [profile, sessions] = await Promise.all([forPage(getProfile(actor.userId)), listSessions(actor)]);
  const t = translations(resolveLocale(params.locale));
  const validation = {
    details: clientValidation(updateProfileBody, t),
    password: clientValidation(changePasswordBody, t),
    enable: clientValidation(twoFactorEnableBody, t),
    disable: clientValidation(twoFactorDisableBody, t),
  };
  return { profile, sessions, validation };
}

type Intent = "details" | "password" | "setup" | "enable" | "disable" | "sessions";
type ActionData = {
  intent: Intent;
  errors: Record<string, string>;
  formError: string | null;
  setup?: TwoFactorSetupResult | null;
  method?: "TOTP" | "EMAIL" | null;
  /** The refusal for Conform (useForm with pageFormOptions), for the forms that use it. */
  result?: ReturnType<typeof pageResult>;
};

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : undefined);

/** A service's refusal, in the page's language next to the fields it names. */
function failure(t: Dictionary, submission: Submission, intent: Intent, error: unknown, extra: Partial<ActionData> = {}) {
  if (!(error instanceof ApiError)) throw error;
  const { fieldErrors, formError } = pageErrors(t, error);
  const result = pageResult(submission, { fieldErrors, formError });
  return data<ActionData>({ intent, errors: fieldErrors, formError, result, ...extra }, { status: error.status === 401 ? 400 : error.status });
}

function invalid(t: Dictionary, submission: Submission, intent: Intent, issues: readonly z.core.$ZodIssue[], extra: Partial<ActionData> = {}) {
  const errors = issueTexts(t, issues);
  return data<ActionData>(
    { intent, errors, formError: null, result: pageResult(submission, { fieldErrors: errors, formError: null }), ...extra },
    { status: 400 },
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = pageActor(context);
  const locale = resolveLocale(params.locale);
  const t = translations(locale);
  const formData = await request.formData();
  const submission = formSubmission(formData);
  // A missing or stale token (a form left open for long, a forged post): the friendly 403 page, not a 500.
  await verifyCsrfToken(request, text(formData.get("csrfToken"))).catch(() => {
    throw pageError(403);
  });
  const intent = text(formData.get("intent")) as Intent | undefined;
  const back = paths.profile(locale);

  switch (intent) {
    case "details": {
      const image = formData.get("image");
      const age = text(formData.get("age"));
      const email = text(formData.get("email"))?.trim();
      const input: Record<string, unknown> = {
        name: text(formData.get("name")) ?? "",
        phone: text(formData.get("phone")) ?? "",
        ...(email && email.toLowerCase() !== actor.email.toLowerCase() ? { email, currentPassword: text(formData.get("currentPassword")) || undefined } : {}),
        ...(actor.role === "TEACHER" ? { specialty: text(formData.get("specialty")) ?? "" } : {}),
        ...(actor.role === "STUDENT"
          ? {
              age: age === undefined || age.trim() === "" ? null : Number(age),
              grade: text(formData.get("grade")) ?? "",
              gender: text(formData.get("gender")) ?? "",
            }
          : {}),
        ...(image instanceof File && image.size > 0 ? { image } : {}),
      };
      const parsed = updateProfileBody.safeParse(input);
      if (!parsed.success) return invalid(t, submission, "details", parsed.error.issues);
      try {
        await updateProfile(actor, parsed.data);
      } catch (error) {
        return failure(t, submission, "details", error);
      }
      throw await redirectWithFlash(back, { kind: "success", key: "profileSaved" });
    }
    case "password": {
      const parsed = changePasswordBody.safeParse({
        currentPassword: text(formData.get("currentPassword")) ?? "",
        newPassword: text(formData.get("newPassword")) ?? "",
      });
      if (!parsed.success) return invalid(t, submission, "password", parsed.error.issues);
      let setCookie: string;
      try {
        ({ setCookie } = await changePassword(actor, parsed.data, {
          ipAddress: context.get(clientAddressContext),
          userAgent: request.headers.get("user-agent"),
        }));
      } catch (error) {
        return failure(t, submission, "password", error);
      }
      throw await redirectWithFlash(back, { kind: "success", key: "passwordChanged" }, { headers: { "Set-Cookie": setCookie } });
    }
    case "setup": {
      const method = text(formData.get("method")) === "EMAIL" ? "EMAIL" : "TOTP";
      try {
        const setup = await beginTwoFactorSetup(actor, method);
        return data<ActionData>({ intent, errors: {}, formError: null, setup, method });
      } catch (error) {
        return failure(t, submission, "setup", error);
      }
    }
    case "enable": {
      const method = text(formData.get("method")) === "EMAIL" ? "EMAIL" : "TOTP";
      const parsed = twoFactorEnableBody.safeParse({ code: text(formData.get("code")) ?? "" });
      if (!parsed.success) return invalid(t, submission, "enable", parsed.error.issues, { method });
      try {
        await enableTwoFactor(actor, parsed.data.code);
      } catch (error) {
        return failure(t, submission, "enable", error, { method });
      }
      throw await redirectWithFlash(back, { kind: "success", key: "twoFactorOn" });
    }
    case "disable": {
      const parsed = twoFactorDisableBody.safeParse({ password: text(formData.get("password")) ?? "" });
      if (!parsed.success) return invalid(t, submission, "disable", parsed.error.issues);
      try {
        await disableTwoFactor(actor, parsed.data.password);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          const errors = { password: t.profile.wrongPassword };
          return data<ActionData>(
            { intent, errors, formError: null, result: pageResult(submission, { fieldErrors: errors, formError: null }) },
            { status: 400 },
          );
        }
        return failure(t, submission, "disable", error);
      }
      throw await redirectWithFlash(back, { kind: "success", key: "twoFactorOff" });
    }
    case "sessions": {
      await endOtherSessions(actor);
      throw await redirectWithFlash(back, { kind: "success", key: "sessionsEnded" });
    }
    default:
      return data<ActionData>({ intent: "details", errors: {}, formError: t.profile.unknownAction }, { status: 400 });
  }
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { profile } = loaderData;
  return (
    <div className="space-y-8">
      <PageHeader
        title={t.profile.title}
        description={t.profile.description}
        actions={<SectionLink to={paths.apiTokens(locale)}>{t.apiTokens.link}</SectionLink>}
      />
      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        <DetailsSection profile={profile} result={actionData?.intent === "details" ? actionData : undefined} validation={loaderData.validation.details} />
        <div className="space-y-6">
          <PasswordSection result={actionData?.intent === "password" ? actionData : undefined} validation={loaderData.validation.password} />
          <TwoFactorSection
            profile={profile}
            result={actionData && ["setup", "enable", "disable"].includes(actionData.intent) ? actionData : undefined}
            validation={loaderData.validation}
          />
        </div>
      </div>
      <SessionsSection sessions={loaderData.sessions} />
    </div>
  );
}

type Profile = Route.ComponentProps["loaderData"]["profile"];

function FormError({ message }: { message: string | null | undefined }) {
  return message ? <Alert tone="error">{message}</Alert> : null;
}

/** The profile's forms' error summaries: what each field is called and where it is. */
function useProfileSummary() {
  const t = useT();
  const labels: Record<string, string> = {
    image: t.profile.avatar,
    name: t.profile.name,
    email: t.profile.email,
    currentPassword: t.profile.currentPassword,
    phone: t.profile.phone,
    specialty: t.profile.specialty,
    age: t.profile.age,
    grade: t.profile.grade,
    gender: t.profile.gender,
    newPassword: t.profile.newPassword,
    code: t.profile.code,
    password: t.profile.password,
  };
  return (ids: Record<string, string> = {}) => ({ label: (name: string) => labels[name], target: (name: string) => ids[name] ?? name });
}

type DetailsField = "image" | "name" | "email" | "currentPassword" | "phone" | "specialty" | "age" | "grade" | "gender";

function DetailsSection({ profile, result, validation }: { profile: Profile; result: ActionData | undefined; validation: ClientValidation<DetailsField> }) {
  const t = useT();
  const { form, fields } = useForm(
    pageFormOptions(validation, result?.result, {
      name: profile.name,
      email: profile.email,
      phone: profile.phone ?? "",
      specialty: profile.teacher?.specialty ?? "",
      age: profile.student?.age === null || profile.student?.age === undefined ? "" : String(profile.student.age),
      grade: profile.student?.grade ?? "",
      gender: profile.student?.gender ?? "",
    }),
  );
  const input = (field: DetailsField) => ({ id: field, name: fields[field].name, error: fields[field].errors });
  const summary = useProfileSummary();
  const value = (field: DetailsField) => ({ ...input(field), defaultValue: fields[field].defaultValue ?? "" });
  return (
    <Section id="details" title={t.profile.detailsTitle} description={t.profile.detailsDescription}>
      <Form method="post" encType="multipart/form-data" className="space-y-5 px-4 py-5 sm:px-5" {...form.props}>
        <CsrfInput />
        <ErrorSummary form={form} {...summary()} />
        <div className="flex items-center gap-4">
          {profile.image ? (
            <img
              src={profile.image}
              alt={t.profile.currentAvatar}
              width={64}
              height={64}
              className="size-16 rounded-full border border-slate-200 object-cover"
            />
          ) : (
            <span className="flex size-16 items-center justify-center rounded-full bg-indigo-50 text-xl font-semibold text-indigo-800" aria-hidden="true">
              {profile.name.slice(0, 1).toUpperCase()}
            </span>
          )}
          <Field
            className="min-w-0 flex-1"
            label={t.profile.avatar}
            description={t.profile.avatarHint}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            {...input("image")}
          />
        </div>
        <Field label={t.profile.name} required autoComplete="name" {...value("name")} />
        <Field label={t.profile.email} type="email" required autoComplete="email" {...value("email")} />
        <Field
          label={t.profile.currentPassword}
          description={t.profile.emailPasswordHint}
          type="password"
          autoComplete="current-password"
          {...input("currentPassword")}
        />
        <Field label={t.profile.phone} type="tel" autoComplete="tel" {...value("phone")} />
        {profile.role === "TEACHER" ? <Field label={t.profile.specialty} {...value("specialty")} /> : null}
        {profile.role === "STUDENT" ? (
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label={t.profile.age} type="number" min={0} max={150} inputMode="numeric" {...value("age")} />
            <Field label={t.profile.grade} {...value("grade")} />
            <Field label={t.profile.gender} {...value("gender")} />
          </div>
        ) : null}
        <Button type="submit" name="intent" value="details" variant="primary" pendingText={t.common.saving}>
          {t.profile.saveDetails}
        </Button>
      </Form>
    </Section>
  );
}

function PasswordSection({ result, validation }: { result: ActionData | undefined; validation: ClientValidation<"currentPassword" | "newPassword"> }) {
  const t = useT();
  const { form, fields } = useForm(pageFormOptions(validation, result?.result));
  const summary = useProfileSummary();
  return (
    <Section id="password" title={t.profile.passwordTitle} description={t.profile.passwordRules}>
      <Form method="post" className="space-y-5 px-4 py-5 sm:px-5" {...form.props}>
        <CsrfInput />
        <ErrorSummary form={form} {...summary({ currentPassword: "password-current", newPassword: "password-new" })} />
        <Field
          label={t.profile.currentPassword}
          id="password-current"
          name={fields.currentPassword.name}
          type="password"
          required
          autoComplete="current-password"
          error={fields.currentPassword.errors}
        />
        <Field
          label={t.profile.newPassword}
          id="password-new"
          name={fields.newPassword.name}
          type="password"
          required
          autoComplete="new-password"
          minLength={8}
          maxLength={128}
          error={fields.newPassword.errors}
        />
        <Button type="submit" name="intent" value="password" variant="primary" pendingText={t.common.saving}>
          {t.profile.changePassword}
        </Button>
      </Form>
    </Section>
  );
}

function TwoFactorSection({
  profile,
  result,
  validation,
}: {
  profile: Profile;
  result: ActionData | undefined;
  validation: Route.ComponentProps["loaderData"]["validation"];
}) {
  const t = useT();
  const setup = result?.setup ?? null;
  const awaitingCode = !profile.twoFactorEnabled && (setup !== null || result?.intent === "enable");
  const method = setup?.method ?? result?.method ?? "TOTP";
  return (
    <Section id="two-factor" title={t.profile.twoFactorTitle} description={t.profile.twoFactorDescription}>
      <div className="space-y-5 px-4 py-5 sm:px-5">
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
          <Badge tone={profile.twoFactorEnabled ? "success" : "neutral"}>{profile.twoFactorEnabled ? t.profile.on : t.profile.off}</Badge>
          {profile.twoFactorMethod === "TOTP" ? t.profile.onTotp : profile.twoFactorMethod === "EMAIL" ? t.profile.onEmail : t.profile.offText}
        </p>
        {!profile.twoFactorEnabled && result?.intent === "setup" ? <FormError message={result.formError} /> : null}

        {awaitingCode ? (
          <EnableTwoFactorForm setup={setup} method={method} result={result?.intent === "enable" ? result : undefined} validation={validation.enable} />
        ) : null}

        {!profile.twoFactorEnabled && !awaitingCode ? (
          <Form method="post" className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            <CsrfInput />
            <input type="hidden" name="intent" value="setup" />
            <Button type="submit" name="method" value="TOTP" variant="primary">
              {t.profile.setupTotp}
            </Button>
            <Button type="submit" name="method" value="EMAIL" variant="secondary">
              {t.profile.setupEmail}
            </Button>
          </Form>
        ) : null}
        {!profile.twoFactorEnabled && awaitingCode ? (
          <Form method="post" className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
            <CsrfInput />
            <input type="hidden" name="intent" value="setup" />
            <Button type="submit" name="method" value={method === "TOTP" ? "EMAIL" : "TOTP"} variant="ghost" size="sm">
              {method === "TOTP" ? t.profile.setupEmail : t.profile.setupTotp}
            </Button>
          </Form>
        ) : null}

        {profile.twoFactorEnabled ? <DisableTwoFactorForm result={result?.intent === "disable" ? result : undefined} validation={validation.disable} /> : null}
      </div>
    </Section>
  );
}

/** The code that turns the second factor on: from the authenticator app, or the one just e-mailed. */
function EnableTwoFactorForm({
  setup,
  method,
  result,
  validation,
}: {
  setup: TwoFactorSetupResult | null;
  method: "TOTP" | "EMAIL";
  result: ActionData | undefined;
  validation: ClientValidation<"code">;
}) {
  const t = useT();
  const { form, fields } = useForm(pageFormOptions(validation, result?.result));
  const summary = useProfileSummary();
  return (
    <Form method="post" className="space-y-4" {...form.props}>
      <CsrfInput />
      <input type="hidden" name="method" value={method} />
      <ErrorSummary form={form} {...summary({ code: "two-factor-code" })} />
      {setup?.method === "TOTP" ? (
        <>
          <p className="text-sm text-slate-700">{t.profile.totpInstructions}</p>
          <img src={setup.qrCode} alt={t.profile.qrAlt} width={192} height={192} className="size-48 rounded-lg border border-slate-200" />
          <div>
            <p className="text-sm font-medium text-slate-900" id="totp-secret-label">
              {t.profile.secret}
            </p>
            <code id="totp-secret" className="mt-1 block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900">
              {setup.secret}
            </code>
          </div>
        </>
      ) : setup?.method === "EMAIL" ? (
        <p className="text-sm text-slate-700">{t.profile.emailSent(setup.sentTo)}</p>
      ) : (
        <p className="text-sm text-slate-700">{method === "TOTP" ? t.profile.enterTotp : t.profile.enterEmailCode}</p>
      )}
      <Field
        label={t.profile.code}
        id="two-factor-code"
        name={fields.code.name}
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        maxLength={6}
        error={fields.code.errors}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="enable" variant="primary" pendingText={t.common.working}>
          {t.profile.enable}
        </Button>
      </div>
    </Form>
  );
}

/** Turning the second factor off asks for the password again. */
function DisableTwoFactorForm({ result, validation }: { result: ActionData | undefined; validation: ClientValidation<"password"> }) {
  const t = useT();
  const { form, fields } = useForm(pageFormOptions(validation, result?.result));
  const summary = useProfileSummary();
  return (
    <Form method="post" className="space-y-4" {...form.props}>
      <CsrfInput />
      <ErrorSummary form={form} {...summary({ password: "disable-password" })} />
      <Field
        label={t.profile.password}
        description={t.profile.disableHint}
        id="disable-password"
        name={fields.password.name}
        type="password"
        autoComplete="current-password"
        required
        error={fields.password.errors}
      />
      <Button type="submit" name="intent" value="disable" variant="danger" pendingText={t.common.working}>
        {t.profile.disable}
      </Button>
    </Form>
  );
}

function SessionsSection({ sessions }: { sessions: Route.ComponentProps["loaderData"]["sessions"] }) {
  const t = useT();
  const format = useFormat();
  const others = sessions.filter((session) => !session.current).length;
  return (
    <Section
      id="sessions"
      title={t.profile.sessionsTitle}
      description={t.profile.sessionsDescription}
      actions={
        others > 0 ? (
          <Form method="post">
            <CsrfInput />
            <Button type="submit" name="intent" value="sessions" variant="secondary" size="sm" pendingText={t.common.working}>
              {t.profile.endOthers}
            </Button>
          </Form>
        ) : null
      }
    >
      <ul className="divide-y divide-slate-200">
        {sessions.map((session) => (
          <li key={session.id} className="px-4 py-3 sm:px-5">
            <div className="flex flex-wrap items-center gap-2">
              <p className="min-w-0 font-medium wrap-anywhere text-slate-900">{session.userAgent ?? t.profile.unknownDevice}</p>
              {session.current ? <Badge tone="info">{t.profile.thisDevice}</Badge> : null}
            </div>
            <p className="mt-0.5 text-sm text-slate-600">
              {t.profile.signedInAt(format.dateTime(session.createdAt))}
              <span aria-hidden="true"> · </span>
              {t.profile.lastSeen(format.dateTime(session.lastSeenAt))}
              <span aria-hidden="true"> · </span>
              {t.profile.ipAddress(session.ipAddress ?? "—")}
            </p>
          </li>
        ))}
      </ul>
      {others === 0 ? <p className="border-t border-slate-200 px-4 py-3 text-sm text-slate-600 sm:px-5">{t.profile.onlyThisDevice}</p> : null}
    </Section>
  );
}
