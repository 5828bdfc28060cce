import type { Route } from "./+types/students.import";
import { RosterImportPage } from "~/components/people/roster-import.tsx";
import { importFileValidation, rosterImportPost } from "~/features/people/roster-import-page.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { staffPageActor, pageTranslations } from "~/lib/page.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.rosterImport.title(t.students.title.toLowerCase())) }];
};

export function loader({ context, params }: Route.LoaderArgs) {
  staffPageActor(context);
  return { validation: importFileValidation(pageTranslations(context, params.locale)) };
}

export function action({ request, context, params }: Route.ActionArgs) {
  return rosterImportPost(request, staffPageActor(context), "students", resolveLocale(params.locale));
}

export default function ImportStudents({ loaderData, actionData }: Route.ComponentProps) {
  return <RosterImportPage kind="students" validation={loaderData.validation} answer={actionData} />;
}
