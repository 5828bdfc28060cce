import { writeReadableStreamToWritable } from "@react-router/node";
import type { Response as ExpressResponse } from "express";

/**
 * Writes React Router's Fetch Response to Node's response: status and headers in one writeHead,
 * then the body through React Router's own writer, which flushes after each piece so a streamed
 * page's parts and an export's rows leave as they are written (server/compression.ts gathers the
 * pieces of one turn). Express's adapter sets each header through Express's `res.append`, which
 * reads the header back and, for Content-Type, looks its charset up again (ADR 99).
 *
 * A header the stack in front already set (`Vary: Accept-Encoding` from compression, the request
 * id) is added to, as `res.append` did, not replaced; each Set-Cookie stays a header of its own.
 */
export async function sendFetchResponse(res: ExpressResponse, response: globalThis.Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) {
    const earlier = headers[name] ?? res.getHeader(name);
    if (earlier === undefined) headers[name] = value;
    else if (name === "set-cookie") headers[name] = [...(Array.isArray(earlier) ? earlier : [String(earlier)]), value];
    else headers[name] = `${Array.isArray(earlier) ? earlier.join(", ") : String(earlier)}, ${value}`;
  }
  res.writeHead(response.status, response.statusText, headers);
  if (response.body && res.req.method !== "HEAD") await writeReadableStreamToWritable(response.body, res);
  else {
    await response.body?.cancel();
    res.end();
  }
}
