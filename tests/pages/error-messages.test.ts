import { describe, expect, it } from "vitest";
import type { Locale } from "../../app/lib/i18n.ts";
import { baseUrl, freshIp, sessionOf, unique } from "../support/api.ts";
import { assign, createForm, createStudent, mixedForm } from "../support/assessment.ts";
import { createSignedInUser, png } from "../support/fixtures.ts";
import { errorMessagesIn, foreignMessages } from "../support/page-messages.ts";
import { enableEmail } from "../support/two-factor.ts";

/**
 * Every page form, sent empty and wrong in Spanish and Portuguese, as a browser without
 * JavaScript does: each error the page shows must be a sentence of that language's dictionary.
 */

type Fields = Record<string, string | Blob>;

/** GETs the page (its CSRF token and cookie), then POSTs the form the way a browser does. */
async function send(path: string, fields: Fields, session?: string) {
  const page = await fetch(`${baseUrl()}${path}`, { headers: session ? { cookie: session } : {} });
  const html = await page.text();
  const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1];
  const csrfCookie = page.headers
    .getSetCookie()
    .find((c) => c.startsWith("remix-auth.csrf-token="))
    ?.split(";")[0];
  const cookie = [session, csrfCookie].filter(Boolean).join("; ");
  const withToken: Fields = csrfToken ? { csrfToken, ...fields } : fields;
  const multipart = Object.values(withToken).some((value) => value instanceof Blob);
  let body: BodyInit;
  const headers: Record<string, string> = { cookie, "sec-fetch-site": "same-origin", "x-forwarded-for": freshIp() };
  if (multipart) {
    const form = new FormData();
    for (const [key, value] of Object.entries(withToken)) form.append(key, value);
    body = form;
  } else {
    body = new URLSearchParams(withToken as Record<string, string>);
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const response = await fetch(`${baseUrl()}${path}`, { method: "POST", redirect: "manual", headers, body });
  return { status: response.status, html: await response.text(), setCookies: response.headers.getSetCookie() };
}

/** The page shows at least one error, and every one of them in `locale`. */
function expectErrorsIn(locale: Locale, html: string, expected?: string) {
  const shown = errorMessagesIn(html);
  expect(shown.length, "the page shows no error").toBeGreaterThan(0);
  expect(foreignMessages(html, locale), `messages not in ${locale}: ${shown.join(" | ")}`).toEqual([]);
  // A message may be shown on its own (by its field) or in the error summary's link ("Question 3: …").
  if (expected)
    expect(
      shown.filter((text) => text.includes(expected)),
      `${expected} in ${shown.join(" | ")}`,
    ).not.toEqual([]);
}

const texts = {
  es: {
    emailRequired: "Escribe tu dirección de correo.",
    wrongPassword: "El correo electrónico o la contraseña no son correctos.",
    code: "Escribe el código de 6 dígitos.",
    codeWrong: "El código no es correcto.",
    answerRequired: "Esta pregunta necesita una respuesta.",
    fileTooBig: "Elige un archivo de 2 MiB como máximo.",
    passwordCommon: "Esta contraseña es una de las más comunes. Elige una más difícil de adivinar.",
    startAfterEnd: "La fecha de inicio es posterior a la fecha final.",
    ageRange: "Escribe una edad entre 0 y 150.",
    nameRequired: "Escribe un nombre.",
    invalidLink: "Este enlace ya no es válido: ya se usó, caducó o se envió uno más reciente.",
  },
  "pt-BR": {
    emailRequired: "Informe seu endereço de e-mail.",
    wrongPassword: "O e-mail ou a senha não estão corretos.",
    code: "Informe o código de 6 dígitos.",
    codeWrong: "O código não está correto.",
    answerRequired: "Esta pergunta precisa de uma resposta.",
    fileTooBig: "Escolha um arquivo de no máximo 2 MiB.",
    passwordCommon: "Esta senha é uma das mais comuns. Escolha uma mais difícil de adivinhar.",
    startAfterEnd: "A data inicial é posterior à data final.",
    ageRange: "Informe uma idade de 0 a 150.",
    nameRequired: "Informe um nome.",
    invalidLink: "Este link não é mais válido: já foi usado, expirou ou um mais novo foi enviado.",
  },
} satisfies Record<"es" | "pt-BR", Record<string, string>>;

describe.each(["es", "pt-BR"] as const)("error messages on the %s pages", (locale) => {
  const text = texts[locale];
  const teacher = () => sessionOf("teacher@demo.test");
  const admin = () => sessionOf("admin@demo.test");

  it("given the sign-in form empty, with a wrong password, and a wrong second-factor code, should say so in the page's language", async () => {
    const empty = await send(`/${locale}/login`, { email: "", password: "" });
    expect(empty.status).toBe(400);
    expectErrorsIn(locale, empty.html, text.emailRequired);

    const wrong = await send(`/${locale}/login`, { email: "teacher@demo.test", password: "not the password" });
    expect(wrong.status).toBe(401);
    expectErrorsIn(locale, wrong.html, text.wrongPassword);

    const user = await createSignedInUser("TEACHER");
    await enableEmail(user);
    const first = await send(`/${locale}/login`, { email: user.email, password: user.password });
    expect(first.status).toBe(200);
    const pending = first.setCookies.map((c) => c.split(";")[0]).join("; ");
    const page = await fetch(`${baseUrl()}/${locale}/login`);
    const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(await page.text())![1]!;
    const csrfCookie = page.headers.getSetCookie()[0]!.split(";")[0]!;
    const postCode = async (code: string) => {
      const response = await fetch(`${baseUrl()}/${locale}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${pending}; ${csrfCookie}`, "x-forwarded-for": freshIp() },
        body: new URLSearchParams({ csrfToken, intent: "code", code }),
      });
      return { status: response.status, html: await response.text() };
    };
    const malformed = await postCode("12");
    expect(malformed.status).toBe(400);
    expectErrorsIn(locale, malformed.html, text.code);
    const wrongCode = await postCode("000000");
    expect(wrongCode.status).toBe(401);
    expectErrorsIn(locale, wrongCode.html, text.codeWrong);
  });

  it("given the forgotten-password form empty and a reset link that is not valid, should say so in the page's language", async () => {
    const empty = await send(`/${locale}/forgot-password`, { email: "" });
    expect(empty.status).toBe(400);
    expectErrorsIn(locale, empty.html, text.emailRequired);

    const reset = await fetch(`${baseUrl()}/${locale}/reset-password?token=not-a-token`);
    expect(reset.status).toBe(400);
    expect(await reset.text()).toContain(text.invalidLink);
  });

  it("given the profile's forms with a missing name, a too big avatar and a common password, should say so in the page's language", async () => {
    const user = await createSignedInUser("TEACHER");
    const details = await send(`/${locale}/profile?index`, { name: "", email: user.email, phone: "", specialty: "" }, user.cookie);
    expect(details.status).toBe(400);
    expectErrorsIn(locale, details.html);

    const big = new Blob([png(), new Uint8Array(3 * 1024 * 1024)], { type: "image/png" });
    const avatar = await send(
      `/${locale}/profile?index`,
      { name: "Ana", email: user.email, phone: "", specialty: "", image: new File([big], "big.png", { type: "image/png" }) },
      user.cookie,
    );
    expect(avatar.status).toBe(400);
    expectErrorsIn(locale, avatar.html, text.fileTooBig);

    const password = await send(`/${locale}/profile/password`, { currentPassword: user.password, newPassword: "password123" }, user.cookie);
    expect(password.status).toBe(400);
    expectErrorsIn(locale, password.html, text.passwordCommon);

    const code = await send(`/${locale}/profile/two-factor`, { intent: "enable", method: "TOTP", code: "12" }, user.cookie);
    expect(code.status).toBe(400);
    expectErrorsIn(locale, code.html, text.code);
  });

  it("given a test sent with no answers, should list what each question needs in the page's language", async () => {
    const form = await createForm("teacher@demo.test", mixedForm());
    const student = await createStudent("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const response = await send(`/${locale}/test/${assignment.token}`, {});
    expect(response.status).toBe(400);
    expectErrorsIn(locale, response.html, text.answerRequired);
  });

  it("given the form editor, the person forms, the assignment form, the user form and the group form empty or wrong, should say so in the page's language", async () => {
    const editor = await send(`/${locale}/forms/new`, { intent: "save", title: "", "questions[0].text": "", "questions[0].type": "SINGLE_CHOICE" }, teacher());
    expect(editor.status).toBe(400);
    expectErrorsIn(locale, editor.html);

    for (const path of [`/${locale}/students/new`, `/${locale}/candidates/new`]) {
      const person = await send(path, { name: "", age: "200", email: "not-an-address", status: "ACTIVE" }, teacher());
      expect(person.status).toBe(400);
      expectErrorsIn(locale, person.html, text.ageRange);
    }

    const assignment = await send(`/${locale}/assignments/new`, { formId: "", respondent: "" }, teacher());
    expect(assignment.status).toBe(400);
    expectErrorsIn(locale, assignment.html);

    const user = await send(`/${locale}/admin/users`, { intent: "create", name: "", email: `${unique("x")}`, role: "TEACHER" }, admin());
    expect(user.status).toBe(400);
    expectErrorsIn(locale, user.html);

    const group = await send(`/${locale}/groups/new`, { name: "", description: "x".repeat(2001) }, teacher());
    expect(group.status).toBe(400);
    expectErrorsIn(locale, group.html, text.nameRequired);

    // The import: no file, then a file whose rows are wrong (the problems table is in the page's language too).
    const noFile = await send(`/${locale}/students/import`, { intent: "check", file: new File([], "") }, teacher());
    expect(noFile.status).toBe(400);
    expectErrorsIn(locale, noFile.html);
    const badRows = await send(
      `/${locale}/students/import`,
      { intent: "check", file: new File(["name,age\n,300\n"], "c.csv", { type: "text/csv" }) },
      teacher(),
    );
    expect(badRows.html).toContain(text.ageRange);
    expect(badRows.html).toContain(text.nameRequired);
  });

  it("given the reports filtered from a date after the end date, should say so in the page's language", async () => {
    const response = await fetch(`${baseUrl()}/${locale}/reports?from=2026-03-01&to=2026-01-01`, { headers: { cookie: teacher() } });
    expectErrorsIn(locale, await response.text(), text.startAfterEnd);
  });
});
