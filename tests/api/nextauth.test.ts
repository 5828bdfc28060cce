import { describe, expect, it } from "vitest";
import { api, baseUrl } from "../support/api.ts";
import { createSignedInUser } from "../support/fixtures.ts";
import { OIDC_PROVIDER_NAME } from "../support/oidc-provider.ts";
import { sessionCookieOf } from "../support/two-factor.ts";

/**
 * The endpoints NextAuth's browser client calls, over plain HTTP with the bodies it sends
 * (ADR 31): a urlencoded form with csrfToken, callbackUrl and json=true, answered with {url}.
 * The real client in Chromium is tests/browser/nextauth-client.test.ts.
 */

async function csrf() {
  const response = await fetch(`${baseUrl()}/api/auth/csrf`);
  const cookie = response.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { csrfToken, cookie };
}

/** A form post as NextAuth's client makes it: its fields, the CSRF token of `cookie`, json=true. */
async function clientPost(path: string, fields: Record<string, string>, options: { cookie?: string; csrfToken?: string } = {}) {
  const token = await csrf();
  return api("POST", path, {
    cookie: [options.cookie, token.cookie].filter(Boolean).join("; "),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: options.csrfToken ?? token.csrfToken, json: "true", ...fields }).toString(),
  });
}

describe("GET /api/auth/providers", () => {
  it("should list the credentials provider and the configured OpenID provider in NextAuth's shape", async () => {
    const response = await api("GET", "/api/auth/providers");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: `${baseUrl()}/en/login`,
        callbackUrl: `${baseUrl()}/api/auth/callback/credentials`,
      },
      oidc: {
        id: "oidc",
        name: OIDC_PROVIDER_NAME,
        type: "oauth",
        signinUrl: `${baseUrl()}/api/auth/signin/oidc`,
        callbackUrl: `${baseUrl()}/api/auth/oidc/callback`,
      },
    });
  });
});

describe("POST /api/auth/callback/credentials with NextAuth's form body", () => {
  it("given the client's fields and a callbackUrl of ours, should sign in and answer that url", async () => {
    const user = await createSignedInUser("TEACHER");
    const callbackUrl = `${baseUrl()}/es/forms?page=2`;
    const response = await clientPost("/api/auth/callback/credentials", { email: user.email, password: user.password, callbackUrl, redirect: "false" });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ok: true, url: callbackUrl });
    const session = sessionCookieOf(response)!;
    expect((await api("GET", "/api/auth/session", { cookie: session })).body.user.email).toBe(user.email);
  });

  it("given a relative callbackUrl, should answer it on our origin", async () => {
    const user = await createSignedInUser("TEACHER");
    const response = await clientPost("/api/auth/callback/credentials", { email: user.email, password: user.password, callbackUrl: "/pt-BR/students" });
    expect(response.body).toEqual({ ok: true, url: `${baseUrl()}/pt-BR/students` });
  });

  it.each([
    "https://evil.example/en/home",
    "//evil.example/en/home",
    "/\\evil.example/en/home",
    `https://evil.example@${new URL(baseUrl()).host}.evil.example/`,
    "javascript:alert(1)",
  ])("given the callbackUrl %s, should fall back to our home page", async (callbackUrl) => {
    const user = await createSignedInUser("TEACHER");
    const response = await clientPost("/api/auth/callback/credentials", { email: user.email, password: user.password, callbackUrl });
    expect(response.status, response.text).toBe(200);
    expect(response.body.url).toBe(`${baseUrl()}/en/home`);
  });

  it("given a plain HTML form with a callbackUrl, should redirect there only when it is ours", async () => {
    const user = await createSignedInUser("TEACHER");
    const post = async (callbackUrl: string) => {
      const token = await csrf();
      return api("POST", "/api/auth/callback/credentials", {
        cookie: token.cookie,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: user.email, password: user.password, csrfToken: token.csrfToken, callbackUrl }).toString(),
      });
    };
    const ours = await post("/es/forms");
    expect(ours.status).toBe(302);
    expect(ours.headers.get("location")).toBe(`${baseUrl()}/es/forms`);
    const theirs = await post("https://evil.example/");
    expect(theirs.status).toBe(302);
    expect(theirs.headers.get("location")).toBe(`${baseUrl()}/en/home`);
  });

  it("given a wrong password, should answer 401 with the url of the sign-in page naming CredentialsSignin, and no session", async () => {
    const user = await createSignedInUser("TEACHER");
    const response = await clientPost("/api/auth/callback/credentials", {
      email: user.email,
      password: "not-the-password",
      callbackUrl: `${baseUrl()}/es/home`,
    });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("INVALID_CREDENTIALS");
    expect(response.body.url).toBe(`${baseUrl()}/es/login?error=CredentialsSignin`);
    expect(sessionCookieOf(response)).toBeUndefined();
  });

  it("given a wrong CSRF token, should answer 403 with the error in the url", async () => {
    const user = await createSignedInUser("TEACHER");
    const response = await clientPost("/api/auth/callback/credentials", { email: user.email, password: user.password }, { csrfToken: "forged" });
    expect(response.status).toBe(403);
    expect(response.body.url).toBe(`${baseUrl()}/en/login?error=CSRF_FAILED`);
  });

  it("given a JSON caller, should keep answering problems without a url", async () => {
    const token = await csrf();
    const response = await api("POST", "/api/auth/callback/credentials", {
      cookie: token.cookie,
      json: { email: "nobody@fixtures.test", password: "not-the-password", csrfToken: token.csrfToken, callbackUrl: "/en/forms" },
    });
    expect(response.status).toBe(401);
    expect(response.body).not.toHaveProperty("url");
  });
});

describe("POST /api/auth/signout with NextAuth's form body", () => {
  it("given the client's fields, should end the session and answer the callbackUrl", async () => {
    const user = await createSignedInUser("TEACHER");
    const callbackUrl = `${baseUrl()}/es/home`;
    const response = await clientPost("/api/auth/signout", { callbackUrl }, { cookie: user.cookie });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ok: true, url: callbackUrl });
    expect(response.headers.get("set-cookie")).toMatch(/remix-auth\.session-token=;/);
    expect((await api("GET", "/api/auth/session", { cookie: user.cookie })).body).toEqual({});
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(401);
  });

  it("given a callbackUrl of another origin, should answer the sign-in page", async () => {
    const user = await createSignedInUser("TEACHER");
    const response = await clientPost("/api/auth/signout", { callbackUrl: "https://evil.example/" }, { cookie: user.cookie });
    expect(response.status).toBe(200);
    expect(response.body.url).toBe(`${baseUrl()}/en/login`);
  });

  it("given a wrong CSRF token, should answer 403 with the error in the url and keep the session", async () => {
    const user = await createSignedInUser("TEACHER");
    const response = await clientPost("/api/auth/signout", { callbackUrl: `${baseUrl()}/en/home` }, { cookie: user.cookie, csrfToken: "forged" });
    expect(response.status).toBe(403);
    expect(response.body.url).toBe(`${baseUrl()}/en/login?error=CSRF_FAILED`);
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(200);
  });
});

describe("POST /api/auth/signin/oidc", () => {
  it("given the client's fields, should set the state cookie and answer the provider's authorization address", async () => {
    const response = await clientPost("/api/auth/signin/oidc", { callbackUrl: `${baseUrl()}/es/home` });
    expect(response.status, response.text).toBe(200);
    const url = new URL(response.body.url);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("redirect_uri")).toBe(`${baseUrl()}/api/auth/oidc/callback`);
    expect(response.headers.get("set-cookie")).toMatch(/^remix-auth\.oidc-state=/);
  });

  it("given no CSRF token, should answer 403", async () => {
    const response = await api("POST", "/api/auth/signin/oidc", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ json: "true" }).toString(),
    });
    expect(response.status).toBe(403);
    expect(response.body.url).toBe(`${baseUrl()}/en/login?error=CSRF_FAILED`);
  });
});
