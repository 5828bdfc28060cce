import type { RouterContextProvider } from "react-router";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, pageTranslations, parsePagePost, serviceRefusal, staffPageActor } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { eraseBody } from "./data-protection-schemas.ts";
import type { PersonKind } from "./erasure-modes.ts";
import { erasePerson, erasurePreview } from "./erasure.server.ts";

/**
 * The erasure page of a student and of a candidate (/students/:id/erase, /candidates/:id/erase):
 * what goes, and the form that erases, through the API's schema and service. Administrators
 * only: a teacher gets the 403 page, another organization's person the 404.
 */
type Args = { context: Readonly<RouterContextProvider>; params: { locale?: string; id: string } };

export async function erasurePage({ context, params }: Args, kind: PersonKind) {
  const preview = await forPage(erasurePreview(staffPageActor(context), kind, params.id));
  return { preview, validation: clientValidation(eraseBody, pageTranslations(context, params.locale)) };
}

/** Erases, then goes to the list the person left with a message; a wrong name is told by its field. */
export async function erasePageAction({ request, context, params }: Args & { request: Request }, kind: PersonKind) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const form = await parsePagePost(request, eraseBody, t);
  if (!form.ok) return form.reply;
  try {
    await forPage(erasePerson(actor, kind, params.id, form.value));
  } catch (error) {
    return serviceRefusal(t, form.submission, error);
  }
  const list = kind === "student" ? paths.students(locale) : paths.candidates(locale);
  throw await redirectWithFlash(list, { kind: "success", key: form.value.mode === "ANONYMISE" ? "personAnonymised" : "personErased" });
}
