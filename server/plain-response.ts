import type { Response } from "express";
import type { PlainResponse } from "../app/lib/service-status.server.ts";

/** Sends an answer made by app/lib/service-status.server.ts. */
export function sendPlain(res: Response, response: PlainResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.end(response.body);
}
