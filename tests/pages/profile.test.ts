import { describe, expect, it } from "vitest";
import { api, baseUrl, freshIp, signIn } from "../support/api.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * The profile page's forms as a browser without JavaScript posts them: GET the page (the CSRF
 * token is in the page, its cookie in Set-Cookie), POST with both, follow the redirect.
 */
async function open(path: string, session: string) {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie: session } });
  const html = await response.text();
  const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const csrfCookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("remix-auth.csrf-token="))
    ?.split(";")[0];
  return { response, html, csrfToken, cookie: csrfCookie ? `${session}; ${csrfCookie}` : session };
}

async function post(path: string, session: string, fields: Record<string, string>) {
  const page = await open(path, session);
  return fetch(`${baseUrl()}${path}`, {
    method: "POST",
    redirect: "manual",
    // A browser says the form comes from our own page (Sec-Fetch-Site); the action checks the token.
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: page.cookie, "sec-fetch-site": "same-origin", "x-forwarded-for": freshIp() },
    body: new URLSearchParams({ csrfToken: page.csrfToken, ...fields }),
  });
}

const sessionCookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith("remix-auth.session-token="))
    ?.split(";")[0];

describe("the profile page's forms", () => {
  it("given a password change, should show the error by the field, then save it, keep the caller signed in and end the other sessions", async () => {
    const user = await createSignedInUser("TEACHER");
    const other = await signIn(user.email, user.password);

    const wrong = await post("/en/profile", user.cookie, { intent: "password", currentPassword: "not-it", newPassword: "a brand new phrase" });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain("The current password is not correct.");
    expect(wrongHtml).toMatch(/id="password-current"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="password-current"/);

    const saved = await post("/en/profile", user.cookie, { intent: "password", currentPassword: user.password, newPassword: "a brand new phrase" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/en/profile");
    const renewed = sessionCookieOf(saved);
    expect(renewed).toBeTruthy();
    expect((await api("GET", "/api/user/role", { cookie: renewed! })).status).toBe(200);
    expect((await api("GET", "/api/user/role", { cookie: other })).status).toBe(401);
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(401);

    // The redirect carries the flash message, shown once on the next page.
    const flashCookie = saved.headers
      .getSetCookie()
      .find((c) => c.startsWith("flash="))
      ?.split(";")[0];
    const page = await open("/en/profile", flashCookie ? `${renewed}; ${flashCookie}` : renewed!);
    expect(page.html).toContain("Your password is changed.");
  });

  it("given a student's login, should offer the student fields and no specialty", async () => {
    const student = await createSignedInUser("STUDENT");
    const page = await open("/es/profile", student.cookie);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<html lang="es"');
    expect(page.html).toContain("Edad");
    expect(page.html).not.toContain("Especialidad");

    const saved = await post("/es/profile", student.cookie, {
      intent: "details",
      name: "Alumna Nueva",
      email: student.email,
      phone: "",
      age: "12",
      grade: "6º",
      gender: "",
    });
    expect(saved.status).toBe(302);
    const profile = await api("GET", "/api/user/profile", { cookie: student.cookie });
    expect(profile.body.name).toBe("Alumna Nueva");
    expect(profile.body.student).toMatchObject({ age: 12, grade: "6º", gender: null });
  });

  it("given a form without a CSRF token, should refuse it", async () => {
    const user = await createSignedInUser("TEACHER");
    const response = await fetch(`${baseUrl()}/en/profile`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: user.cookie, "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ intent: "sessions" }),
    });
    expect(response.status).toBe(403);
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(200);
  });
});
