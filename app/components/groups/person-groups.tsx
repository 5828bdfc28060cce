import { Form, Link } from "react-router";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { paths } from "~/lib/paths.ts";
import { Button } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { Select } from "../field.tsx";
import { Section } from "../page-header.tsx";

type GroupChoice = { id: string; name: string };

/** The groups a student or candidate is in, and a one-step "add to a group" (a plain POST). */
export function PersonGroups({ memberOf, addable }: { memberOf: GroupChoice[]; addable: GroupChoice[] }) {
  const t = useT();
  const locale = useLocale();
  return (
    <Section id="groups" title={t.groups.title}>
      <div className="space-y-4 px-4 py-4 sm:px-5">
        {memberOf.length === 0 ? (
          <p className="text-sm text-slate-600">{t.groups.inNoGroup}</p>
        ) : (
          <ul className="flex flex-wrap gap-2">
            {memberOf.map((group) => (
              <li key={group.id}>
                <Link
                  to={paths.group(locale, group.id)}
                  className="inline-flex min-h-8 items-center rounded-full bg-indigo-50 px-3 text-sm font-medium text-indigo-800 hover:underline"
                >
                  {group.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
        {addable.length > 0 ? (
          <Form method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <CsrfInput />
            <Select
              name="groupId"
              label={t.groups.addTo}
              className="min-w-0 flex-1"
              required
              options={addable.map((group) => ({ value: group.id, label: group.name }))}
            />
            <Button type="submit" name="intent" value="addToGroup" variant="secondary" pendingText={t.common.working}>
              {t.groups.add}
            </Button>
          </Form>
        ) : null}
      </div>
    </Section>
  );
}
