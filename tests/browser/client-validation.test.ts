import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, sessionOf } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { launchBrowser, PHONE, signedInContext } from "../support/browser.ts";

/**
 * Page forms check what they can in the browser (Conform, with the constraints and sentences of
 * the action's own schema) and say the same as the server says without JavaScript.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const EMAIL_REQUIRED = "Escribe tu dirección de correo.";

/** Each page form in Spanish: the field left empty, the button that sends the form, and what is said. */
const FORMS = [
  { path: "/es/forgot-password", label: "Correo electrónico", button: "Enviarme un enlace", message: EMAIL_REQUIRED, signedIn: false },
  { path: "/es/login", label: "Correo electrónico", button: "Iniciar sesión", message: EMAIL_REQUIRED, signedIn: false },
  { path: "/es/students/new", label: "Nombre", button: "Crear estudiante", message: "Escribe un nombre.", signedIn: true },
  { path: "/es/profile/password", label: "#password-current", button: "Cambiar la contraseña", message: "Escribe tu contraseña actual.", signedIn: true },
  { path: "/es/admin/users", label: "#new-name", button: "Añadir usuario", message: "Rellena este campo.", signedIn: true },
  { path: "/es/forms/new", label: "#title", button: "Crear el formulario", message: "Rellena este campo.", signedIn: true },
  { path: "/es/assignments/new", label: "#formId", button: "Asignar", message: "Elige un formulario.", signedIn: true },
];

describe("client-side validation", () => {
  it.each(FORMS)(
    "given $path with JavaScript, should say what is missing when the field is left, without a request; without JavaScript the server says the same",
    async ({ path, label, button, message, signedIn }) => {
      const contextFor = (javaScriptEnabled: boolean) =>
        signedIn
          ? signedInContext(browser, sessionOf(path.includes("/admin/") ? "admin@demo.test" : "teacher@demo.test"), { javaScriptEnabled })
          : browser.newContext({ javaScriptEnabled });
      const withScript = await contextFor(true);
      const page = await withScript.newPage();
      await page.goto(`${baseUrl()}${path}`);
      await page.waitForLoadState("networkidle");
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      const field = label.startsWith("#") ? page.locator(label) : page.getByLabel(label);
      await field.focus();
      await page.keyboard.press("Tab");
      const errorOf = async () => page.locator(`#${await field.getAttribute("id")}-error`).textContent();
      await expect.poll(errorOf).toBe(message);
      await page.getByRole("button", { name: button, exact: true }).click();
      await expect.poll(errorOf).toBe(message);
      expect(posts).toEqual([]);
      // A select is fixed by choosing, a text field by typing.
      if ((await field.evaluate((element) => element.tagName)) === "SELECT") await field.selectOption({ index: 1 });
      else await field.fill("x");
      await expect.poll(async () => page.locator(`#${await field.getAttribute("id")}-error`).count()).toBe(0);
      await withScript.close();

      const withoutScript = await contextFor(false);
      const plain = await withoutScript.newPage();
      await plain.goto(`${baseUrl()}${path}`);
      await plain.getByRole("button", { name: button, exact: true }).click();
      await plain.waitForLoadState();
      const plainField = label.startsWith("#") ? plain.locator(label) : plain.getByLabel(label);
      expect(await plain.locator(`#${await plainField.getAttribute("id")}-error`).textContent()).toBe(message);
      await withoutScript.close();
    },
  );

  it("given the respondent's test page on a phone, should say which required question is unanswered before posting, as the server says without JavaScript", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const { token } = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    const required = form.questions.find((question) => question.required)!;
    const message = "Esta pregunta necesita una respuesta.";
    const errorOf = (page: import("playwright-core").Page) => page.locator(`#error-${required.id}`);

    const withScript = await browser.newContext({ viewport: PHONE });
    const page = await withScript.newPage();
    await page.goto(`${baseUrl()}/es/test/${token}`);
    await page.waitForLoadState("networkidle");
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await page.getByRole("button", { name: "Enviar respuestas" }).click();
    await expect.poll(() => errorOf(page).textContent()).toBe(message);
    expect(await page.getByRole("alert").textContent()).toContain(message);
    expect(posts).toEqual([]);
    // Choosing an option clears the message.
    await page
      .getByRole("group", { name: new RegExp(required.text) })
      .getByRole("radio")
      .first()
      .check();
    await expect.poll(() => errorOf(page).count()).toBe(0);
    await withScript.close();

    const withoutScript = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const plain = await withoutScript.newPage();
    await plain.goto(`${baseUrl()}/es/test/${token}`);
    await plain.getByRole("button", { name: "Enviar respuestas" }).click();
    await plain.waitForLoadState();
    expect(await errorOf(plain).textContent()).toBe(message);
    await withoutScript.close();
  });

  it.each([true, false])(
    "given the reports' filters with the start after the end (JavaScript %s), should say so next to the start date",
    async (javaScriptEnabled) => {
      const context = await signedInContext(browser, sessionOf("teacher@demo.test"), { javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/es/reports`);
      await page.getByLabel("Desde").fill("2026-05-10");
      await page.getByLabel("Hasta").fill("2026-05-01");
      await page.getByRole("search").getByRole("button", { name: "Buscar", exact: true }).click();
      await expect.poll(() => page.locator("#from-error").textContent()).toBe("La fecha de inicio es posterior a la fecha final.");
      expect(page.url()).toContain("from=2026-05-10");
      await context.close();
    },
  );
});
