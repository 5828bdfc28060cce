import { data } from "react-router";
import { translations } from "~/i18n/dictionaries.ts";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin } from "~/lib/auth/actor.server.ts";
import { verifyCsrfToken } from "~/lib/auth/csrf.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { forPage, pageError } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, fieldTexts } from "~/lib/problem.server.ts";
import { applyIntent, draftFromFormData, validateDraft } from "./form-editor.server.ts";
import type { DraftErrors, FormDraft } from "./form-draft.ts";
import { createForm, getForm, updateForm } from "./forms.server.ts";

/**
 * What the form pages' actions share: the CSRF check, and the editor's post (an editing intent
 * re-renders the editor with the values kept; "save" validates and redirects with a message).
 */
export async function readPost(request: Request) {
  const formData = await request.formData();
  try {
    await verifyCsrfToken(request, formData.get("csrfToken") as string | null);
  } catch {
    throw pageError(403);
  }
  return formData;
}

/** `focus`: the field to focus after an editing intent (with JavaScript), "" for none. */
export type EditorResult = { draft: FormDraft; errors: DraftErrors; revision: string; focus: string };

export async function editorPost(actor: Actor, locale: Locale, formData: FormData, formId: string | null) {
  const draft = draftFromFormData(formData);
  const intent = String(formData.get("intent") ?? "save");
  const revision = crypto.randomUUID();
  const focus = intent === "save" ? null : applyIntent(draft, intent);
  if (focus !== null) return data<EditorResult>({ draft, errors: {}, revision, focus });
  const t = translations(locale);
  const invalid = (errors: DraftErrors) => data<EditorResult>({ draft, errors, revision, focus: "" }, { status: 400 });
  try {
    if (formId === null) {
      const parsed = validateDraft(draft, "create", t);
      if (!parsed.success) return invalid(parsed.errors);
      const form = await createForm(actor, parsed.data);
      return redirectWithFlash(paths.form(locale, form.id), { kind: "success", key: "formCreated" });
    }
    const parsed = validateDraft(draft, "update", t);
    if (!parsed.success) return invalid(parsed.errors);
    await forPage(updateForm(actor, formId, parsed.data));
    return redirectWithFlash(paths.form(locale, formId), { kind: "success", key: "saved" });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return invalid(fieldTexts(t, error.errors));
    throw error;
  }
}

/** The form for its editor: teachers only their own (a colleague's template is the 403 page). */
export async function editableForm(actor: Actor, id: string) {
  const form = await forPage(getForm(actor, id));
  if (!isAdmin(actor) && form.createdBy.id !== actor.userId) throw pageError(403);
  return form;
}
