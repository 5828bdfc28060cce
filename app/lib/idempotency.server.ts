import { createHash } from "node:crypto";
import { decryptSecret, encryptSecret } from "./crypto.server.ts";
import { db, isUniqueViolation } from "./db.server.ts";
import { MULTIPART_BODY_LIMIT, readBytes } from "./http.server.ts";
import { ApiError, fieldProblem } from "./problem.server.ts";
import { requestFault } from "./request-faults.server.ts";

/**
 * `Idempotency-Key` on the operations that create something (docs/api-contract.md §23, ADR 48), after the
 * IETF draft "The Idempotency-Key HTTP Header Field": the first request made with a key is
 * processed and its answer stored; a repeat by the same user with the same request within 24 hours
 * gets that answer again and changes nothing. The endpoint wrapper (endpoint.server.ts) calls this
 * for every operation declared with `idempotencyKey: true`.
 */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** Set to `true` on an answer given again from the store (as Stripe's API does), absent on a first answer. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** How long a key and its answer are kept: a repeat after this is a new request (housekeeping then deletes the key). */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * A first request still unanswered after this long was abandoned (its instance stopped while
 * processing it): the next request with the key is processed as new. No request runs this long: a
 * body must arrive within 30 s, and the longest transaction gives up after 70 s (LONG_WRITE).
 */
export const ABANDONED_AFTER_MS = 2 * 60 * 1000;

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * Answers stored and replayed: every 2xx and 4xx (and 3xx, which no such operation gives), as the
 * draft asks ("the result of the previously completed operation, success or an error"), except
 * those that tell the client to come back later. Those, every 5xx, and failures that were not the
 * request's fault (the database away, a client gone) release the key, so that a retry is
 * processed anew (ADR 48).
 */
const TRY_AGAIN_LATER = new Set([408, 425, 429]);

/** The headers of an answer that a replay gives again; the others are the server's of the moment. */
const REPLAYED_HEADERS = ["content-type", "location", "content-location", "etag", "last-modified"];

const invalidKey = (problem: ReturnType<typeof fieldProblem>) =>
  new ApiError(
    400,
    "VALIDATION_FAILED",
    `The ${IDEMPOTENCY_KEY_HEADER} header must be a string of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, quoted or not.`,
    [problem],
  );

export const idempotencyKeyInUse = () =>
  new ApiError(
    409,
    "IDEMPOTENCY_KEY_IN_USE",
    `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed. Send it again in a moment to get its answer.`,
  );

export const idempotencyKeyReused = () =>
  new ApiError(
    422,
    "IDEMPOTENCY_KEY_REUSED",
    `This ${IDEMPOTENCY_KEY_HEADER} was used in the last 24 hours for another request (another path, query or body). Use a new key for a new request.`,
  );

/** RFC 8941 §3.3.3 sf-string: printable ASCII in double quotes, with `\"` and `\\` escaped. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

/**
 * The key of a request, or null without the header. The draft makes the value a Structured Field
 * String (`Idempotency-Key: "8e03978e-…"`); many clients send the bare value, so a value that does
 * not start with a quote is taken as it is. Either way 1 to 255 printable ASCII characters, else 400.
 */
export function readIdempotencyKey(headers: Headers): string | null {
  const value = headers.get(IDEMPOTENCY_KEY_HEADER);
  if (value === null) return null;
  const field = IDEMPOTENCY_KEY_HEADER;
  let key = value;
  if (value.startsWith('"')) {
    const quoted = SF_STRING.exec(value);
    if (!quoted) throw invalidKey(fieldProblem(field, "invalid"));
    key = quoted[1]!.replace(/\\(["\\])/g, "$1");
  }
  if (key.length === 0) throw invalidKey(fieldProblem(field, "required"));
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw invalidKey(fieldProblem(field, "tooLong", String(MAX_IDEMPOTENCY_KEY_LENGTH)));
  if (!/^[\x20-\x7e]+$/.test(key)) throw invalidKey(fieldProblem(field, "invalid"));
  return key;
}

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** Objects with their keys in order, at every depth: `{"b":1,"a":2}` and `{"a":2, "b":1}` are one body. */
function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((key) => [key, canonicalJson(object[key])]),
  );
}

/** Form fields by name (a name's values keep their order); a file by its name, type and content. */
async function canonicalFields(entries: Iterable<[string, FormDataEntryValue]>): Promise<unknown> {
  const fields: [string, unknown][] = [];
  for (const [name, value] of entries) {
    fields.push([name, typeof value === "string" ? value : { file: value.name, type: value.type, sha256: sha256(new Uint8Array(await value.arrayBuffer())) }]);
  }
  return fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * What makes two requests the same one: the method, the path with its query (parameters in order
 * of name) and the body read the way the operation reads it (JSON without regard to spacing or the
 * order of keys; form fields without regard to their order or, in multipart, the boundary; any
 * other body byte for byte). A body that does not parse is compared byte for byte.
 */
export async function requestFingerprint(method: string, url: string, contentType: string | null, body: Uint8Array<ArrayBuffer>): Promise<string> {
  const { pathname, searchParams } = new URL(url);
  const query = [...searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  let canonical: unknown = { bytes: sha256(body) };
  try {
    if (mediaType === "application/json" || mediaType.endsWith("+json")) {
      canonical = { json: canonicalJson(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body))) };
    } else if (mediaType === "application/x-www-form-urlencoded") {
      canonical = { form: await canonicalFields(new URLSearchParams(new TextDecoder().decode(body))) };
    } else if (mediaType === "multipart/form-data") {
      const form = await new Request("http://localhost/", { method: "POST", headers: { "content-type": contentType! }, body }).formData();
      canonical = { form: await canonicalFields(form) };
    }
  } catch {
    // Not what it claims to be: compared byte for byte, and the operation answers its 400.
  }
  return sha256(JSON.stringify([method.toUpperCase(), pathname, query, mediaType, canonical]));
}

type StoredKey = { id: string; requestHash: string; status: number | null; responseHeaders: string | null; responseBody: string | null; createdAt: Date };

function replay(stored: StoredKey & { status: number }): Response {
  const headers = new Headers(stored.responseHeaders ? (JSON.parse(stored.responseHeaders) as Record<string, string>) : {});
  const body = stored.responseBody === null ? null : decryptSecret(stored.responseBody);
  headers.set(REPLAYED_HEADER, "true");
  headers.set("Cache-Control", "no-store");
  if (body !== null) headers.set("Content-Length", String(Buffer.byteLength(body)));
  return new Response(body, { status: stored.status, headers });
}

/**
 * Takes the key for this request (a new row, unanswered), or answers from what the key holds: the
 * stored answer to the same request, 422 for another request, 409 while the first is processed.
 * A key past its 24 hours, or abandoned unanswered, is deleted and taken anew. The key is read
 * before anything is written, so a repeat costs a read: on SQLite it never waits for the write lock.
 */
async function claim(userId: string, key: string, requestHash: string, now: () => Date): Promise<{ id: string } | { answer: Response }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const stored = await db.idempotencyKey.findUnique({ where: { userId_key: { userId, key } } });
    if (!stored) {
      try {
        return await db.idempotencyKey.create({ data: { userId, key, requestHash, createdAt: now() }, select: { id: true } });
      } catch (error) {
        // Another request took the key since we looked: read what it holds.
        if (!isUniqueViolation(error)) throw error;
        continue;
      }
    }
    const age = now().getTime() - stored.createdAt.getTime();
    const expired = age >= IDEMPOTENCY_KEY_LIFETIME_MS;
    if (expired || (stored.status === null && age >= ABANDONED_AFTER_MS)) {
      // Only that row, and an abandoned one only while it is still unanswered.
      await db.idempotencyKey.deleteMany({ where: { id: stored.id, ...(expired ? {} : { status: null }) } });
      continue;
    }
    if (stored.requestHash !== requestHash) throw idempotencyKeyReused();
    if (stored.status === null) throw idempotencyKeyInUse();
    return { answer: replay({ ...stored, status: stored.status }) };
  }
  // Taken and freed again while we looked: someone else is processing it now.
  throw idempotencyKeyInUse();
}

const keeps = (request: Request, response: Response) => response.status < 500 && !TRY_AGAIN_LATER.has(response.status) && !requestFault(request);

/**
 * Runs `run` once per key: `request` is the request as it arrived; `run` gets a copy of it whose
 * body has already been read (to fingerprint it). Errors thrown here are ApiErrors (400 for a bad
 * key or body, 409, 422) and database failures, for the endpoint wrapper to answer.
 */
export async function withIdempotencyKey(
  userId: string,
  key: string,
  request: Request,
  run: (request: Request) => Promise<Response>,
  now: () => Date = () => new Date(),
): Promise<Response> {
  // The body is read before the key is taken: a body refused (413) or cut short takes no key.
  const body = await readBytes(request, MULTIPART_BODY_LIMIT);
  const requestHash = await requestFingerprint(request.method, request.url, request.headers.get("content-type"), body);
  const claimed = await claim(userId, key, requestHash, now);
  if ("answer" in claimed) return claimed.answer;

  let response: Response;
  try {
    response = await run(
      new Request(request.url, { method: request.method, headers: request.headers, body: body.byteLength > 0 ? body : null, signal: request.signal }),
    );
  } catch (error) {
    await release(claimed.id);
    throw error;
  }
  if (!keeps(request, response)) {
    await release(claimed.id);
    return response;
  }
  // Every operation that takes a key answers JSON, so the body is kept as text.
  const text = await response.text();
  const headers = Object.fromEntries(REPLAYED_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])));
  try {
    await db.idempotencyKey.updateMany({
      where: { id: claimed.id, status: null },
      data: { status: response.status, responseHeaders: JSON.stringify(headers), responseBody: encryptSecret(text) },
    });
  } catch (error) {
    // The change is made and the client gets its answer; only a repeat would not find it.
    console.error(`[idempotency] the answer to a request could not be stored:`, error instanceof Error ? error.message : error);
  }
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Frees a key whose request got no answer worth keeping, so that a retry is processed anew. */
async function release(id: string) {
  try {
    await db.idempotencyKey.deleteMany({ where: { id, status: null } });
  } catch (error) {
    // The key stays taken until it counts as abandoned (ABANDONED_AFTER_MS).
    console.error(`[idempotency] a key could not be freed:`, error instanceof Error ? error.message : error);
  }
}

/** Keys past their 24 hours, for the hourly housekeeping. */
export const purgeExpiredIdempotencyKeys = (now: Date) =>
  db.idempotencyKey.deleteMany({ where: { createdAt: { lte: new Date(now.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS) } } });
