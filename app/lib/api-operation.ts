import type { z } from "zod";

/**
 * What an API route module says about each of its methods, next to the handler
 * (`endpoint(handlers, operations)` in app/lib/endpoint.server.ts). The OpenAPI document is
 * generated from the routes of app/routes.ts and these declarations (openapi.server.ts); the path
 * and its parameters come from the route itself.
 */
// Types and plain strings only: route modules import this, and their browser chunks must not
// evaluate Zod (a module-level schema here would ship Zod to the browser).
/**
 * How a body may come: `csv` is a file sent as the whole body (text/csv), not parsed against the
 * schema; `fhir` is JSON sent as application/fhir+json.
 */
export type BodyType = "json" | "form" | "multipart" | "csv" | "fhir";

export type OperationDeclaration = {
  operationId: string;
  summary: string;
  tag: string;
  /** "session": needs the session cookie (and, for writes, the CSRF header); "public": anyone. */
  auth: "session" | "public";
  roles?: string;
  query?: z.ZodObject;
  body?: { schema: z.ZodType; types: BodyType[] };
  success: {
    status: number;
    description: string;
    schema?: z.ZodType;
    contentType?: string | string[];
    headers?: string[];
    /**
     * Where a 201's `Location` points: a path whose `{name}` parts (dotted: `{student.id}`) the
     * endpoint wrapper fills from the answer's body (ADR 55). A 201 without it creates no one
     * resource of its own (a batch) and says so in its description.
     */
    location?: string;
  };
  /** Another success an option of the call gives (a dry run's 200 beside the import's 201). */
  alsoSuccess?: { status: number; description: string; schema: z.ZodType };
  /**
   * The operation creates something and takes an `Idempotency-Key` header (docs/api-contract.md §23, ADR 48):
   * a repeat with the same key gets the first answer again. The endpoint wrapper does the rest,
   * and the OpenAPI document lists the header with its 409 and 422 answers.
   */
  idempotencyKey?: true;
  /**
   * The answer is one record with its `ETag` (app/lib/entity-tag.server.ts, ADR 55); on a PUT,
   * `If-Match` makes the write conditional: 412 PRECONDITION_FAILED when the record has changed.
   */
  versioned?: true;
  /** Where a plain HTML form post (not JSON) is redirected instead of the success answer. */
  formRedirect?: string;
  errors: number[];
  /**
   * Error codes this operation answers beyond those every operation with that status can answer
   * (openapi.server.ts: VALIDATION_FAILED for 400, NOT_FOUND for 404, ...), by status.
   */
  codes?: Partial<Record<number, readonly string[]>>;
};

/** A declared operation at its place in the route table. */
export type Operation = OperationDeclaration & { method: "get" | "post" | "put" | "patch" | "delete"; path: string; pathParams: string[] };

/** Bodies a browser form can send as well as a script. */
export const browserBody: BodyType[] = ["json", "form", "multipart"];

export const STAFF = "SUPER_ADMIN, ADMIN, TEACHER";
export const ADMINS = "SUPER_ADMIN, ADMIN";
