import { useForm } from "@conform-to/react/future";
import { Form } from "react-router";
import type { Route } from "./+types/profile.password";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { Field } from "~/components/field.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { Section } from "~/components/page-header.tsx";
import { profilePageMeta, useProfileSummary } from "~/components/profile/profile-page.ts";
import { changePasswordBody } from "~/features/passwords/password-schemas.ts";
import { changePassword } from "~/features/passwords/passwords.server.ts";
import { useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { clientAddressContext } from "~/lib/context.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { pageActor, parsePagePost, serviceRefusal, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * Changing one's password (/profile/password), through the same schema and service as
 * POST /api/user/password: every other session and token ends, and this browser gets a new session.
 */
export const meta: Route.MetaFunction = (args) => profilePageMeta(args, (t) => t.profile.passwordTitle);

export function loader({ context, params }: Route.LoaderArgs) {
  return { validation: clientValidation(changePasswordBody, pageTranslations(context, params.locale)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = pageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const form = await parsePagePost(request, changePasswordBody, t, { skip: ["intent"] });
  if (!form.ok) return form.reply;
  let setCookie: string;
  try {
    ({ setCookie } = await changePassword(actor, form.value, { ipAddress: context.get(clientAddressContext), userAgent: request.headers.get("user-agent") }));
  } catch (error) {
    // A wrong current password (400 naming it) is shown by its field; a throttled one (429) above the form.
    return serviceRefusal(t, form.submission, error);
  }
  throw await redirectWithFlash(paths.profilePassword(locale), { kind: "success", key: "passwordChanged" }, { headers: { "Set-Cookie": setCookie } });
}

export default function ProfilePassword({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { form, fields } = useForm(pageFormOptions(loaderData.validation, actionData?.result));
  const summary = useProfileSummary();
  return (
    <Section id="password" title={t.profile.passwordTitle} description={t.profile.passwordRules} className="max-w-3xl">
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
        <Button type="submit" variant="primary" pendingText={t.common.saving}>
          {t.profile.changePassword}
        </Button>
      </Form>
    </Section>
  );
}
