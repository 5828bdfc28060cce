import type { Route } from "./+types/students.import";
import { RosterImportPage } from "~/components/people/roster-import.tsx";
import { importFileValidation, rosterImportPost } from "~/features/people/roster-import-page.server.ts";
import { documentTitle, translations } from "~/i18n/dictionaries.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { staffPageActor } from "~/lib/page.server.ts";

export const meta: Route.MetaFunction = ({ params }) => {
  const locale = resolveLocale(params.locale);
  const t = translations(locale);
  return [{ title: documentTitle(locale, t.rosterImport.title(t.students.title.toLowerCase())) }];
};

export function loader({ context, params }: Route.LoaderArgs) {
  staffPageActor(context);
  return { validation: importFileValidation(resolveLocale(params.locale)) };
}

export function action({ request, context, params }: Route.ActionArgs) {
  return rosterImportPost(request, staffPageActor(context), "students", resolveLocale(params.locale));
}

export default function ImportStudents({ loaderData, actionData }: Route.ComponentProps) {
  return <RosterImportPage kind="students" validation={loaderData.validation} answer={actionData} />;
}
