import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, baseUrl } from "../support/api.ts";

/** The sign-in page as a browser without JavaScript uses it: GET the form, POST it, follow the redirect. */
async function openLoginPage(locale = "en") {
  const response = await fetch(`${baseUrl()}/${locale}/login`);
  const html = await response.text();
  const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1];
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0];
  return { response, html, csrfToken: csrfToken!, cookie: cookie! };
}

async function postLogin(locale: string, page: { csrfToken: string; cookie: string }, email: string, password: string) {
  return fetch(`${baseUrl()}/${locale}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: page.cookie },
    body: new URLSearchParams({ email, password, csrfToken: page.csrfToken }),
  });
}

describe("pages", () => {
  it("given the root URL, should redirect to the default locale's home", async () => {
    const response = await api("GET", "/");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/en/home");
  });

  it("given no session, should send the home page visitor to sign in", async () => {
    const response = await api("GET", "/en/home");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/en/login");
  });

  it("given the sign-in page, should render a plain form with labelled fields and a CSRF token", async () => {
    const page = await openLoginPage();
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get("content-type")).toContain("text/html");
    expect(page.html).toContain('<html lang="en"');
    expect(page.html).toMatch(/<form[^>]*method="post"/);
    expect(page.html).toMatch(/<label[^>]*for="email"/);
    expect(page.html).toMatch(/<label[^>]*for="password"/);
    expect(page.csrfToken).toBeTruthy();
    expect(page.response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("given the form posted without JavaScript, should sign in and show the home page", async () => {
    const page = await openLoginPage("pt-BR");
    const response = await postLogin("pt-BR", page, "teacher@demo.test", inject("seedPassword"));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/pt-BR/home");
    const session = response.headers.getSetCookie()[0]!.split(";")[0]!;
    const home = await fetch(`${baseUrl()}/pt-BR/home`, { headers: { cookie: session } });
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain("Demo School");
    expect(html).toMatch(/>Sair</); // the shell speaks the URL's language
  });

  it("given a wrong password, should show the error on the page, keep the e-mail and set no session", async () => {
    const page = await openLoginPage();
    const response = await postLogin("en", page, "teacher@demo.test", "wrong-password");
    expect(response.status).toBe(401);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("remix-auth.session-token="))).toBe(false);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain("not correct");
    expect(html).toContain('value="teacher@demo.test"');
  });

  it("given an empty form, should show an error next to each field", async () => {
    const page = await openLoginPage();
    const response = await postLogin("en", page, "", "");
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('id="email-error"');
    expect(html).toContain('id="password-error"');
  });

  it("given no CSRF token, should answer 403 saying the session expired, like a wrong token", async () => {
    const page = await openLoginPage("es");
    for (const csrfToken of ["", "forged"]) {
      const response = await postLogin("es", { ...page, csrfToken }, "teacher@demo.test", inject("seedPassword"));
      expect(response.status, csrfToken).toBe(403);
      expect(response.headers.getSetCookie().some((c) => c.startsWith("remix-auth.session-token="))).toBe(false);
      expect(await response.text()).toContain("Tu sesión caducó. Inténtalo de nuevo.");
    }
  });

  it("given an unknown locale or page, should answer the friendly 404 page", async () => {
    for (const path of ["/xx/login", "/en/nothing-here"]) {
      const response = await fetch(`${baseUrl()}${path}`);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html).toContain("Page not found");
      expect(html).not.toMatch(/\s{4}at /);
    }
  });

  it("given the health check, should answer ok once the database answers", async () => {
    const response = await api("GET", "/healthz");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok" });
  });
});
