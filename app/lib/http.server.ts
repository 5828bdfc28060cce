import { parseSubmission } from "@conform-to/react/future";
import { coerceFormValue } from "@conform-to/zod/v4/future";
import type { z } from "zod";
import { jsonResponse } from "./json-response.server.ts";
import type { FieldMessageKey } from "./messages.ts";
import { ApiError, badRequest, fieldProblem, validationError } from "./problem.server.ts";

/** Methods that only read (RFC 9110 §9.2.1): no CSRF check, and a read-only API token may use them. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** Request bodies above these sizes are refused with 413 before they are parsed (docs/api-contract.md §1). */
export const JSON_BODY_LIMIT = 1024 * 1024;
export const MULTIPART_BODY_LIMIT = 5 * 1024 * 1024;

type BodyKind = "json" | "form";

function bodyKind(request: Request): BodyKind | null {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") return "form";
  return null;
}

/**
 * A refused body is still read off the connection and thrown away (up to this many bytes) before
 * the 413 goes out. Answering while the client is still sending would leave the rest unread: the
 * client then often sees a reset connection instead of the 413, and a kept-alive connection would
 * parse the next request from the middle of the old body. Beyond this the connection is closed.
 */
const DISCARD_LIMIT = 32 * 1024 * 1024;

/** Reads at most `limit` bytes, refusing larger bodies whether or not they declare a length. */
export async function readBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > DISCARD_LIMIT) throw tooLarge(limit, { Connection: "close" });
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  if (declared > limit) return discardAndRefuse(reader, limit, size);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) return discardAndRefuse(reader, limit, size);
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

async function discardAndRefuse(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number, received: number): Promise<never> {
  let size = received;
  try {
    while (size <= DISCARD_LIMIT) {
      const { done, value } = await reader.read();
      if (done) throw tooLarge(limit);
      size += value.byteLength;
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The client went away while sending; nobody reads the answer.
    throw tooLarge(limit, { Connection: "close" });
  }
  await reader.cancel();
  throw tooLarge(limit, { Connection: "close" });
}

const tooLarge = (limit: number, headers?: Record<string, string>) =>
  new ApiError(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${limit / 1024 / 1024} MiB.`, undefined, headers);

const unsupportedType = (accepted: string) => new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", `Send the body as ${accepted}.`);

/** Validates a value read earlier; 400 with the field problems. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error.issues);
  return result.data;
}

async function readJsonValue(request: Request): Promise<unknown> {
  const text = new TextDecoder().decode(await readBytes(request, JSON_BODY_LIMIT));
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "MALFORMED_JSON", "The request body is not valid JSON.");
  }
}

/** A JSON body validated by `schema` (400 listing every problem; 415 for another content type). */
export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  if (bodyKind(request) !== "json") throw unsupportedType("application/json");
  return parseWith(schema, await readJsonValue(request));
}

/**
 * A body that may come from a script (JSON) or from a browser form (urlencoded or multipart).
 * Form values are coerced by Conform from the same Zod schema the JSON path uses, so `age=12`
 * and `{"age": 12}` mean the same thing and fail the same way.
 */
export async function readJsonOrFormBody<S extends z.ZodType>(request: Request, schema: S, options: { skipFields?: string[] } = {}): Promise<z.output<S>> {
  const kind = bodyKind(request);
  if (kind === "json") return parseWith(schema, await readJsonValue(request));
  if (kind !== "form") {
    throw unsupportedType("application/json, application/x-www-form-urlencoded or multipart/form-data");
  }
  const bytes = await readBytes(request, MULTIPART_BODY_LIMIT);
  let formData: FormData;
  try {
    formData = await new Request(request.url, {
      method: "POST",
      headers: { "content-type": request.headers.get("content-type")! },
      body: bytes,
    }).formData();
  } catch {
    throw new ApiError(400, "MALFORMED_BODY", "The form body could not be read.");
  }
  return parseWith(coerceFormValue(schema), formPayload(formData, options.skipFields));
}

/**
 * An uploaded CSV file's bytes: the multipart field `file`, or a `text/csv` body, at most 5 MiB.
 * The caller decodes them (a roster may be UTF-8 or Windows-1252).
 */
export async function readCsvUpload(request: Request): Promise<Uint8Array> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "text/csv" && type !== "multipart/form-data") throw unsupportedType("multipart/form-data (the field file) or text/csv");
  const bytes = await readBytes(request, MULTIPART_BODY_LIMIT);
  if (type === "text/csv") return bytes;
  const file = fileOf(await multipartFields(request, bytes), "Send the CSV file in the field `file`.", "chooseFile");
  return new Uint8Array(await file.arrayBuffer());
}

/**
 * The file a multipart body (at most 5 MiB) sends in the field `file`, with the body's other
 * fields (an image's alt text sent with it from a page); the caller checks the file's own size
 * and type.
 */
export async function readFileUpload(request: Request, missing: FieldMessageKey): Promise<{ file: File; fields: FormData }> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "multipart/form-data") throw unsupportedType("multipart/form-data (the field file)");
  const bytes = await readBytes(request, MULTIPART_BODY_LIMIT);
  const fields = await multipartFields(request, bytes);
  return { file: fileOf(fields, "Send the file in the field `file`.", missing), fields };
}

async function multipartFields(request: Request, bytes: Uint8Array<ArrayBuffer>): Promise<FormData> {
  try {
    return await new Request(request.url, { method: "POST", headers: { "content-type": request.headers.get("content-type")! }, body: bytes }).formData();
  } catch {
    throw new ApiError(400, "MALFORMED_BODY", "The form body could not be read.");
  }
}

/** The field `file` of a multipart body; 400 naming it when it holds no file. */
function fileOf(fields: FormData, detail: string, missing: FieldMessageKey): File {
  const file = fields.get("file");
  if (!(file instanceof File)) throw badRequest(detail, [fieldProblem("file", missing)]);
  return file;
}

/**
 * The nested value Conform reads from form field names (`answers[0].text`). A name it cannot read
 * (`a]`, `name[`) or one that would reach an object's prototype (`__proto__.x`, `constructor.x`)
 * is the client's mistake: 400, whichever form it was sent to.
 */
export function formPayload(formData: FormData, skipFields: Iterable<string> = []): Record<string, unknown> {
  return formSubmission(formData, skipFields).payload;
}

/** The whole submission Conform reads from a form (its payload and intent), with the same 400. */
export function formSubmission(formData: FormData, skipFields: Iterable<string> = []) {
  const skip = new Set(skipFields);
  try {
    return parseSubmission(formData, { skipEntry: (name) => skip.has(name) });
  } catch {
    throw new ApiError(400, "MALFORMED_BODY", "A form field name could not be read.");
  }
}

/**
 * A URL's query string as plain values: the one reading of query strings, for the API and the
 * pages alike. Names are taken as they come, never as paths, so `a[`, `__proto__` or
 * `constructor.prototype` are names like any other (unknown to every schema) and nothing built
 * from them reaches an object's prototype or allocates by an index; percent-encoding that does not
 * decode is read as the URL standard says (U+FFFD), never thrown. A name given more than once keeps
 * its first value and is listed in `repeated`.
 */
export function queryValues(url: URL | string): { values: Record<string, string>; repeated: string[] } {
  const params = (typeof url === "string" ? new URL(url) : url).searchParams;
  const values: Record<string, string> = Object.create(null);
  const repeated: string[] = [];
  for (const [key, value] of params) {
    if (Object.hasOwn(values, key)) {
      if (!repeated.includes(key)) repeated.push(key);
    } else values[key] = value;
  }
  return { values, repeated };
}

/**
 * Query parameters validated by `schema`. A repeated parameter is an error rather than silently
 * taking the first or the last value.
 */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const { values, repeated } = queryValues(request.url);
  if (repeated.length > 0) {
    throw validationError(repeated.map((key) => ({ code: "custom" as const, path: [key], message: "giveOnce", input: values[key] })));
  }
  return parseWith(schema, values);
}

/**
 * The query parameters a page reads, by the same reading as `readQuery`, for a page loader to
 * check with its schema: only `names`, and of those the ones given once with a value. An empty
 * value (an "All" choice, an empty date input) and a name given more than once (a hand-edited
 * address) are left out, as a page leaves out any hand-edited filter it cannot use.
 */
export function pageQuery<const N extends string>(request: Request, names: readonly N[]): Partial<Record<N, string>> {
  const { values, repeated } = queryValues(request.url);
  const picked: Partial<Record<N, string>> = {};
  for (const name of names) {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value !== undefined && value !== "" && !repeated.includes(name)) picked[name] = value;
  }
  return picked;
}

export function json(data: unknown, init: number | ResponseInit = 200, mediaType = "application/json"): Response {
  const responseInit = typeof init === "number" ? { status: init } : init;
  const headers = new Headers(responseInit.headers);
  headers.set("Content-Type", `${mediaType}; charset=utf-8`);
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return jsonResponse(data, { ...responseInit, headers });
}

/** A FHIR resource: JSON as `json` answers it, as `application/fhir+json` (docs/fhir.md). */
export const fhirJson = (resource: unknown, init: number | ResponseInit = 200) => json(resource, init, "application/fhir+json");
