import type { Route } from "./+types/students";
import { PersonListPage } from "~/components/people/person-list.tsx";
import { listStudents } from "~/features/students/students.server.ts";
import { listStudentsQuery } from "~/features/students/student-schemas.ts";
import { STUDENT_STATUSES } from "~/features/students/student-statuses.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { groupChoices } from "~/features/groups/groups.server.ts";
import { staffPageActor } from "~/lib/page.server.ts";
import { pageQuery } from "~/lib/http.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.students.title) }];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const params = pageQuery(request, ["page", "limit", "search", "status", "groupId"]);
  // A hand-edited query that does not parse (page=abc) shows the first page of everything.
  const parsed = listStudentsQuery.safeParse(params);
  const query = parsed.success ? parsed.data : listStudentsQuery.parse({});
  const [{ students, total, page, limit }, groups] = await Promise.all([listStudents(actor, query), groupChoices(actor)]);
  return { rows: students, total, page, limit, status: query.status, groups, groupId: query.groupId };
}

export default function Students({ loaderData }: Route.ComponentProps) {
  return <PersonListPage kind="students" statuses={STUDENT_STATUSES} {...loaderData} />;
}
