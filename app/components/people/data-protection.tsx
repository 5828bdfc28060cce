import { useLocale, useT } from "~/i18n/hooks.ts";
import { paths } from "~/lib/paths.ts";
import { buttonClasses, LinkButton } from "../button.tsx";
import { Section } from "../page-header.tsx";
import type { PersonKind } from "./status-badge.tsx";

/**
 * A person's page, for administrators (docs/api-contract.md §21): their data as a file (a plain
 * link to the API's subject access) and the way to the page that erases them.
 */
export function DataProtection({ kind, id }: { kind: PersonKind; id: string }) {
  const t = useT();
  const locale = useLocale();
  const words = t.people.dataProtection;
  return (
    <Section id="data-protection" title={words.title} description={words.description}>
      <div className="flex flex-wrap gap-3 px-4 py-4 sm:px-5">
        <a href={paths.personData(kind === "students" ? "student" : "candidate", id)} download className={buttonClasses({ variant: "secondary" })}>
          {words.download}
        </a>
        <LinkButton to={kind === "students" ? paths.eraseStudent(locale, id) : paths.eraseCandidate(locale, id)} variant="danger">
          {words.erase}
        </LinkButton>
      </div>
    </Section>
  );
}
