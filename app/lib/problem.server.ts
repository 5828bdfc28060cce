import type { z } from "zod";
import type { Dictionary } from "~/i18n/dictionaries.ts";
import { en } from "~/i18n/en.ts";
import { jsonResponse } from "./json-response.server.ts";
import { fieldMessage, fieldText, isFieldMessageKey, problemText, type FieldMessage, type FieldMessageKey } from "./messages.ts";

/**
 * A field-level problem, pointing at the input that caused it (`scoreRanges.1.color`): `key` is
 * what pages render in their language, `message` the English text the API answers.
 */
/** `row` and `field`: where in an imported file (docs/api-contract.md §11), besides the path. */
export type FieldProblem = { path: string; message: string; key: FieldMessage; row?: number; field?: string };

export function fieldProblem(path: string, key: FieldMessageKey, ...params: string[]): FieldProblem {
  const message = fieldMessage(key, ...params);
  return { path, message: fieldText(en, message), key: message };
}

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * The one error type of the service: a status, a stable UPPER_SNAKE code and a sentence for people.
 * Services throw it; `problemResponse` turns it into RFC 9457 problem details in one place.
 */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, errors?: FieldProblem[]) => new ApiError(400, "VALIDATION_FAILED", detail, errors);
export const unauthenticated = (detail = "Sign in to continue.") => new ApiError(401, "UNAUTHENTICATED", detail);
export const forbidden = (detail = "Your role may not do this.") => new ApiError(403, "FORBIDDEN", detail);
export const notFound = (what = "resource") => new ApiError(404, "NOT_FOUND", `No such ${what}.`);
export const conflict = (detail: string, code = "CONFLICT") => new ApiError(409, code, detail);
export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, "RATE_LIMITED", `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, undefined, {
    "Retry-After": String(retryAfterSeconds),
  });

const formatted = (value: number | bigint) => (typeof value === "number" ? value.toLocaleString("en-US") : String(value));
const mebibytes = (bytes: number | bigint) => `${Math.round(Number(bytes) / 1024 / 1024)} MiB`;

/**
 * The dictionary key of a Zod issue: the key a schema gave as its message, or one chosen from
 * the issue's code and bounds. Custom issues pass their values as `params: { values: [...] }`.
 */
export function issueMessage(issue: z.core.$ZodIssue): FieldMessage {
  if (isFieldMessageKey(issue.message)) {
    // A sentence takes no values; a function takes the custom issue's values or the bound broken.
    if (typeof en.fieldProblems[issue.message] === "string") return fieldMessage(issue.message);
    const values = issue.code === "custom" ? (issue.params?.values as string[] | undefined) : undefined;
    if (values) return fieldMessage(issue.message, ...values);
    if (issue.code === "too_big") return fieldMessage(issue.message, formatted(issue.maximum));
    if (issue.code === "too_small") return fieldMessage(issue.message, formatted(issue.minimum));
    return fieldMessage(issue.message);
  }
  switch (issue.code) {
    case "invalid_type":
      // Zod reports the input only when asked; its own message says when nothing was given.
      if (issue.input === undefined && ("input" in issue || issue.message.endsWith("received undefined"))) return fieldMessage("required");
      return fieldMessage(issue.expected === "number" || issue.expected === "int" ? "number" : "invalid");
    case "too_small":
      if (issue.origin === "string") return issue.minimum === 1 ? fieldMessage("required") : fieldMessage("tooShort", formatted(issue.minimum));
      if (issue.origin === "array" || issue.origin === "set") return fieldMessage("tooFew", formatted(issue.minimum));
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") return fieldMessage("tooSmall", formatted(issue.minimum));
      return fieldMessage("invalid");
    case "too_big":
      if (issue.origin === "string") return fieldMessage("tooLong", formatted(issue.maximum));
      if (issue.origin === "array" || issue.origin === "set") return fieldMessage("tooMany", formatted(issue.maximum));
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") return fieldMessage("tooBig", formatted(issue.maximum));
      if (issue.origin === "file") return fieldMessage("fileTooBig", mebibytes(issue.maximum));
      return fieldMessage("invalid");
    case "invalid_format":
      if (issue.format === "email") return fieldMessage("email");
      if (issue.format === "datetime" || issue.format === "date") return fieldMessage("date");
      return fieldMessage("invalid");
    case "invalid_value":
      return fieldMessage("choice");
    case "not_multiple_of":
      return fieldMessage(issue.divisor === 1 ? "wholeNumber" : "invalid");
    default:
      return fieldMessage("invalid");
  }
}

/** Zod issues as field problems: `path` is dotted, the root is called `body`/`query` by the caller. */
export function fieldProblems(issues: readonly z.core.$ZodIssue[]): FieldProblem[] {
  return issues.flatMap((issue) => {
    // An object with unknown keys reports them together; one problem per key names each field.
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => fieldProblem([...issue.path, key].join("."), "unknownField"));
    }
    const key = issueMessage(issue);
    return [{ path: issue.path.join("."), message: fieldText(en, key), key }];
  });
}

export function validationError(issues: readonly z.core.$ZodIssue[], detail = "The request is not valid.") {
  return badRequest(detail, fieldProblems(issues));
}

/** The RFC 9457 body of an error. */
export function problemBody(error: ApiError) {
  return {
    type: `urn:assessment-service:problem:${error.code.toLowerCase().replaceAll("_", "-")}`,
    title: titles[error.status] ?? "Error",
    status: error.status,
    detail: error.detail,
    code: error.code,
    // The dictionary key stays inside: the API's contract is the path and the English message.
    ...(error.errors?.length
      ? { errors: error.errors.map(({ path, message, row, field }) => ({ path, message, ...(row !== undefined ? { row, field } : {}) })) }
      : {}),
  };
}

/** `members`: extension members beside the standard ones (RFC 9457 §3.2), e.g. NextAuth's `url`. */
export function problemResponse(error: ApiError, members: Record<string, unknown> = {}): Response {
  return jsonResponse(
    { ...problemBody(error), ...members },
    { status: error.status, headers: new Headers({ "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...error.headers }) },
  );
}

/** Values a code's sentence takes: the minutes to wait of a throttled request. */
function problemParams(error: ApiError): string[] {
  const retryAfter = Number(error.headers?.["Retry-After"]);
  return Number.isFinite(retryAfter) && retryAfter > 0 ? [String(Math.max(1, Math.ceil(retryAfter / 60)))] : [];
}

/** An error as a page shows it, in `t`'s language: the code's sentence. */
export const problemTextOf = (t: Dictionary, error: ApiError) => problemText(t, error.code, problemParams(error));

/** Field problems as a page shows them: the first message per field, `body.`/`query.` dropped. */
export function fieldTexts(t: Dictionary, problems: readonly FieldProblem[] | undefined): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const problem of problems ?? []) texts[problem.path.replace(/^(body|query)\./, "")] ??= fieldText(t, problem.key);
  return texts;
}

/**
 * An error as a page's form shows it: a message next to each field it names, or else one for the
 * whole form.
 */
export function pageErrors(t: Dictionary, error: ApiError): { fieldErrors: Record<string, string>; formError: string | null } {
  const fieldErrors = fieldTexts(t, error.errors);
  return { fieldErrors, formError: Object.keys(fieldErrors).length > 0 ? null : problemTextOf(t, error) };
}

/** Zod issues of a page's own parse, in `t`'s language. */
export const issueTexts = (t: Dictionary, issues: readonly z.core.$ZodIssue[]) => fieldTexts(t, fieldProblems(issues));

export const internalError = () => new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side. It has been logged.");
