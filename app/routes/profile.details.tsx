import { useForm } from "@conform-to/react/future";
import { Form } from "react-router";
import type { Route } from "./+types/profile.details";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { Field } from "~/components/field.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { Section } from "~/components/page-header.tsx";
import { profilePageMeta, useProfileSummary } from "~/components/profile/profile-page.ts";
import { updateProfileBody } from "~/features/users/user-schemas.ts";
import { getProfile, updateProfile } from "~/features/users/users.server.ts";
import { useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, pageActor, parsePagePost, serviceRefusal, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * The profile's details and avatar (/profile, the layout's index: its form posts to
 * /profile?index), through the same schema and service as PUT /api/user/profile: a multipart
 * form, so the avatar goes with the rest.
 */
export const meta: Route.MetaFunction = (args) => profilePageMeta(args, (t) => t.profile.detailsTitle);

/** Optional fields the form shows: posted empty, they are cleared. */
const CLEARABLE = ["phone", "specialty", "age", "grade", "gender"] as const;

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = pageActor(context);
  const profile = await forPage(getProfile(actor.userId));
  return { profile, validation: clientValidation(updateProfileBody, pageTranslations(context, params.locale)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = pageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const form = await parsePagePost(request, updateProfileBody, t, { skip: ["intent"], clearWhenEmpty: CLEARABLE });
  if (!form.ok) return form.reply;
  try {
    await updateProfile(actor, form.value);
  } catch (error) {
    return serviceRefusal(t, form.submission, error);
  }
  throw await redirectWithFlash(paths.profile(locale), { kind: "success", key: "profileSaved" });
}

type DetailsField = "image" | "name" | "email" | "currentPassword" | "phone" | "specialty" | "age" | "grade" | "gender";

export default function ProfileDetails({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { profile } = loaderData;
  const { form, fields } = useForm(
    pageFormOptions(loaderData.validation, actionData?.result, {
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
  const value = (field: DetailsField) => ({ ...input(field), defaultValue: fields[field].defaultValue ?? "" });
  const summary = useProfileSummary();
  return (
    <Section id="details" title={t.profile.detailsTitle} description={t.profile.detailsDescription} className="max-w-3xl">
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
        <Button type="submit" variant="primary" pendingText={t.common.saving}>
          {t.profile.saveDetails}
        </Button>
      </Form>
    </Section>
  );
}
