import type { z } from "zod";

/** A field-level problem, pointing at the input that caused it (`scoreRanges.1.color`). */
export type FieldProblem = { path: string; message: string };

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  413: "Content Too Large",
  415: "Unsupported Media Type",
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

export const badRequest = (detail: string, errors?: FieldProblem[]) =>
  new ApiError(400, "VALIDATION_FAILED", detail, errors);
export const unauthenticated = (detail = "Sign in to continue.") => new ApiError(401, "UNAUTHENTICATED", detail);
export const forbidden = (detail = "Your role may not do this.") => new ApiError(403, "FORBIDDEN", detail);
export const notFound = (what = "resource") => new ApiError(404, "NOT_FOUND", `No such ${what}.`);
export const conflict = (detail: string, code = "CONFLICT") => new ApiError(409, code, detail);
export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, "RATE_LIMITED", `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, undefined, {
    "Retry-After": String(retryAfterSeconds),
  });

/** Zod issues as field problems: `path` is dotted, the root is called `body`/`query` by the caller. */
export function fieldProblems(issues: readonly z.core.$ZodIssue[]): FieldProblem[] {
  return issues.flatMap((issue) => {
    // An object with unknown keys reports them together; one problem per key names each field.
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: [...issue.path, key].join("."),
        message: "Unknown field.",
      }));
    }
    return [{ path: issue.path.join("."), message: issue.message }];
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
    ...(error.errors?.length ? { errors: error.errors } : {}),
  };
}

export function problemResponse(error: ApiError): Response {
  return new Response(JSON.stringify(problemBody(error)), {
    status: error.status,
    headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...error.headers },
  });
}

export const internalError = () =>
  new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side. It has been logged.");
