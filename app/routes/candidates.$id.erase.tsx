import type { Route } from "./+types/candidates.$id.erase";
import { ErasePerson } from "~/components/people/erase-person.tsx";
import { erasePageAction, erasurePage } from "~/features/people/erasure-page.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";

/** Erasing a candidate (docs/api-contract.md §21): a page of its own, so it works without JavaScript. */
export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData ? t.people.dataProtection.eraseTitle(loaderData.preview.name) : t.people.dataProtection.title) }];
};

export const loader = (args: Route.LoaderArgs) => erasurePage(args, "candidate");

export const action = (args: Route.ActionArgs) => erasePageAction(args, "candidate");

export default function EraseCandidate({ loaderData, actionData }: Route.ComponentProps) {
  return <ErasePerson kind="candidates" preview={loaderData.preview} validation={loaderData.validation} result={actionData?.result} />;
}
