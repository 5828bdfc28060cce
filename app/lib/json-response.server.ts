/**
 * A JSON response with its length declared. React Router hands a body on as a stream, so without
 * `Content-Length` the compression in front of it (server/app.ts) cannot see that a body is under
 * its 1 KB threshold and gzipped every answer, a session check's 300 bytes included, for every
 * client that accepts gzip (a zlib stream each, and a larger answer than the plain one).
 */
export function jsonResponse(data: unknown, init: { status?: number; statusText?: string; headers: Headers }): Response {
  const body = JSON.stringify(data);
  init.headers.set("Content-Length", String(Buffer.byteLength(body)));
  return new Response(body, init);
}
