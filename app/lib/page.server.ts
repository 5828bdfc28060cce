import type { Submission } from "@conform-to/react/future";
import { coerceFormValue } from "@conform-to/zod/v4/future";
import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { DEFAULT_ORGANIZATION_KIND } from "~/features/organization/organization-kinds.ts";
import { type Dictionary, translations } from "~/i18n/dictionaries.ts";
import { isAdmin, isStaff, type Actor } from "./auth/actor.server.ts";
import { CSRF_FIELD, verifyCsrfField } from "./auth/csrf.server.ts";
import { pageResult } from "./client-validation.server.ts";
import { actorContext } from "./context.server.ts";
import { formSubmission } from "./http.server.ts";
import { resolveLocale } from "./i18n.ts";
import { ApiError, issueTexts, pageErrors } from "./problem.server.ts";

/**
 * Helpers for page loaders and actions under the signed-in layout (whose middleware has already
 * sent anyone without a session to the sign-in page). Services throw ApiError; pages must answer
 * with a status and the friendly error page instead, which is what these do. Every page post,
 * signed in or not, is read here: its CSRF token, then its fields by the API's schema (ADR 61).
 */
type Context = Pick<Readonly<RouterContextProvider>, "get">;

/** A thrown 403/404 that the error boundaries render as the friendly page. */
export const pageError = (status: 403 | 404) => data(null, { status });

/**
 * The page strings of the page's language (its `:locale` param) as the signed-in organization says
 * them (ADR 81); a page outside any organization (the sign-in page) says the default's.
 */
export function pageTranslations(context: Context, locale: string | undefined): Dictionary {
  return translations(resolveLocale(locale), context.get(actorContext)?.organizationKind ?? DEFAULT_ORGANIZATION_KIND);
}

/** The signed-in caller. */
export function pageActor(context: Context): Actor {
  const actor = context.get(actorContext);
  // The signed-in layout's middleware guarantees a caller; this only guards a misplaced route.
  if (!actor) throw pageError(404);
  return actor;
}

/** Teachers and administrators; a student's login gets the 403 page. */
export function staffPageActor(context: Context): Actor {
  const actor = pageActor(context);
  if (!isStaff(actor)) throw pageError(403);
  return actor;
}

/** Administrators only; everyone else gets the 403 page. */
export function adminPageActor(context: Context): Actor {
  const actor = pageActor(context);
  if (!isAdmin(actor)) throw pageError(403);
  return actor;
}

/**
 * Runs a service call for a page: its 404 and 403 become the friendly error pages with the same
 * status; anything else (a 400 the page should show by the fields, say) is thrown on unchanged.
 *
 *   const student = await forPage(getStudent(actor, params.id));
 */
export async function forPage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) throw pageError(error.status);
    throw error;
  }
}

/**
 * A page form's post and whether its CSRF token (the `csrfToken` field, app/components/csrf-input.tsx)
 * matches the signed cookie: the one CSRF check of every page action. The pages of people who are
 * signed out (sign-in, forgotten password, reset) show a stale token as their form's own error;
 * every other page uses `readPagePost`.
 */
export async function pagePost(request: Request): Promise<{ formData: FormData; tokenValid: boolean }> {
  const formData = await request.formData();
  try {
    await verifyCsrfField(request, formData);
    return { formData, tokenValid: true };
  } catch (error) {
    if (error instanceof ApiError && error.code === "CSRF_FAILED") return { formData, tokenValid: false };
    throw error;
  }
}

/**
 * A signed-in page's post, once its CSRF token checks out; a missing or stale token (a form left
 * open for long, a forged post) is the friendly 403 page.
 */
export async function readPagePost(request: Request) {
  const { formData, tokenValid } = await pagePost(request);
  if (!tokenValid) throw pageError(403);
  return formData;
}

/** How a page form's fields are read beyond its schema (see `parsePageForm`). */
type PageFormOptions = { skip?: readonly string[]; clearWhenEmpty?: readonly string[]; nullWhenAllEmpty?: readonly string[] };

/** What a refused page form answers: Conform's result, its messages in the page's language. */
export type PageRefusal = { result: ReturnType<typeof pageResult> };

/** A page form read by its schema: its value, or the answer refusing it (`fieldErrors`: its messages by field). */
export type PageForm<T> =
  | { ok: true; value: T; submission: Submission }
  | { ok: false; submission: Submission; fieldErrors: Record<string, string>; reply: ReturnType<typeof refusal> };

/** The answer to a refused form, `errors` already in the page's language. */
export const refusal = (
  submission: Submission,
  errors: { fieldErrors: Record<string, string>; formError: string | null },
  status: number,
  headers?: Record<string, string>,
) => data<PageRefusal>({ result: pageResult(submission, errors) }, { status, ...(headers ? { headers } : {}) });

/**
 * A page form read as the API reads the same input: Conform reads the fields, the API's Zod schema
 * checks them through Conform's coercion (`age=12` is 12; an empty field is left out, as a JSON
 * body would leave it out). Refused, `reply` is the 400 to return, each message by its field, in
 * the page's language.
 *
 * `skip`: fields the page posts that are not the schema's (the `intent` of its buttons).
 * `clearWhenEmpty`: optional fields the form shows; posted empty they mean "none" (null), as the
 * API's `null` does, where left out they would keep their value.
 * `listsWhenAbsent`: lists a form may post no entry of (a group's staff with its one member
 * removed); a form cannot post an empty list, so none posted means the empty one.
 * `nullWhenAllEmpty`: objects the form posts as fields of their own (`retention.action`,
 * `retention.resultsMonths`); every one of them posted empty means none (null), as the API's `null`.
 */
export function parsePageForm<S extends z.ZodType>(
  formData: FormData,
  schema: S,
  t: Dictionary,
  options: PageFormOptions & { listsWhenAbsent?: readonly string[] } = {},
): PageForm<z.output<S>> {
  const submission = formSubmission(formData, [CSRF_FIELD, ...(options.skip ?? [])]);
  const payload: Record<string, unknown> = { ...submission.payload };
  for (const field of options.listsWhenAbsent ?? []) payload[field] ??= [];
  for (const field of options.nullWhenAllEmpty ?? []) {
    const group = payload[field];
    if (group && typeof group === "object" && Object.values(group).every((value) => typeof value === "string" && value.trim() === "")) payload[field] = null;
  }
  const parsed = coerceFormValue(schema).safeParse(payload);
  if (!parsed.success) {
    const fieldErrors = issueTexts(t, parsed.error.issues);
    return { ok: false, submission, fieldErrors, reply: refusal(submission, { fieldErrors, formError: null }, 400) };
  }
  const value = parsed.data as z.output<S>;
  for (const field of options.clearWhenEmpty ?? []) {
    const fields = value as Record<string, unknown>;
    if (Object.hasOwn(submission.payload, field) && fields[field] === undefined) fields[field] = null;
  }
  return { ok: true, value, submission };
}

/** `readPagePost` and `parsePageForm` together: the usual page action's first line. */
export async function parsePagePost<S extends z.ZodType>(
  request: Request,
  schema: S,
  t: Dictionary,
  options: PageFormOptions = {},
): Promise<PageForm<z.output<S>>> {
  return parsePageForm(await readPagePost(request), schema, t, options);
}

/**
 * A service's refusal of a page form, shown in the page's language: by the fields it names, else
 * as the form's own error, with the service's status and headers (a 429's Retry-After). A 404 or
 * 403 is the friendly error page; anything that is not an ApiError is thrown on.
 */
export function serviceRefusal(t: Dictionary, submission: Submission, error: unknown) {
  if (!(error instanceof ApiError)) throw error;
  // A token's refusal (TOKEN_SCOPE) says what to do instead, above the form; another 403 or a 404
  // is the page's.
  if (error.status === 404 || (error.status === 403 && error.code !== "TOKEN_SCOPE")) throw pageError(error.status);
  // A wrong code or password is the form's 400: a page's 401 would ask the browser to sign in.
  return refusal(submission, pageErrors(t, error), error.status === 401 ? 400 : error.status, error.headers);
}

/**
 * Which of a page's forms was posted: the value of its `intent` button when it is one of
 * `intents`, else null (a hand-made post; the page answers as it sees fit).
 */
export function postedIntent<const I extends string>(formData: FormData, intents: readonly [I, ...I[]]): I | null {
  const parsed = z.object({ intent: z.enum(intents) }).safeParse(formSubmission(formData, [CSRF_FIELD]).payload);
  return parsed.success ? parsed.data.intent : null;
}
