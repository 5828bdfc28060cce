import { data } from "react-router";
import { translations } from "~/i18n/dictionaries.ts";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { pageResult } from "~/lib/client-validation.server.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { formSubmission } from "~/lib/http.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { fieldText } from "~/lib/messages.ts";
import { readPagePost } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, type FieldProblem } from "~/lib/problem.server.ts";
import { importRoster, previewRoster } from "./roster-import.server.ts";

/**
 * The import page's two steps, without JavaScript: "check the file" uploads it and answers the dry
 * run (the file's text travels on in a hidden field of the second form), "import" writes it all
 * and goes back to the list. Problems are shown by row and column in the page's language.
 */
type Kind = "students" | "candidates";

export const importFileValidation = (locale: Locale): ClientValidation<"file"> => ({
  constraint: { file: { required: true } },
  messages: { file: { required: translations(locale).fieldProblems.chooseFile } },
});

const inLanguage = (locale: Locale, problems: FieldProblem[]) =>
  problems.map((problem) => ({ row: problem.row!, field: problem.field!, message: fieldText(translations(locale), problem.key) }));

export async function rosterImportPost(request: Request, actor: Actor, kind: Kind, locale: Locale) {
  const formData = await readPagePost(request);
  if (formData.get("intent") === "import") {
    const csv = String(formData.get("csv") ?? "");
    try {
      await importRoster(actor, kind, csv);
    } catch (error) {
      // Changed meanwhile (an e-mail taken since the check): the problems, as after a check.
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      const { problems, ...preview } = await previewRoster(actor, kind, csv);
      return data({ preview: { ...preview, errors: inLanguage(locale, problems) }, csv }, { status: 400 });
    }
    return redirectWithFlash(kind === "students" ? paths.students(locale) : paths.candidates(locale), { kind: "success", key: "imported" });
  }
  const file = formData.get("file");
  if (!(file instanceof File) || file.size === 0) {
    const submission = formSubmission(formData, ["csrfToken", "intent", "file"]);
    return data({ result: pageResult(submission, { fieldErrors: { file: translations(locale).fieldProblems.chooseFile }, formError: null }) }, { status: 400 });
  }
  const csv = await file.text();
  const { problems, ...preview } = await previewRoster(actor, kind, csv);
  return data({ preview: { ...preview, errors: inLanguage(locale, problems) }, csv });
}
