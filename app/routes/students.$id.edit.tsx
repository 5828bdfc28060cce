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
import { documentTitle, translations } from "~/i18n/dictionaries.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, staffPageActor, readPagePost } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, loaderData }) => {
  const locale = resolveLocale(params.locale);
  const t = translations(locale);
  return [{ title: documentTitle(locale, loaderData ? t.students.editTitle(loaderData.student.name) : t.students.title) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const { submissions: _, ...student } = await forPage(getStudent(actor, params.id));
  return { student, validation: clientValidation(createStudentBody, translations(resolveLocale(params.locale))) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const formData = await readPagePost(request);
  const parsed = parseProfile(formData, updateStudentBody, { withStatus: true, t: translations(resolveLocale(params.locale)) });
  if (!parsed.ok) return parsed.reply;
  const saved = await saveProfile(updateStudent(actor, params.id, parsed.data), parsed.submission, translations(resolveLocale(params.locale)));
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
