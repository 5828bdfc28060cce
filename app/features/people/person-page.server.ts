import { coerceFormValue } from "@conform-to/zod/v4/future";
import { data } from "react-router";
import type { z } from "zod";
import { formPayload, formSubmission } from "~/lib/http.server.ts";
import { forPage } from "~/lib/page.server.ts";
import type { Submission } from "@conform-to/react/future";
import type { Dictionary } from "~/i18n/dictionaries.ts";
import { pageResult } from "~/lib/client-validation.server.ts";
import { ApiError, fieldTexts, issueTexts } from "~/lib/problem.server.ts";
import type { ProfileField } from "./person-form.ts";

/**
 * Shared by the student and candidate pages' actions: read a posted profile form with the same
 * Zod schema as the API (Conform coerces the strings), and answer field errors the page shows
 * next to the fields, with the values typed so far.
 */
/** Every field the form shows is posted; an empty optional one means "clear it" (null). */
const OPTIONAL: readonly ProfileField[] = ["email", "externalId", "dateOfBirth", "phone", "age", "grade", "gender"];

/** What a refused profile form answers: Conform's result, with the messages in the page's language. */
export type ProfileFormResult = { result: ReturnType<typeof pageResult> };

export const invalid = (submission: Submission, fieldErrors: Record<string, string>) =>
  data<ProfileFormResult>({ result: pageResult(submission, { fieldErrors, formError: null }) }, { status: 400 });

/** The profile in `formData`, or the 400 answer with errors per field. */
export function parseProfile<S extends z.ZodType>(formData: FormData, schema: S, options: { withStatus: boolean; t: Dictionary }) {
  const submission = formSubmission(formData);
  const payload = formPayload(formData, options.withStatus ? ["csrfToken", "intent"] : ["csrfToken", "intent", "status"]);
  const result = coerceFormValue(schema).safeParse(payload);
  if (!result.success) return { ok: false as const, reply: invalid(submission, issueTexts(options.t, result.error.issues)) };
  const parsed = { ...(result.data as Record<string, unknown>) };
  for (const field of OPTIONAL) if (parsed[field] === undefined) parsed[field] = null;
  return { ok: true as const, data: parsed as z.output<S>, submission };
}

/** Runs a create or update; a taken e-mail address or record number, or a date of birth after today, becomes its field's error. */
export async function saveProfile<T>(work: Promise<T>, submission: Submission, t: Dictionary) {
  try {
    return { ok: true as const, value: await forPage(work) };
  } catch (error) {
    if (error instanceof ApiError && error.code === "EMAIL_TAKEN") {
      return { ok: false as const, reply: invalid(submission, { email: t.fieldProblems.emailTaken }) };
    }
    if (error instanceof ApiError && error.code === "EXTERNAL_ID_TAKEN") {
      return { ok: false as const, reply: invalid(submission, { externalId: t.fieldProblems.externalIdTaken }) };
    }
    if (error instanceof ApiError && error.status === 400 && error.errors?.length) {
      return { ok: false as const, reply: invalid(submission, fieldTexts(t, error.errors)) };
    }
    throw error;
  }
}
