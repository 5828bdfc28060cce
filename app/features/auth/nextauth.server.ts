import { z } from "zod";
import { env } from "~/lib/env.server.ts";
import { isLocale, localeFromPath, resolveLocale, type Locale } from "~/lib/i18n.ts";
import { readJsonOrFormBody } from "~/lib/http.server.ts";
import { ApiError, problemResponse } from "~/lib/problem.server.ts";

/**
 * What NextAuth's browser client (`next-auth/react` 4: signIn, signOut) sends and expects (ADR 31).
 * It posts a form with `csrfToken`, `callbackUrl` and `json=true` (and signIn's own options such as
 * `redirect`), reads `{url}` back whatever the status, goes there, and takes a failure's name from
 * that url's `error` parameter.
 */

/** Where the client starts signIn("oidc"): NextAuth's path for the provider with id "oidc". */
export const NEXTAUTH_OIDC_SIGN_IN_PATH = "/api/auth/signin/oidc";

/** A flag as a form sends it ("true") or a script (true). */
const flag = z.union([z.boolean(), z.enum(["true", "false"])]);

export const nextAuthFields = {
  callbackUrl: z
    .string()
    .max(2048)
    .optional()
    .meta({
      description:
        "Where to go afterwards (NextAuth's client sends the current page). Only an address on this service's own origin is used; anything else means the default page.",
      examples: ["/en/forms"],
    }),
  json: flag.optional().meta({
    description: "NextAuth's client sends json=true: a form is then answered with JSON {ok, url} (a failure: the problem with url) instead of a redirect.",
  }),
  redirect: flag.optional().meta({ description: "An option of NextAuth's client, which it posts along; the server does not use it." }),
};

/** A form post of NextAuth's client, which wants JSON back (a plain HTML form wants a redirect). */
const wantsNextAuthJson = (body: Record<string, unknown>) => body.json === "true" || body.json === true;

const appOrigin = () => new URL(env().APP_URL).origin;

/**
 * `callbackUrl` as an absolute address when it is on our own origin (relative ones are), else
 * `fallbackPath` on it: no open redirect. A leftover `error` parameter is dropped, because the
 * client would read it as this call's failure.
 */
export function ownUrl(callbackUrl: string | undefined, fallbackPath: string): string {
  if (callbackUrl) {
    const origin = appOrigin();
    const url = URL.parse(callbackUrl, origin);
    if (url && url.origin === origin && (url.protocol === "https:" || url.protocol === "http:")) {
      url.searchParams.delete("error");
      return url.href;
    }
  }
  return `${env().APP_URL}${fallbackPath}`;
}

/** The locale asked for: `locale`, else that of a callbackUrl of ours; undefined when neither says. */
export function askedLocale(body: Record<string, unknown>): Locale | undefined {
  if (isLocale(body.locale)) return body.locale;
  const callbackUrl = typeof body.callbackUrl === "string" ? URL.parse(body.callbackUrl, appOrigin()) : null;
  return callbackUrl && callbackUrl.origin === appOrigin() ? localeFromPath(callbackUrl.pathname) : undefined;
}

/** The locale to land in: the one asked for, else the default. */
export const landingLocale = (body: Record<string, unknown>): Locale => resolveLocale(askedLocale(body));

/**
 * Where a failed call of the client goes: our sign-in page with `?error=`, as NextAuth does with
 * a custom sign-in page. Wrong credentials are NextAuth's own `CredentialsSignin`, which clients
 * test for; any other failure is named by our code (TWO_FACTOR_REQUIRED, CSRF_FAILED, ...).
 */
export function failureUrl(error: ApiError, locale: Locale): string {
  const name = error.code === "INVALID_CREDENTIALS" ? "CredentialsSignin" : error.code;
  return `${env().APP_URL}/${locale}/login?${new URLSearchParams({ error: name })}`;
}

/** What a sign-in or sign-out route knows of a call before checking it. */
export type AuthCall = {
  /** The body, not yet validated (the CSRF token is checked first). */
  body: Record<string, unknown>;
  /** A script's JSON call. */
  isJson: boolean;
  /** A form of NextAuth's client (json=true): answered with JSON, failures with their url. */
  nextAuth: boolean;
  locale: Locale;
};

/**
 * Runs a POST that a script (JSON), a plain HTML form or NextAuth's client may send: reads the
 * body, and answers a failure of the client's form as problem details with the url it goes to.
 */
export async function authCall(request: Request, run: (call: AuthCall) => Promise<Response>): Promise<Response> {
  const isJson = (request.headers.get("content-type") ?? "").includes("json");
  const body = await readJsonOrFormBody(request, z.looseObject({}));
  const nextAuth = !isJson && wantsNextAuthJson(body);
  const locale = landingLocale(body);
  try {
    return await run({ body, isJson, nextAuth, locale });
  } catch (error) {
    if (nextAuth && error instanceof ApiError) return problemResponse(error, { url: failureUrl(error, locale) });
    throw error;
  }
}
