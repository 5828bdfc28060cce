import { describe, expect, it } from "vitest";
import { baseUrl } from "../support/api.ts";
import { createSignedInUser } from "../support/fixtures.ts";
import { enableEmail, enableTotp, mailCount, nextMailedCode, totpCode, wrongTotpCode } from "../support/two-factor.ts";

/**
 * The sign-in page's second step as a browser without JavaScript uses it: plain form posts, the
 * cookies the answers set, and the HTML they render.
 */
const cookieValue = (response: Response, name: string) => response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

async function openLoginPage() {
  const response = await fetch(`${baseUrl()}/en/login`);
  const html = await response.text();
  return {
    csrfToken: /name="csrfToken" value="([^"]+)"/.exec(html)![1]!,
    cookie: response.headers.getSetCookie()[0]!.split(";")[0]!,
  };
}

const post = (cookie: string, fields: Record<string, string>) =>
  fetch(`${baseUrl()}/en/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams(fields),
  });

/** Posts e-mail and password; answers the code step's HTML and the cookies to send with it. */
async function passwordStep(user: { email: string; password: string }) {
  const page = await openLoginPage();
  const response = await post(page.cookie, { email: user.email, password: user.password, csrfToken: page.csrfToken });
  const html = await response.text();
  const pending = cookieValue(response, "remix-auth.two-factor-pending");
  return { response, html, pending, page, cookies: `${page.cookie}; ${pending?.split(";")[0] ?? ""}` };
}

describe("sign-in page with a second factor", () => {
  it("given the right password, should ask for the code without putting the password in the page, then sign in with it", async () => {
    const user = await createSignedInUser("TEACHER");
    const otpauthUrl = await enableTotp(user);
    const step = await passwordStep(user);
    expect(step.response.status).toBe(200);
    expect(cookieValue(step.response, "remix-auth.session-token")).toBeUndefined();
    expect(step.pending).toMatch(/HttpOnly/i);
    expect(step.pending).toMatch(/Secure/i);
    expect(step.pending).toMatch(/SameSite=Lax/i);
    expect(step.html).toMatch(/<label[^>]*for="code"/);
    expect(step.html).toMatch(/name="code"/);
    expect(step.html).toMatch(/autocomplete="one-time-code"/i);
    expect(step.html).toContain("authenticator app");
    expect(step.html).toContain(user.email);
    expect(step.html).not.toContain(user.password);
    expect(step.html).not.toMatch(/name="password"/);

    // A wrong code: the error sits next to the field, the step stays.
    const wrong = await post(step.cookies, { intent: "code", code: await wrongTotpCode(otpauthUrl), csrfToken: step.page.csrfToken });
    expect(wrong.status).toBe(401);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('id="code-error"');
    expect(wrongHtml).toContain("not correct");
    expect(wrongHtml).toMatch(/aria-describedby="code-error"/);
    expect(cookieValue(wrong, "remix-auth.session-token")).toBeUndefined();

    // The right code (typed with the space apps show) signs in and ends the pending state.
    const code = await totpCode(otpauthUrl);
    const right = await post(step.cookies, { intent: "code", code: `${code.slice(0, 3)} ${code.slice(3)}`, csrfToken: step.page.csrfToken });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/en/home");
    const session = cookieValue(right, "remix-auth.session-token")!.split(";")[0]!;
    expect(cookieValue(right, "remix-auth.two-factor-pending")).toMatch(/Expires=Thu, 01 Jan 1970/i);
    const home = await fetch(`${baseUrl()}/en/home`, { headers: { cookie: session } });
    expect(home.status).toBe(200);
  });

  it("given a code step without the pending cookie, should go back to the first step", async () => {
    const page = await openLoginPage();
    const response = await post(page.cookie, { intent: "code", code: "123456", csrfToken: page.csrfToken });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain("Enter your e-mail and password again");
    expect(html).toMatch(/name="password"/);
    expect(cookieValue(response, "remix-auth.session-token")).toBeUndefined();
  });

  it("given a forged pending cookie, should not sign in", async () => {
    const page = await openLoginPage();
    const response = await post(`${page.cookie}; remix-auth.two-factor-pending=forged`, { intent: "code", code: "123456", csrfToken: page.csrfToken });
    expect(response.status).toBe(401);
    expect(cookieValue(response, "remix-auth.session-token")).toBeUndefined();
  });

  it("given EMAIL, should e-mail the code, send a new one on request, and sign in only with the newest", async () => {
    const user = await createSignedInUser("TEACHER");
    await enableEmail(user);
    let seen = await mailCount(user.email);
    const step = await passwordStep(user);
    expect(step.response.status).toBe(200);
    expect(step.html).toContain("We e-mailed a 6-digit code");
    expect(step.html).toMatch(/value="resend"/);
    const first = await nextMailedCode(user.email, seen++);

    const resend = await post(step.cookies, { intent: "resend", csrfToken: step.page.csrfToken });
    expect(resend.status).toBe(200);
    expect(await resend.text()).toContain("We e-mailed a new code");
    const second = await nextMailedCode(user.email, seen++);

    if (first !== second) {
      const old = await post(step.cookies, { intent: "code", code: first, csrfToken: step.page.csrfToken });
      expect(old.status).toBe(401);
      expect(await old.text()).toContain('id="code-error"');
    }
    const right = await post(step.cookies, { intent: "code", code: second, csrfToken: step.page.csrfToken });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/en/home");
    expect(cookieValue(right, "remix-auth.session-token")).toBeTruthy();
  });
});
