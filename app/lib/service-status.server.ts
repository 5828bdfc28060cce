import { randomBytes } from "node:crypto";
import { DEFAULT_ORGANIZATION_KIND } from "~/features/organization/organization-kinds.ts";
import { translations } from "~/i18n/dictionaries.ts";
import { localeFromPath } from "./i18n.ts";
import { ApiError, problemBody } from "./problem.server.ts";

/**
 * Answers the service gives before (or instead of) React Router: the body was too large, the
 * request could not be read, the server is too busy, the database is unavailable. The HTTP server
 * (server/) sends them without running the app, and the app's middleware sends the same ones; API
 * paths get problem details (RFC 9457), pages a small page in the language of the URL.
 */
export type ServiceStatus = "badRequest" | "lengthRequired" | "tooLarge" | "tooManyUploads" | "busy" | "unavailable" | "serverError";

export type PlainResponse = { status: number; headers: Record<string, string>; body: string };

const STATUS: Record<ServiceStatus, number> = {
  badRequest: 400,
  lengthRequired: 411,
  tooLarge: 413,
  tooManyUploads: 429,
  busy: 503,
  unavailable: 503,
  serverError: 500,
};

const PROBLEM: Record<ServiceStatus, { code: string; detail: (limit?: string) => string }> = {
  badRequest: { code: "MALFORMED_REQUEST", detail: () => "The request's address, headers or body could not be read." },
  lengthRequired: { code: "LENGTH_REQUIRED", detail: () => "Send the body with a Content-Length header." },
  tooLarge: { code: "PAYLOAD_TOO_LARGE", detail: (limit) => `The request body is larger than ${limit ?? "the limit"}.` },
  tooManyUploads: {
    code: "TOO_MANY_UPLOADS",
    detail: () => "Too many requests from your address are still sending their bodies. Try again in a few seconds.",
  },
  busy: { code: "SERVER_BUSY", detail: () => "The server is overloaded. Try again in a few seconds." },
  unavailable: { code: "DATABASE_UNAVAILABLE", detail: () => "The database cannot be reached right now. Try again in a few seconds." },
  serverError: { code: "INTERNAL_ERROR", detail: () => "Something went wrong on our side. It has been logged." },
};

/** API requests (and React Router's `.data` requests) get JSON; everything else a page. */
export const wantsProblemDetails = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/") || pathname.endsWith(".data");

export function serviceStatusResponse(
  status: ServiceStatus,
  pathname: string,
  options: { retryAfterSeconds?: number; limitBytes?: number } = {},
): PlainResponse {
  const headers: Record<string, string> = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };
  if (options.retryAfterSeconds) headers["Retry-After"] = String(options.retryAfterSeconds);
  const limit = options.limitBytes ? `${options.limitBytes / 1024 / 1024} MiB` : undefined;
  if (wantsProblemDetails(pathname)) {
    const problem = PROBLEM[status];
    headers["Content-Type"] = "application/problem+json";
    headers["Content-Security-Policy"] = "default-src 'none'; frame-ancestors 'none'";
    const body = problemBody(new ApiError(STATUS[status], problem.code, problem.detail(limit)));
    return { status: STATUS[status], headers, body: JSON.stringify(body) };
  }
  const locale = localeFromPath(pathname);
  // Said before any session is read: no organization, and no word of these differs by kind.
  const words = translations(locale, DEFAULT_ORGANIZATION_KIND);
  const t = words.errors;
  const [title, text]: [string, string] = {
    badRequest: [t.badRequestTitle, t.badRequestText],
    lengthRequired: [t.lengthRequiredTitle, t.lengthRequiredText],
    tooLarge: [t.tooLargeTitle, t.tooLargeText(limit ?? "")],
    tooManyUploads: [t.tooManyUploadsTitle, t.tooManyUploadsText],
    busy: [t.busyTitle, t.busyText],
    unavailable: [t.unavailableTitle, t.unavailableText],
    serverError: [t.errorTitle, t.errorText],
  }[status] as [string, string];
  const nonce = randomBytes(16).toString("base64");
  headers["Content-Type"] = "text/html; charset=utf-8";
  headers["Content-Security-Policy"] = `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
  const retry = status === "busy" || status === "unavailable" || status === "serverError" || status === "tooManyUploads";
  const body = `<!DOCTYPE html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(words.app.name)}</title>
<style nonce="${nonce}">
body{margin:0;font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{max-width:32rem;padding:2rem;text-align:center}
p.code{color:#4338ca;font-weight:600;font-size:.875rem}
h1{font-size:1.75rem;margin:.5rem 0 1rem}
p{line-height:1.5;color:#475569}
a{display:inline-block;margin-top:1.5rem;padding:.625rem 1rem;border-radius:.375rem;background:#4338ca;color:#fff;text-decoration:none;font-weight:600}
</style>
</head>
<body>
<main>
<p class="code">${escapeHtml(t.errorCode(String(STATUS[status])))}</p>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
${retry ? `<a href="">${escapeHtml(t.tryAgain)}</a>` : `<a href="/${locale}/home">${escapeHtml(t.goHome)}</a>`}
</main>
</body>
</html>
`;
  return { status: STATUS[status], headers, body };
}

/** The same answer as a Fetch API Response, for the app's middleware. */
export function serviceStatusFetchResponse(...args: Parameters<typeof serviceStatusResponse>): Response {
  const { status, headers, body } = serviceStatusResponse(...args);
  return new Response(body, { status, headers });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
