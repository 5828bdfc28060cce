import { translations } from "~/i18n/dictionaries.ts";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { parsePagePost, serviceRefusal } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { installInstrumentBody } from "./instrument-schemas.ts";
import { installInstrument } from "./instruments.server.ts";

/**
 * The library page's "Install": the API's own schema, the one install service, then the new
 * form's editor with a message, or the form again with the errors in the page's language.
 */
export async function installPost(request: Request, actor: Actor, locale: Locale, key: string) {
  const t = translations(locale, actor.organizationKind);
  const form = await parsePagePost(request, installInstrumentBody, t);
  if (!form.ok) return form.reply;
  try {
    const installed = await installInstrument(actor, key, form.value);
    return redirectWithFlash(paths.form(locale, installed.id), { kind: "success", key: "instrumentInstalled" });
  } catch (error) {
    return serviceRefusal(t, form.submission, error);
  }
}
