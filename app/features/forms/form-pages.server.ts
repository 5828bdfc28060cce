import { data } from "react-router";
import { translations } from "~/i18n/dictionaries.ts";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin } from "~/lib/auth/actor.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { forPage, pageError } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, fieldTexts } from "~/lib/problem.server.ts";
import { editorResult, editorSubmission, validateDraft } from "./form-editor.server.ts";
import type { DraftErrors } from "./form-draft.ts";
import { createForm, getForm, updateForm } from "./forms.server.ts";
import { createFormBody } from "./form-schemas.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";

/**
 * What the form pages' actions share: the CSRF check, and the editor's post (an editing intent
 * answers the editor with the values kept; "save" validates and redirects with a message).
 */
/**
 * The editor's post. An editing intent (add, remove, move, or "Update the preview") answers the
 * editor with the change made and nothing saved; "save" validates with the API's schema, then
 * creates or updates and redirects with a message, or answers 400 with the errors by field.
 */
export async function editorPost(actor: Actor, locale: Locale, formData: FormData, formId: string | null) {
  const { submission, intent, draft } = editorSubmission(formData);
  // An intent no button of the editor sends: the editor back as posted, changed in nothing.
  if (!intent) return data(editorResult({ ...submission, intent: null }, draft), { status: 400 });
  if (intent.type !== "submit" || formData.get("intent") === "preview") return editorResult(submission, draft);
  const t = translations(locale);
  const invalid = (errors: DraftErrors, status = 400) => data(editorResult(submission, draft, errors), { status });
  try {
    if (formId === null) {
      const parsed = validateDraft(draft, "create", t);
      if (!parsed.success) return invalid(parsed.errors);
      const form = await createForm(actor, parsed.data);
      return redirectWithFlash(paths.form(locale, form.id), { kind: "success", key: "formCreated" });
    }
    const parsed = validateDraft(draft, "update", t);
    if (!parsed.success) return invalid(parsed.errors);
    // The editor does not show a band's `critical` yet: a band saved with the same bounds and label keeps it.
    const stored = await forPage(getForm(actor, formId));
    const scoreRanges = parsed.data.scoreRanges?.map((range) => ({
      ...range,
      critical: stored.scoreRanges.some((band) => band.critical && band.min === range.min && band.max === range.max && band.label === range.label),
    }));
    await forPage(updateForm(actor, formId, { ...parsed.data, ...(scoreRanges ? { scoreRanges } : {}) }));
    return redirectWithFlash(paths.form(locale, formId), { kind: "success", key: "saved" });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return invalid(fieldTexts(t, error.errors));
    // The editor's lists posted to a form installed from the library, whose editor has none.
    if (error instanceof ApiError && error.code === "INSTRUMENT_LOCKED") return invalid(fieldTexts(t, error.errors), 409);
    throw error;
  }
}

/** What the editor checks in the browser: the API's own rules for a form's details. */
export const editorValidation = (locale: Locale) => clientValidation(createFormBody, translations(locale));

/** The form for its editor: teachers only their own (a colleague's template is the 403 page). */
export async function editableForm(actor: Actor, id: string) {
  const form = await forPage(getForm(actor, id));
  if (!isAdmin(actor) && form.createdBy.id !== actor.userId) throw pageError(403);
  return form;
}
