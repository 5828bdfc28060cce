import type { BrowserContextOptions, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, PHONE, sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { type CreatedUser, createSignedInUser } from "../support/fixtures.ts";

/**
 * The instrument library's pages in real Chromium (docs/api-contract.md §17): the list, an
 * instrument's details in another of its languages, installing the PHQ-9 in Spanish with
 * JavaScript off (plain posts) and on, and the installed form's editor, whose items are shown and
 * not edited while its details are saved. Screenshots go to $SCREENSHOT_DIR.
 */
const LONG = 180_000;

const browser = sharedBrowser();
let teacher: CreatedUser;

beforeAll(async () => {
  teacher = await createSignedInUser("TEACHER");
});

async function open(pathname: string, options: BrowserContextOptions & { javaScriptEnabled: boolean }) {
  const context = await signedInContext(browser(), teacher.cookie, options);
  const page = await context.newPage();
  await goto(page, pathname, options.javaScriptEnabled);
  return { context, page };
}

async function goto(page: Page, pathname: string, javaScriptEnabled: boolean) {
  await page.goto(`${baseUrl()}${pathname}`);
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

describe("the library pages", () => {
  it.each([false, true])(
    "given the PHQ-9 installed in Spanish from the library (JavaScript %s), should open its editor with the items read-only and the details editable",
    async (javaScriptEnabled) => {
      const { context, page } = await open("/en/home", { javaScriptEnabled });
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Library" }).click();
      await page.waitForURL(`${baseUrl()}/en/library`);
      await page.getByRole("heading", { level: 1, name: "Instrument library" }).waitFor();
      expect(await page.getByRole("heading", { level: 2 }).allTextContents()).toEqual(
        expect.arrayContaining(["PHQ-9", "GAD-7", "DASS-21", "Rosenberg Self-Esteem Scale"]),
      );
      expect(
        await page
          .getByRole("listitem")
          .filter({ has: page.getByRole("heading", { name: "PHQ-9", exact: true }) })
          .textContent(),
      ).toMatch(/9 items · Version 2.*Languages:English, Español, Português \(Brasil\)/);
      await page.getByRole("link", { name: "PHQ-9: details and install" }).click();
      await page.waitForURL(`${baseUrl()}/en/library/phq-9`);
      await page.getByRole("heading", { level: 1, name: "PHQ-9" }).waitFor();
      await page.getByText("Kroenke K, Spitzer RL, Williams JBW").waitFor();
      await page.getByText("Little interest or pleasure in doing things").waitFor();
      expect(await page.getByRole("list", { name: "Bands" }).first().textContent()).toContain("Moderately severe15 to 19");

      // The items in Spanish, by a plain GET form.
      await page.getByLabel("Show the items in").selectOption("es");
      await page.getByRole("button", { name: "Show" }).click();
      await page.waitForURL(/language=es/);
      await page.getByText("Poco interés o placer en hacer cosas").waitFor();
      await screenshot(page, `library-phq9-js-${javaScriptEnabled}.png`);

      const title = unique("PHQ-9 clínica");
      expect(await page.getByLabel("Language of the form").inputValue()).toBe("es");
      await page.getByLabel("Title").fill(title);
      await page.getByRole("button", { name: "Install", exact: true }).click();
      await page.waitForURL(/\/en\/forms\/[a-z0-9]+$/);
      if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.getByText("The instrument is installed as a new form").waitFor();
      const formId = page.url().split("/").pop()!;
      const installed = await api("GET", `/api/forms/${formId}`, { cookie: teacher.cookie });
      expect(installed.body).toMatchObject({ title, instrument: { key: "phq-9", version: "2", language: "es" }, isPublished: false });

      // The editor: the notice, the items to read, no field of the form editor's.
      const notice = page.getByRole("note");
      expect(await notice.textContent()).toContain("This form is PHQ-9 (version 2, Español)");
      expect(await notice.textContent()).toContain("Licence: Free: developed with an educational grant from Pfizer Inc.");
      await page.getByText("Poco interés o placer en hacer cosas").waitFor();
      expect(await page.locator('[name="questions[0].text"]').count()).toBe(0);
      await screenshot(page, `installed-form-js-${javaScriptEnabled}.png`);

      // What the lock leaves open: the details, and publishing.
      await page.getByLabel("Critical message").fill("Llama al 555-0100 a cualquier hora.");
      await page.getByLabel("Title").fill(`${title} (nuestra)`);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Saved.").waitFor();
      if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.getByRole("button", { name: "Publish" }).click();
      await page.getByText("The form is published.").waitFor();
      const saved = await api("GET", `/api/forms/${formId}`, { cookie: teacher.cookie });
      expect(saved.body).toMatchObject({
        title: `${title} (nuestra)`,
        criticalMessage: "Llama al 555-0100 a cualquier hora.",
        isPublished: true,
        questions: installed.body.questions,
        scoreRanges: installed.body.scoreRanges,
      });
      await context.close();
    },
    LONG,
  );

  it("given an instrument not given in the page's language, should say so and show its English", async () => {
    const { context, page } = await open("/es/library/gad-7", { javaScriptEnabled: false });
    await page.getByText("Este instrumento no está disponible en Español: se muestran sus textos en inglés.").waitFor();
    await page.getByText("Feeling nervous, anxious, or on edge").waitFor();
    expect(await page.getByLabel("Idioma del formulario").locator("option").allTextContents()).toEqual(["English"]);
    await context.close();
  });

  it(
    "given the list, an instrument with subscales and an installed form, should have no serious accessibility violation at either width",
    async () => {
      const installed = await api("POST", "/api/instruments/dass-21/install", { cookie: teacher.cookie, json: {} });
      expect(installed.status, installed.text).toBe(201);
      for (const viewport of [DESKTOP, PHONE]) {
        for (const pathname of ["/en/library", "/en/library/dass-21", "/es/library/phq-9?language=pt-BR", `/en/forms/${installed.body.id}`]) {
          // bypassCSP only so axe can be injected.
          const { context, page } = await open(pathname, { javaScriptEnabled: true, viewport, bypassCSP: true });
          expect(await seriousAccessibilityViolations(page), `${pathname} ${viewport.width}`).toEqual([]);
          await context.close();
        }
      }
    },
    ACCESSIBILITY_SCAN_TIMEOUT,
  );
});
