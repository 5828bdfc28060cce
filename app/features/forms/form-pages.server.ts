import { data } from "react-router";
import { type Dictionary, translations } from "~/i18n/dictionaries.ts";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin } from "~/lib/auth/actor.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { forPage, pageError } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, fieldTexts } from "~/lib/problem.server.ts";
import { editorResult, editorSubmission, validateDraft } from "./form-editor.server.ts";
import { CONFIRM_FIELDS, type DraftErrors, oneScoreQuestions, scoredDraftQuestion } from "./form-draft.ts";
import { NewVersionNeeded } from "./form-versions.server.ts";
import { createForm, getForm, updateForm } from "./forms.server.ts";
import { type CreateFormInput, createFormBody, reliableChangeInput, type UpdateFormInput } from "./form-schemas.ts";
import type { ClientValidation } from "~/lib/client-validation.ts";
import { clientValidation, groupValidation, withGroups } from "~/lib/client-validation.server.ts";

/** The editor's save buttons: "Save", "Save anyway" (ADR 74), and "Save and rescore" of a new version (ADR 90). */
const SAVE_BUTTONS: readonly unknown[] = ["save", "save-anyway", "save-rescore"];

/**
 * The editor's post. An editing intent (add, remove, move, copy options, or "Update the preview")
 * answers the editor with the change made and nothing saved; "save" validates with the API's
 * schema, then creates or updates and redirects with a message, or answers 400 with the errors by
 * field. A valid form with questions whose options all score the same is not saved yet: the editor
 * comes back naming them, and "save-anyway" saves it as it is (ADR 74). A change that would make
 * a new version of a form with results is not saved yet either (409): the editor comes back saying
 * how many results the current version scored, with the version to confirm in a hidden field;
 * posted with it, the change is saved as that version, and "save-rescore" then opens the rescore
 * page (ADR 90).
 */
export async function editorPost(actor: Actor, locale: Locale, formData: FormData, formId: string | null) {
  const { submission, intent, draft } = editorSubmission(formData);
  // An intent no button of the editor sends: the editor back as posted, changed in nothing.
  if (!intent) return data(editorResult({ ...submission, intent: null }, draft), { status: 400 });
  const button = formData.get("intent");
  if (intent.type !== "submit" || !SAVE_BUTTONS.includes(button)) return editorResult(submission, draft);
  const t = translations(locale, actor.organizationKind);
  const invalid = (errors: DraftErrors, status = 400) => data(editorResult(submission, draft, errors), { status });
  const parsed = validateDraft(draft, formId === null ? "create" : "update", t);
  if (!parsed.success) return invalid(parsed.errors);
  const oneScore = oneScoreQuestions(draft.questions.map(scoredDraftQuestion));
  const oneScoreAccepted = button === "save-anyway" || formData.get(CONFIRM_FIELDS.oneScore) === "on";
  if (oneScore.length > 0 && !oneScoreAccepted) return editorResult(submission, draft, {}, { oneScore });
  try {
    if (formId === null) {
      const form = await createForm(actor, parsed.data as CreateFormInput);
      return redirectWithFlash(paths.form(locale, form.id), { kind: "success", key: "formCreated" });
    }
    const saved = await saveVersion(actor, formId, parsed.data, Number(formData.get(CONFIRM_FIELDS.version)));
    if (saved instanceof NewVersionNeeded) {
      const version = { results: saved.results, nextVersion: saved.nextVersion, oneScoreAccepted };
      return data(editorResult(submission, draft, {}, { oneScore: [], version }), { status: 409 });
    }
    // The rescore page compares the results with the version just saved.
    const next = button === "save-rescore" ? paths.formRescore(locale, formId) : paths.form(locale, formId);
    return redirectWithFlash(next, { kind: "success", key: "saved" });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return invalid(fieldTexts(t, error.errors));
    // The editor's lists posted to a form installed from the library, whose editor has none.
    if (error instanceof ApiError && error.code === "INSTRUMENT_LOCKED") return invalid(fieldTexts(t, error.errors), 409);
    throw error;
  }
}

/**
 * Saves the editor's change, asking first whether it may make a new version of a form with
 * results: the answer is `NewVersionNeeded` unless `confirmed` is the version it makes (one the
 * teacher was told of; a version raised by someone else since is asked about again).
 */
async function saveVersion(actor: Actor, formId: string, input: UpdateFormInput, confirmed: number) {
  try {
    await forPage(updateForm(actor, formId, input, null, { newVersion: "ask" }));
    return null;
  } catch (error) {
    if (!(error instanceof NewVersionNeeded)) throw error;
    if (error.nextVersion !== confirmed) return error;
  }
  await forPage(updateForm(actor, formId, input, null, { newVersion: "raise" }));
  return null;
}

/**
 * What the editor checks in the browser: the API's own rules for a form's details, and for the
 * reliable-change constants of the total and of each subscale (both or neither, each in range).
 */
export function editorValidation(t: Dictionary): ClientValidation {
  let validation = editorValidations.get(t);
  if (!validation) {
    validation = withGroups(
      clientValidation(createFormBody, t),
      groupValidation(reliableChangeInput, "reliableChange", t),
      groupValidation(reliableChangeInput, "subscales[].reliableChange", t),
    );
    editorValidations.set(t, validation);
  }
  return validation;
}

const editorValidations = new WeakMap<Dictionary, ClientValidation>();

/** The form for its editor: teachers only their own (a colleague's template is the 403 page). */
export async function editableForm(actor: Actor, id: string) {
  const form = await forPage(getForm(actor, id));
  if (!isAdmin(actor) && form.createdBy.id !== actor.userId) throw pageError(403);
  return form;
}
