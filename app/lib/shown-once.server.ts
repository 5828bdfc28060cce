import { data } from "react-router";
import type { z } from "zod";
import type { Dictionary } from "~/i18n/dictionaries.ts";
import { pageResult } from "./client-validation.server.ts";
import { parsePageForm } from "./page.server.ts";
import { ApiError, pageErrors } from "./problem.server.ts";

/**
 * A page post that creates something with a secret shown once (an API token, a webhook's signing
 * secret): checked with the API's schema, then created; the answer carries what was created, not a
 * redirect, so the secret is in this one page and nowhere else (no URL, no flash cookie). Refusals,
 * from the schema or the service (a 400 naming its field), come back by their fields; a conflict
 * (a 409: a limit reached) as the form's own error, in the page's language.
 */
export async function createShownOnce<S extends z.ZodType, T>(formData: FormData, schema: S, t: Dictionary, create: (input: z.output<S>) => Promise<T>) {
  const form = parsePageForm(formData, schema, t, { skip: ["intent"] });
  if (!form.ok) return data({ ...form.reply.data, created: null }, { status: 400 });
  try {
    return { result: undefined, created: await create(form.value) };
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) throw error;
    return data({ result: pageResult(form.submission, pageErrors(t, error)), created: null }, { status: error.status });
  }
}
