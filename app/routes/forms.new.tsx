import { Link } from "react-router";
import type { Route } from "./+types/forms.new";
import { FormEditor } from "~/components/form-editor.tsx";
import { PageHeader } from "~/components/page-header.tsx";
import { emptyDraft } from "~/features/forms/form-draft.ts";
import { editorPost, editorValidation } from "~/features/forms/form-pages.server.ts";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { staffPageActor, readPagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.forms.newTitle) }];
};

export function loader({ context, params }: Route.LoaderArgs) {
  staffPageActor(context);
  return { draft: emptyDraft(), validation: editorValidation(pageTranslations(context, params.locale)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  return editorPost(actor, resolveLocale(params.locale), await readPagePost(request), null);
}

export default function NewForm({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="space-y-6">
      <p>
        <Link to={paths.forms(locale)} className="text-sm font-medium text-indigo-700 hover:underline">
          ← {t.forms.backToList}
        </Link>
      </p>
      <PageHeader title={t.forms.newTitle} description={t.forms.editor.intro} />
      <FormEditor draft={loaderData.draft} result={actionData} validation={loaderData.validation} submitLabel={t.forms.editor.create} />
    </div>
  );
}
