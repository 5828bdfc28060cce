import type { RequestHandler } from "express";
import { JSON_BODY_LIMIT, MULTIPART_BODY_LIMIT } from "../app/lib/http.server.ts";
import { serviceStatusResponse } from "../app/lib/service-status.server.ts";
import { sendPlain } from "./plain-response.ts";

/**
 * Body limits for every route, checked against the declared length before a byte of the body is
 * read: form posts of pages up to 1 MiB (urlencoded) or 5 MiB (multipart, the avatar upload),
 * API bodies up to the same limits (docs/api-contract.md §1: 1 MiB JSON, 5 MiB multipart). A larger declared body is answered 413 at
 * once, without being buffered.
 *
 * Page posts must be HTML forms (see isFormBody).
 *
 * Browsers always declare the length of a form post. A page post without one (chunked) is refused
 * with 411, because the page's body is handed to React Router as a stream that would otherwise be
 * read without bound; the API reads chunked bodies itself and counts them (app/lib/http.server.ts).
 */
const PAGE_FORM_LIMIT = JSON_BODY_LIMIT;

const mediaType = (contentType: string | undefined) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();

function limitFor(contentType: string | undefined): number {
  // A roster import may also come as a bare CSV body (docs/api-contract.md §11): the same 5 MiB as a file.
  const type = mediaType(contentType);
  return type === "multipart/form-data" || type === "text/csv" ? MULTIPART_BODY_LIMIT : PAGE_FORM_LIMIT;
}

/**
 * Pages only ever receive HTML forms: urlencoded, or multipart with its boundary. Anything else
 * would fail deep inside an action's `request.formData()`; it is refused here with a 400 page.
 */
function isFormBody(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  if (type === "application/x-www-form-urlencoded") return true;
  return type === "multipart/form-data" && /;\s*boundary=("[^"]+"|[^\s;]+)/i.test(contentType ?? "");
}

export const bodyLimits: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const pathname = req.path;
  const limit = limitFor(req.get("content-type"));
  const declared = req.get("content-length");
  if (declared === undefined) {
    if (req.get("transfer-encoding") === undefined) return next(); // no body at all
    if (pathname.startsWith("/api/")) return next();
    return refuse(req, res, serviceStatusResponse("lengthRequired", pathname));
  }
  if (Number(declared) > limit) return refuse(req, res, serviceStatusResponse("tooLarge", pathname, { limitBytes: limit }));
  if (!pathname.startsWith("/api/") && !isFormBody(req.get("content-type"))) {
    return refuse(req, res, serviceStatusResponse("badRequest", pathname));
  }
  next();
};

/**
 * How much of a refused body is read and thrown away, and for how long, before the connection is
 * cut. Closing a socket with unread data makes the kernel send a reset, and a client still sending
 * then loses the answer already on its way; reading on for a moment (a "lingering close") lets it
 * see the answer and stop. Nothing read is kept.
 */
const DISCARD_LIMIT_BYTES = 32 * 1024 * 1024;
const DISCARD_LIMIT_MS = 5_000;

type Req = Parameters<RequestHandler>[0];
type Res = Parameters<RequestHandler>[1];

function refuse(req: Req, res: Res, response: ReturnType<typeof serviceStatusResponse>) {
  sendPlain(res, response);
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, DISCARD_LIMIT_MS);
  timer.unref();
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT_BYTES) cut();
  });
  req.once("end", () => clearTimeout(timer));
  req.socket.once("close", () => clearTimeout(timer));
}
