import { describe, expect, it } from "vitest";
import { api, baseUrl, freshIp, signIn, unique } from "../support/api.ts";
import { mailTo, waitForMail } from "../support/mail.ts";

/**
 * The forgotten-password and reset pages as a browser without JavaScript uses them: GET the form,
 * POST it with the CSRF token from the page and its cookie, follow the redirect.
 */

type Page = { response: Response; html: string; csrfToken: string; cookie: string };

async function open(path: string): Promise<Page> {
  const response = await fetch(`${baseUrl()}${path}`);
  const html = await response.text();
  const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  return { response, html, csrfToken, cookie };
}

function post(path: string, page: Page, fields: Record<string, string>) {
  return fetch(`${baseUrl()}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: page.cookie, "x-forwarded-for": freshIp() },
    body: new URLSearchParams({ csrfToken: page.csrfToken, ...fields }),
  });
}

async function newUser(locale: string) {
  const email = `${unique("page")}@passwords.test`;
  const password = `${unique("Old-pass")} phrase`;
  const response = await api("POST", "/api/users", {
    as: "admin@demo.test",
    json: { email, name: "Página Usuario", role: "TEACHER", password, locale },
  });
  expect(response.status, response.text).toBe(201);
  return { email, password };
}

const tokenIn = (text: string) => /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text)![1]!;

describe("password pages", () => {
  it("given the sign-in page, should link to the forgotten-password page", async () => {
    const html = await (await fetch(`${baseUrl()}/es/login`)).text();
    expect(html).toMatch(/<a[^>]*href="\/es\/forgot-password"[^>]*>¿Olvidaste tu contraseña\?<\/a>/);
  });

  it("given the forgotten-password form, should answer the same neutral message for a known and an unknown address", async () => {
    const user = await newUser("es");
    const page = await open("/es/forgot-password");
    expect(page.response.status).toBe(200);
    expect(page.html).toMatch(/<form[^>]*method="post"/);
    expect(page.html).toMatch(/<label[^>]*for="email"/);
    expect(page.csrfToken).toBeTruthy();

    const known = await post("/es/forgot-password", page, { email: user.email });
    const unknownAddress = `${unique("nobody")}@passwords.test`;
    const unknown = await post("/es/forgot-password", page, { email: unknownAddress });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    // The neutral message, in the page's language, inside the role="status" box.
    const message = (html: string) => /role="status"[\s\S]*?(Si una cuenta usa esta dirección[^<]*)</.exec(html)?.[1];
    const [knownHtml, unknownHtml] = [await known.text(), await unknown.text()];
    expect(message(knownHtml)).toContain("Si una cuenta usa esta dirección");
    expect(message(unknownHtml)).toBe(message(knownHtml));

    const mail = await waitForMail(user.email);
    expect(mail.subject).toBe("Elige una contraseña nueva");
    expect(mail.text).toContain(`${baseUrl()}/es/reset-password?token=`);
    expect(await mailTo(unknownAddress)).toEqual([]);
  });

  it("given an empty e-mail or no CSRF token, should show the error on the page", async () => {
    const page = await open("/en/forgot-password");
    const empty = await post("/en/forgot-password", page, { email: "" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('id="email-error"');
    const forged = await post("/en/forgot-password", { ...page, csrfToken: "forged" }, { email: "someone@passwords.test" });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('role="alert"');
  });

  it("given the e-mailed link, should show the form, refuse a weak password next to the field, then save and send to sign in", async () => {
    const user = await newUser("es");
    const seen = (await mailTo(user.email)).length;
    const request = await post("/es/forgot-password", await open("/es/forgot-password"), { email: user.email });
    expect(request.status).toBe(200);
    const token = tokenIn((await waitForMail(user.email, seen)).text);
    const path = `/es/reset-password?token=${token}`;

    const page = await open(path);
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get("cache-control")).toBe("no-store");
    expect(page.response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.html).toMatch(/<label[^>]*for="password"/);
    expect(page.html).toMatch(/autocomplete="new-password"/i);

    const weak = await post(path, page, { token, password: "password123" });
    expect(weak.status).toBe(400);
    const weakHtml = await weak.text();
    expect(weakHtml).toContain('id="password-error"');
    expect(weakHtml).toContain("Esta contraseña es una de las más comunes.");

    const newPassword = `${unique("New-pass")} phrase`;
    const saved = await post(path, page, { token, password: newPassword });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/es/login?notice=password-reset");
    const login = await fetch(`${baseUrl()}/es/login?notice=password-reset`);
    expect(await login.text()).toContain("Tu nueva contraseña está guardada");
    await expect(signIn(user.email, user.password)).rejects.toThrow(/401/);
    expect(await signIn(user.email, newPassword)).toBeTruthy();

    // The link worked once: the page now explains that it is not valid any more.
    const used = await open(path);
    expect(used.response.status).toBe(400);
    expect(used.html).toContain("ya no es válido");
    expect(used.html).toContain('href="/es/forgot-password"');
    expect(used.html).not.toMatch(/name="password"/);
  });

  it("given a made-up token, should explain that the link is not valid and offer a new one", async () => {
    for (const path of ["/en/reset-password?token=made-up-token", "/en/reset-password"]) {
      const page = await open(path);
      expect(page.response.status, path).toBe(400);
      expect(page.html).toContain("not valid any more");
      expect(page.html).toContain('href="/en/forgot-password"');
    }
  });
});
