import { coerceFormValue } from "@conform-to/zod/v4/future";
import { data } from "react-router";
import type { z } from "zod";
import { translations } from "~/i18n/dictionaries.ts";
import { pageResult } from "~/lib/client-validation.server.ts";
import type { FlashKey } from "~/lib/flash.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { formSubmission } from "~/lib/http.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { forPage, readPagePost } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { ApiError, issueTexts, pageErrors } from "~/lib/problem.server.ts";

/**
 * The group form's post (create and edit): the CSRF check, the API's own schema, the service,
 * then the group's page with a message, or the form again with the errors in the page's language.
 */
export async function groupFormPost<S extends z.ZodType>(
  request: Request,
  locale: Locale,
  schema: S,
  save: (input: z.output<S>) => Promise<{ id: string }>,
  flash: FlashKey,
) {
  const t = translations(locale);
  const formData = await readPagePost(request);
  const submission = formSubmission(formData, ["csrfToken"]);
  const parsed = coerceFormValue(schema).safeParse(submission.payload);
  if (!parsed.success) {
    return data({ result: pageResult(submission, { fieldErrors: issueTexts(t, parsed.error.issues), formError: null }) }, { status: 400 });
  }
  try {
    const group = await forPage(save(parsed.data as z.output<S>));
    return redirectWithFlash(paths.group(locale, group.id), { kind: "success", key: flash });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    return data({ result: pageResult(submission, pageErrors(t, error)) }, { status: 400 });
  }
}
