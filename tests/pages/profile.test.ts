import { describe, expect, it } from "vitest";
import { api, baseUrl, freshIp, signIn } from "../support/api.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * The profile's pages (details at /profile, then /profile/password, /profile/two-factor,
 * /profile/sessions) as a browser without JavaScript posts their forms: GET the page (the CSRF
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

async function post(path: string, session: string, fields: Record<string, string>, redirect: RequestRedirect = "manual") {
  const page = await open(path, session);
  return fetch(`${baseUrl()}${path}`, {
    method: "POST",
    redirect,
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

    const wrong = await post("/en/profile/password", user.cookie, { currentPassword: "not-it", newPassword: "a brand new phrase" });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain("The current password is not correct.");
    expect(wrongHtml).toMatch(/id="password-current"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="password-current"/);

    const saved = await post("/en/profile/password", user.cookie, { currentPassword: user.password, newPassword: "a brand new phrase" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/en/profile/password");
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
    const page = await open("/en/profile/password", flashCookie ? `${renewed}; ${flashCookie}` : renewed!);
    expect(page.html).toContain("Your password is changed.");
  });

  it("given a student's login, should offer the student fields and no specialty", async () => {
    const student = await createSignedInUser("STUDENT");
    const page = await open("/es/profile", student.cookie);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<html lang="es"');
    expect(page.html).toContain("Edad");
    expect(page.html).not.toContain("Especialidad");

    // The details form posts to the layout's index: /profile?index.
    const saved = await post("/es/profile?index", student.cookie, {
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

  it("given a student clearing a field the form shows, should clear it, and keep the ones it does not show", async () => {
    const student = await createSignedInUser("STUDENT");
    const filled = await post("/en/profile?index", student.cookie, {
      name: "Pupil Filled",
      email: student.email,
      phone: "555 0100",
      age: "11",
      grade: "5",
      gender: "",
    });
    expect(filled.status).toBe(302);
    // The form posts every field it shows: an empty one clears it, as `null` does in the API.
    const cleared = await post("/en/profile?index", student.cookie, { name: "Pupil Filled", email: student.email, phone: "", age: "", grade: "5", gender: "" });
    expect(cleared.status).toBe(302);
    const profile = await api("GET", "/api/user/profile", { cookie: student.cookie });
    expect(profile.body).toMatchObject({ name: "Pupil Filled", phone: null, student: { age: null, grade: "5", gender: null } });
  });

  it("given a form without a CSRF token or with a forged one, should refuse it on every profile page and change nothing", async () => {
    const user = await createSignedInUser("TEACHER");
    const other = await signIn(user.email, user.password);
    const forms: [string, Record<string, string>][] = [
      ["/en/profile?index", { name: "Renamed by a forged post", email: user.email }],
      ["/en/profile/password", { currentPassword: user.password, newPassword: "a forged new phrase" }],
      ["/en/profile/two-factor", { intent: "setup", method: "EMAIL" }],
      ["/en/profile/sessions", {}],
      // Posts of the one-page profile, before the move: refused here too, not sent on.
      ["/en/profile", { intent: "sessions" }],
      ["/en/profile", { intent: "details", name: "Renamed by a forged post", email: user.email }],
    ];
    for (const [path, fields] of forms) {
      for (const csrfToken of [undefined, "forged"]) {
        const response = await fetch(`${baseUrl()}${path}`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: user.cookie, "sec-fetch-site": "same-origin" },
          body: new URLSearchParams({ ...(csrfToken ? { csrfToken } : {}), ...fields }),
        });
        expect(response.status, `${path} ${JSON.stringify(fields)} ${csrfToken}`).toBe(403);
        // The friendly page, not a stack.
        expect(await response.text()).toContain("Not allowed");
      }
    }
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(200);
    expect((await api("GET", "/api/user/role", { cookie: other })).status).toBe(200);
    const profile = await api("GET", "/api/user/profile", { cookie: user.cookie });
    expect(profile.body).toMatchObject({ name: user.profile.name, twoFactorEnabled: false });
    expect(await signIn(user.email, user.password)).toBeTruthy();
  });

  it("given a post of the one-page profile (a page opened before it had a page per concern), should send it on to the page that answers it now", async () => {
    const user = await createSignedInUser("TEACHER");
    const other = await signIn(user.email, user.password);

    const moved = await post("/en/profile", user.cookie, { intent: "sessions" });
    expect(moved.status).toBe(307);
    expect(moved.headers.get("location")).toBe("/en/profile/sessions");
    expect((await api("GET", "/api/user/role", { cookie: other })).status).toBe(200);

    // A browser posts the same body again to the new address (307 keeps the method and the body).
    const followed = await post("/en/profile", user.cookie, { intent: "password", currentPassword: "not-it", newPassword: "another new phrase" }, "follow");
    expect(followed.status).toBe(400);
    expect(new URL(followed.url).pathname).toBe("/en/profile/password");
    expect(await followed.text()).toContain("The current password is not correct.");

    const renamed = await post("/en/profile", user.cookie, { intent: "details", name: "Renamed on the old page", email: user.email, phone: "" }, "follow");
    expect(renamed.status).toBe(200);
    expect(new URL(renamed.url).pathname).toBe("/en/profile");
    expect((await api("GET", "/api/user/profile", { cookie: user.cookie })).body.name).toBe("Renamed on the old page");

    const ended = await post("/en/profile", user.cookie, { intent: "sessions" }, "follow");
    expect(ended.status).toBe(200);
    expect(new URL(ended.url).pathname).toBe("/en/profile/sessions");
    expect((await api("GET", "/api/user/role", { cookie: other })).status).toBe(401);
    expect((await api("GET", "/api/user/role", { cookie: user.cookie })).status).toBe(200);
  });
});
