import type { Route } from "./+types/students.$id.edit";
import { BackLink } from "~/components/people/person-detail.tsx";
import { PersonForm } from "~/components/people/person-form.tsx";
import { useForm } from "@conform-to/react/future";
import { pageFormOptions } from "~/components/page-form.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { PageHeader } from "~/components/page-header.tsx";
import { profileValues } from "~/features/people/person-form.ts";
import { parseProfile, saveProfile } from "~/features/people/person-page.server.ts";
import { createStudentBody, updateStudentBody } from "~/features/students/student-schemas.ts";
import { STUDENT_STATUSES } from "~/features/students/student-statuses.ts";
import { getStudent, updateStudent } from "~/features/students/students.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, staffPageActor, readPagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData ? t.students.editTitle(loaderData.student.name) : t.students.title) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const { submissions: _, ...student } = await forPage(getStudent(actor, params.id));
  return { student, validation: clientValidation(createStudentBody, pageTranslations(context, params.locale)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const formData = await readPagePost(request);
  const parsed = parseProfile(formData, updateStudentBody, { withStatus: true, t: pageTranslations(context, params.locale) });
  if (!parsed.ok) return parsed.reply;
  const saved = await saveProfile(updateStudent(actor, params.id, parsed.data), parsed.submission, pageTranslations(context, params.locale));
  if (!saved.ok) return saved.reply;
  throw await redirectWithFlash(paths.student(resolveLocale(params.locale), params.id), { kind: "success", key: "saved" });
}

export default function EditStudent({ actionData, loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { student } = loaderData;
  const form = useForm(pageFormOptions(loaderData.validation, actionData?.result, profileValues(student)));
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to={paths.students(locale)} />
      <PageHeader title={t.students.editTitle(student.name)} />
      <PersonForm kind="students" form={form} statuses={STUDENT_STATUSES} submitLabel={t.people.save} cancelTo={paths.student(locale, student.id)} />
    </div>
  );
}
