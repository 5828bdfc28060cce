import { db } from "~/lib/db.server.ts";
import { VersionedCache } from "~/lib/versioned-cache.ts";
import { formContentSelect, formScoringSelect, presentScoring } from "../forms/forms.server.ts";

/**
 * A form's questions, options and bands for its test links, cached in this process by form and
 * content version (ADR 33). Every respondent of a class reads the same form: without the cache
 * each open and each submit read it again (on SQLite, four statements). `Form.contentVersion` is
 * raised in the transaction that changes the content, and the link's own query reads it, so a
 * cached content is served only while it is still the form's, on every instance.
 */
const FORM_CONTENT_CACHE_SIZE = 200;

const contents = new VersionedCache<FormContent>(FORM_CONTENT_CACHE_SIZE);

async function readFormContent(formId: string) {
  const { scoring, subscales, criticalMessage, ...content } = await db.form.findUniqueOrThrow({
    where: { id: formId },
    select: { ...formContentSelect, ...formScoringSelect },
  });
  return { ...content, ...presentScoring({ scoring, subscales, criticalMessage }) };
}

export type FormContent = Awaited<ReturnType<typeof readFormContent>>;

/** The content of form `formId` at `contentVersion` (the version read with the link). */
export function formContent(formId: string, contentVersion: number): Promise<FormContent> {
  return contents.get(formId, String(contentVersion), () => readFormContent(formId));
}
