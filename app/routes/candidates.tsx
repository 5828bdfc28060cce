import type { Route } from "./+types/candidates";
import { PersonListPage } from "~/components/people/person-list.tsx";
import { listCandidates } from "~/features/candidates/candidates.server.ts";
import { listCandidatesQuery } from "~/features/candidates/candidate-schemas.ts";
import { CANDIDATE_STATUSES } from "~/features/candidates/candidate-statuses.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { groupChoices } from "~/features/groups/groups.server.ts";
import { staffPageActor } from "~/lib/page.server.ts";
import { pageQuery } from "~/lib/http.server.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.candidates.title) }];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = staffPageActor(context);
  const params = pageQuery(request, ["page", "limit", "search", "status", "groupId"]);
  // A hand-edited query that does not parse (page=abc) shows the first page of everything.
  const parsed = listCandidatesQuery.safeParse(params);
  const query = parsed.success ? parsed.data : listCandidatesQuery.parse({});
  const [{ candidates, total, page, limit }, groups] = await Promise.all([listCandidates(actor, query), groupChoices(actor)]);
  return { rows: candidates, total, page, limit, status: query.status, groups, groupId: query.groupId };
}

export default function Candidates({ loaderData }: Route.ComponentProps) {
  return <PersonListPage kind="candidates" statuses={CANDIDATE_STATUSES} {...loaderData} />;
}
