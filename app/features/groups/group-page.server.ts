import type { z } from "zod";
import type { Dictionary } from "~/i18n/dictionaries.ts";
import type { FlashKey } from "~/lib/flash.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { forPage, parsePagePost, refusal } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, pageErrors } from "~/lib/problem.server.ts";

/**
 * The group form's post (create and edit): the CSRF check, the API's own schema, the service,
 * then the group's page with a message, or the form again with the errors in the page's language.
 */
export async function groupFormPost<S extends z.ZodType>(
  request: Request,
  locale: Locale,
  t: Dictionary,
  schema: S,
  save: (input: z.output<S>) => Promise<{ id: string }>,
  flash: FlashKey,
) {
  const form = await parsePagePost(request, schema, t);
  if (!form.ok) return form.reply;
  try {
    const group = await forPage(save(form.value));
    return redirectWithFlash(paths.group(locale, group.id), { kind: "success", key: flash });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    return refusal(form.submission, pageErrors(t, error), 400);
  }
}
