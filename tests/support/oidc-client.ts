import { inject } from "vitest";
import { baseUrl } from "./api.ts";
import type { ProviderAccount } from "./oidc-provider.ts";

/**
 * A browser in miniature for the OpenID Connect tests: a cookie jar that follows the rules that
 * matter here (host, path, expiry, SameSite=Strict left out of cross-site navigations), and the
 * steps of signing in at the test provider's development login and consent pages.
 */
type StoredCookie = { name: string; value: string; host: string; path: string; expires: number; sameSite: string };

export class CookieJar {
  private cookies: StoredCookie[] = [];

  /** Stores the Set-Cookie headers of a response to `url`. */
  store(url: string, response: Response): void {
    const { hostname, pathname } = new URL(url);
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";").map((part) => part.trim());
      const separator = pair!.indexOf("=");
      const name = pair!.slice(0, separator);
      const value = pair!.slice(separator + 1);
      let path = pathname.replace(/\/[^/]*$/, "") || "/";
      let expires = Number.POSITIVE_INFINITY;
      let sameSite = "lax";
      for (const attribute of attributes) {
        const [key, raw = ""] = attribute.split("=");
        const lower = key!.toLowerCase();
        if (lower === "path") path = raw;
        else if (lower === "max-age") expires = Date.now() + Number(raw) * 1000;
        else if (lower === "expires" && expires === Number.POSITIVE_INFINITY) expires = Date.parse(raw);
        else if (lower === "samesite") sameSite = raw.toLowerCase();
      }
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.host === hostname && c.path === path));
      if (expires > Date.now() && value !== "") this.cookies.push({ name, value, host: hostname, path, expires, sameSite });
    }
  }

  /** The Cookie header a browser would send to `url`. */
  header(url: string, options: { crossSite?: boolean } = {}): string {
    const { hostname, pathname } = new URL(url);
    const pathMatches = (path: string) => pathname === path || (pathname.startsWith(path) && (path.endsWith("/") || pathname[path.length] === "/"));
    return this.cookies
      .filter((c) => c.host === hostname && c.expires > Date.now() && pathMatches(c.path))
      .filter((c) => !(options.crossSite && c.sameSite === "strict"))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }

  get(name: string, url: string): string | undefined {
    const { hostname } = new URL(url);
    return this.cookies.find((c) => c.name === name && c.host === hostname)?.value;
  }

  /** One request without following redirects, as a top-level navigation. */
  async fetch(url: string, init: RequestInit & { crossSite?: boolean } = {}): Promise<Response> {
    const { crossSite, ...rest } = init;
    const headers = new Headers(rest.headers);
    const cookie = this.header(url, { crossSite });
    if (cookie) headers.set("cookie", cookie);
    headers.set("sec-fetch-mode", "navigate");
    headers.set("sec-fetch-site", crossSite ? "cross-site" : "same-origin");
    const response = await fetch(url, { ...rest, headers, redirect: "manual" });
    this.store(url, response);
    return response;
  }
}

export const providerIssuer = () => inject("oidcIssuer");

/** Adds an account to the test provider (the accounts teacher2, unverified and unknown always exist). */
export async function registerProviderAccount(sub: string, account: ProviderAccount): Promise<void> {
  const response = await fetch(`${providerIssuer()}/test/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sub, ...account }),
  });
  if (response.status !== 204) throw new Error(`Registering ${sub} failed: ${response.status}`);
}

/** GET /api/auth/oidc: the redirect to the provider and its state cookie in the jar. */
export async function startSignIn(jar: CookieJar, query = ""): Promise<{ response: Response; authorizationUrl: string }> {
  const url = `${baseUrl()}/api/auth/oidc${query}`;
  const response = await jar.fetch(url);
  return { response, authorizationUrl: new URL(response.headers.get("location") ?? "", url).toString() };
}

/**
 * Signs in at the provider as `account` (its id: the dev login page takes any password), gives
 * consent, and answers the URL the provider sends the browser back to, without visiting it.
 * With `abort`, cancels at the login page instead.
 */
export async function signInAtProvider(jar: CookieJar, authorizationUrl: string, account: string, options: { abort?: boolean } = {}): Promise<string> {
  let url = authorizationUrl;
  let response = await jar.fetch(url, { crossSite: true });
  for (let step = 0; step < 20; step++) {
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get("location")!, url).toString();
      if (next.startsWith(`${baseUrl()}/`)) return next;
      url = next;
      response = await jar.fetch(url);
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`The provider answered ${response.status} at ${url}:\n${html}`);
    const action = /<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`No interaction form at ${url}:\n${html}`);
    const formUrl = new URL(action.replaceAll("&amp;", "&"), url).toString();
    if (options.abort) {
      url = `${formUrl}/abort`;
      response = await jar.fetch(url);
      continue;
    }
    const body: Record<string, string> = prompt === "login" ? { prompt, login: account, password: "any password" } : { prompt };
    url = formUrl;
    response = await jar.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body),
    });
  }
  throw new Error("The provider did not send the browser back.");
}

/** The provider sends the browser back: a cross-site top-level GET to the callback. */
export function returnToCallback(jar: CookieJar, callbackUrl: string): Promise<Response> {
  return jar.fetch(callbackUrl, { crossSite: true });
}

/** The whole sign-in: start, sign in at the provider as `account`, come back. */
export async function signInWithProvider(jar: CookieJar, account: string, query = "") {
  const { authorizationUrl } = await startSignIn(jar, query);
  const callbackUrl = await signInAtProvider(jar, authorizationUrl, account);
  const response = await returnToCallback(jar, callbackUrl);
  return { callbackUrl, response };
}
