import { data } from "react-router";
import { type Dictionary, translations } from "~/i18n/dictionaries.ts";
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
import type { ImportMode, RosterEncoding } from "./roster-columns.ts";
import { decodeRoster, type RosterSource } from "./roster-columns.ts";
import { importRoster, PREVIEW_ROWS_SHOWN, previewRoster } from "./roster-import.server.ts";

/**
 * The import page's two steps, without JavaScript: "check the file" uploads it (with "update the
 * people already here" for an upsert) and answers the dry run: every row as it will be stored
 * (names as decoded, so a Windows-1252 file shows its accents or shows that it was read wrong),
 * how the file was read, and what each row does. The file's text travels on in a hidden field of
 * the second form, so what is written is exactly what was shown; "import" writes it all and goes
 * back to the list. Problems are shown by row and column in the page's language.
 */
type Kind = "students" | "candidates";

export const importFileValidation = (t: Dictionary): ClientValidation<"file"> => ({
  constraint: { file: { required: true } },
  messages: { file: { required: t.fieldProblems.chooseFile } },
});

const inLanguage = (t: Dictionary, problems: FieldProblem[]) =>
  problems.map((problem) => ({ row: problem.row!, field: problem.field!, message: fieldText(t, problem.key) }));

const modeOf = (value: FormDataEntryValue | null): ImportMode => (value === "upsert" ? "upsert" : "create");
const encodingOf = (value: FormDataEntryValue | null): RosterEncoding => (value === "windows-1252" ? "windows-1252" : "utf-8");

/** The dry run as the page shows it: the counts, the problems in the page's language, and the first rows as they will be stored. */
async function pagePreview(actor: Actor, kind: Kind, source: RosterSource, mode: ImportMode, locale: Locale) {
  const { answer, total, planned, problems, groupsCreated } = await previewRoster(actor, kind, source, mode);
  const count = (action: string) => planned.filter((plan) => plan.action === action).length;
  return {
    preview: {
      mode,
      encoding: source.encoding,
      rows: total,
      valid: answer.valid,
      created: count("created"),
      updated: count("updated"),
      unchanged: count("unchanged"),
      groupsCreated,
      errors: inLanguage(translations(locale, actor.organizationKind), problems),
      shown: planned.slice(0, PREVIEW_ROWS_SHOWN).map(({ row, action, changes, joins }) => ({
        row: row.line,
        name: row.input.name,
        email: row.input.email ?? null,
        externalId: row.input.externalId ?? null,
        group: row.group,
        action,
        changes: [...Object.keys(changes), ...(action === "updated" && joins ? ["group"] : [])],
      })),
    },
    csv: source.text,
  };
}

export async function rosterImportPost(request: Request, actor: Actor, kind: Kind, locale: Locale) {
  const formData = await readPagePost(request);
  const mode = modeOf(formData.get("mode"));
  if (formData.get("intent") === "import") {
    const source = { text: String(formData.get("csv") ?? ""), encoding: encodingOf(formData.get("encoding")) };
    try {
      await importRoster(actor, kind, source, mode);
    } catch (error) {
      // Changed meanwhile (an e-mail taken since the check): the problems, as after a check.
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      return data(await pagePreview(actor, kind, source, mode, locale), { status: 400 });
    }
    return redirectWithFlash(kind === "students" ? paths.students(locale) : paths.candidates(locale), { kind: "success", key: "imported" });
  }
  const file = formData.get("file");
  if (!(file instanceof File) || file.size === 0) {
    const submission = formSubmission(formData, ["csrfToken", "intent", "file"]);
    return data(
      { result: pageResult(submission, { fieldErrors: { file: translations(locale, actor.organizationKind).fieldProblems.chooseFile }, formError: null }) },
      { status: 400 },
    );
  }
  return data(await pagePreview(actor, kind, decodeRoster(new Uint8Array(await file.arrayBuffer())), mode, locale));
}
