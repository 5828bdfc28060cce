import type { Route } from "./+types/students.new";
import { BackLink } from "~/components/people/person-detail.tsx";
import { PersonForm } from "~/components/people/person-form.tsx";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { PageHeader } from "~/components/page-header.tsx";
import { parseProfile, saveProfile } from "~/features/people/person-page.server.ts";
import { createStudentBody } from "~/features/students/student-schemas.ts";
import { STUDENT_STATUSES } from "~/features/students/student-statuses.ts";
import { createStudent } from "~/features/students/students.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { staffPageActor, readPagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.students.newTitle) }];
};

export function loader({ context, params }: Route.LoaderArgs) {
  staffPageActor(context);
  return { validation: clientValidation(createStudentBody, pageTranslations(context, params.locale)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const formData = await readPagePost(request);
  const parsed = parseProfile(formData, createStudentBody, { withStatus: true, t: pageTranslations(context, params.locale) });
  if (!parsed.ok) return parsed.reply;
  const saved = await saveProfile(createStudent(actor, parsed.data), parsed.submission, pageTranslations(context, params.locale));
  if (!saved.ok) return saved.reply;
  throw await redirectWithFlash(paths.student(resolveLocale(params.locale), saved.value.id), { kind: "success", key: "created" });
}

export default function NewStudent({ actionData, loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const form = useForm(pageFormOptions(loaderData.validation, actionData?.result, { status: "ACTIVE" }));
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to={paths.students(locale)} />
      <PageHeader title={t.students.newTitle} />
      <PersonForm kind="students" form={form} statuses={STUDENT_STATUSES} submitLabel={t.students.create} cancelTo={paths.students(locale)} />
    </div>
  );
}
