import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, launchBrowser, PHONE, signedInContext, screenshot } from "../support/browser.ts";
import { edit, field, fillOptions, intent } from "../support/form-editor.ts";
import { createSignedInUser, type CreatedUser } from "../support/fixtures.ts";

/**
 * The Forms pages in real Chromium: the list, the editor (new and edit), publish, duplicate,
 * templates and delete, with JavaScript off (plain posts with `intent` buttons) and on.
 * Screenshots go to $SCREENSHOT_DIR (default: <tmp>/assessment-screenshots).
 */
/** Whole journeys through a real browser: generous, as the machine may be busy with other runs. */
const LONG = 180_000;

let browser: Browser;
let teacher: CreatedUser;
let template: { id: string; title: string };

beforeAll(async () => {
  browser = await launchBrowser();
  teacher = await createSignedInUser("TEACHER");
  const created = await api("POST", "/api/forms", {
    as: "teacher2@demo.test",
    json: { ...mixedForm(unique("Reading template")), isTemplate: true, isPublished: false },
  });
  expect(created.status, created.text).toBe(201);
  template = created.body;
});

afterAll(async () => {
  await browser?.close();
});

const signedIn = (options: BrowserContextOptions = {}) => signedInContext(browser, teacher.cookie, options);

async function open(context: BrowserContext, pathname: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl()}${pathname}`);
  return page;
}

/** Builds the mixed form through the editor: every question type, a reorder and three bands. */
/** `posts`: whether each editing button posts (JavaScript off) rather than changing the page in place. */
async function buildForm(page: Page, title: string, posts: boolean) {
  await field(page, "title").fill(title);
  await field(page, "category").fill("Screening");
  await field(page, "targetAudience").fill("Grade 5");
  await field(page, "questions[0].text").fill("Pick one");
  await fillOptions(page, 0, [
    ["A", "3"],
    ["B", "-2"],
  ]);
  await field(page, "questions[0].required").check();

  await edit(page, "add-question", "questions[1].text");
  await field(page, "questions[1].text").fill("Pick any");
  await field(page, "questions[1].type").selectOption("MULTIPLE_CHOICE");
  await edit(page, "add-option:1", "questions[1].options[2].text");
  await fillOptions(page, 1, [
    ["two", "2"],
    ["minus one", "-1"],
    ["one and a half", "1.5"],
  ]);

  // The text question first, then the scale question, then swap them back with "Move up".
  await edit(page, "add-question", "questions[2].text");
  await field(page, "questions[2].text").fill("Say something");
  await field(page, "questions[2].type").selectOption("TEXT");
  await edit(page, "add-question", "questions[3].text");
  await field(page, "questions[3].text").fill("Rate it");
  await field(page, "questions[3].type").selectOption("SCALE");
  // The scale's fields appear as its type is chosen, with or without JavaScript.
  await field(page, "questions[3].scale.min").fill("0");
  await field(page, "questions[3].scale.max").fill("3");
  await edit(page, "add-option:3", "questions[3].options[2].text");
  await edit(page, "add-option:3", "questions[3].options[3].text");
  await fillOptions(page, 3, [
    ["0", "0"],
    ["1", "1"],
    ["2", "2"],
    ["3", "3"],
  ]);
  // Without JavaScript the move is a post: wait for its answer before reading the fields again.
  const moved = posts ? page.waitForResponse((response) => response.request().method() === "POST") : Promise.resolve(null);
  await intent(page, "move-up:3").click();
  await moved;
  // Polled through the locator, which follows the page the post answers with (a function waited
  // for in the page can be left behind in the document the navigation replaced).
  await expect.poll(() => field(page, "questions[2].text").inputValue(), { timeout: 30_000 }).toBe("Rate it");
  expect(await field(page, "questions[3].text").inputValue()).toBe("Say something");
  expect(await field(page, "questions[2].options[3].score").inputValue()).toBe("3");

  await edit(page, "add-range", "scoreRanges[0].label");
  await edit(page, "add-range", "scoreRanges[1].label");
  await edit(page, "add-range", "scoreRanges[2].label");
  const bands: [string, string, string, string][] = [
    ["Low", "-5", "0.5", "#b42318"],
    // Overlaps the first band on purpose: fixed after the error is shown.
    ["Medium", "0.5", "5", "#b54708"],
    ["High", "5.5", "9.5", "#1a7f37"],
  ];
  for (const [i, [label, min, max, color]] of bands.entries()) {
    await field(page, `scoreRanges[${i}].label`).fill(label);
    await field(page, `scoreRanges[${i}].min`).fill(min);
    await field(page, `scoreRanges[${i}].max`).fill(max);
    await field(page, `scoreRanges[${i}].color`).fill(color);
  }
}

/** Saves once with the overlap, checks the error by its range and the kept values, fixes and saves. */
async function saveWithOneFix(page: Page, title: string, shot: string) {
  await page.getByRole("button", { name: "Create the form" }).click();
  const error = page.locator('[id="scoreRanges[1]-error"]');
  await error.waitFor();
  expect(await error.textContent()).toBe("This range overlaps score range 1.");
  await screenshot(page, shot);
  expect(await page.getByRole("alert").first().textContent()).toContain("1 field needs attention.");
  // Everything typed is still there.
  expect(await field(page, "title").inputValue()).toBe(title);
  expect(await field(page, "questions[1].options[2].text").inputValue()).toBe("one and a half");
  expect(await field(page, "scoreRanges[2].color").inputValue()).toBe("#1a7f37");
  expect(await page.getByRole("group", { name: "Score range 2" }).getAttribute("aria-describedby")).toBe("scoreRanges[1]-error");
  await field(page, "scoreRanges[1].min").fill("0.75");
  await page.getByRole("button", { name: "Create the form" }).click();
  await page.waitForURL(/\/en\/forms\/[a-z0-9]+$/);
  await page.getByText("The form is created.").waitFor();
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(title);
}

async function findInList(page: Page, title: string) {
  await page.goto(`${baseUrl()}/en/forms`);
  await page.getByRole("searchbox", { name: "Search forms by title" }).fill(title);
  await page.getByRole("search").getByRole("button", { name: "Search" }).click();
  await page.waitForURL(/search=/);
  return page.locator("li", { has: page.getByRole("link", { name: title, exact: true }) });
}

describe("the Forms pages", () => {
  it(
    "given JavaScript off, should build, validate, save, find, publish, duplicate and delete a form, and start one from a template",
    async () => {
      const context = await signedIn({ javaScriptEnabled: false });
      const page = await open(context, "/en/forms/new");
      const title = unique("No-JS screening");
      await buildForm(page, title, true);
      // The server-rendered preview, refreshed by its button.
      await intent(page, "preview").click();
      await page.getByTestId("band-preview").waitFor();
      expect(
        await page
          .getByTestId("band-preview")
          .locator("rect")
          .evaluateAll((rects) => rects.map((r) => r.getAttribute("fill"))),
      ).toEqual(["#b42318", "#b54708", "#1a7f37"]);
      await screenshot(page, "forms-editor-nojs-desktop");
      await saveWithOneFix(page, title, "forms-editor-error-nojs-desktop");
      const editUrl = page.url();

      // Saved as built, in the order shown.
      const id = editUrl.split("/").at(-1)!;
      const saved = await api("GET", `/api/forms/${id}`, { cookie: teacher.cookie });
      expect(saved.body.questions.map((q: any) => [q.text, q.type, q.options.length])).toEqual([
        ["Pick one", "SINGLE_CHOICE", 2],
        ["Pick any", "MULTIPLE_CHOICE", 3],
        ["Rate it", "SCALE", 4],
        ["Say something", "TEXT", 0],
      ]);
      expect(saved.body.scoreRanges).toEqual([
        { min: -5, max: 0.5, label: "Low", color: "#b42318", critical: false },
        { min: 0.75, max: 5, label: "Medium", color: "#b54708", critical: false },
        { min: 5.5, max: 9.5, label: "High", color: "#1a7f37", critical: false },
      ]);
      // Reloading the saved page does not post again.
      await page.reload();
      expect(page.url()).toBe(editUrl);

      let row = await findInList(page, title);
      expect(await row.textContent()).toContain("Not published");
      expect(await row.textContent()).toContain("4 questions · 0 submissions");
      expect(await row.textContent()).toContain("Screening");

      await row.getByRole("link", { name: title }).click();
      await page.getByRole("button", { name: "Publish" }).click();
      await page.getByText("The form is published.").waitFor();
      row = await findInList(page, title);
      expect(await row.textContent()).toContain("Published");
      await page.getByRole("link", { name: title, exact: true }).click();

      await page.getByRole("button", { name: "Duplicate" }).click();
      await page.getByText("This is your copy of the form.").waitFor();
      const copyTitle = `${title} (copy)`;
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(copyTitle);
      expect(await page.locator("main").textContent()).toContain("Not published");
      expect(await field(page, "questions[2].text").inputValue()).toBe("Rate it");

      await page.getByRole("link", { name: "Delete" }).click();
      await page.getByRole("heading", { level: 1, name: "Delete form" }).waitFor();
      expect(await page.getByRole("status").first().textContent()).toContain(`Delete “${copyTitle}”?`);
      await screenshot(page, "forms-delete-confirm-desktop");
      await page.getByRole("button", { name: "Yes, delete the form" }).click();
      await page.waitForURL(`${baseUrl()}/en/forms`);
      await page.getByText("Deleted.").waitFor();
      await findInList(page, title);
      expect(await page.getByRole("link", { name: copyTitle, exact: true }).count()).toBe(0);
      expect(await page.getByRole("link", { name: title, exact: true }).count()).toBe(1);

      await page.goto(`${baseUrl()}/en/forms`);
      await page.getByRole("link", { name: "Start from a template" }).click();
      await page.getByRole("button", { name: `Use this template: ${template.title}` }).click();
      await page.getByText("This is your copy of the template").waitFor();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(template.title);
      expect(await field(page, "questions[0].text").inputValue()).toBe("Pick one");
      await field(page, "title").fill(`${template.title} mine`);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Saved.").waitFor();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`${template.title} mine`);
      await context.close();
    },
    LONG,
  );

  it(
    "given a question without options, should show the error next to its options and keep the other values",
    async () => {
      const context = await signedIn({ javaScriptEnabled: false });
      const page = await open(context, "/en/forms/new");
      await field(page, "title").fill("Only one option");
      await field(page, "questions[0].text").fill("Lonely");
      await field(page, "questions[0].options[0].text").fill("Yes");
      await intent(page, "remove-option:0:1").click();
      await page.waitForFunction(() => !document.querySelector('[name="questions[0].options[1].text"]'));
      expect(await field(page, "questions[0].options[0].text").inputValue()).toBe("Yes");
      await page.getByRole("button", { name: "Create the form" }).click();
      const error = page.locator('[id="questions[0].options-error"]');
      await error.waitFor();
      expect(await error.textContent()).toBe("Give this question at least 2 options.");
      expect(await field(page, "questions[0].text").inputValue()).toBe("Lonely");
      expect(page.url()).toBe(`${baseUrl()}/en/forms/new`);
      await context.close();
    },
    LONG,
  );

  it(
    "given JavaScript on, should build, save, find and publish a form, with the preview following the fields",
    async () => {
      const context = await signedIn();
      const page = await open(context, "/en/forms/new");
      // Hydrated, not only server-rendered: a click before hydration would post the editor's button.
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      const title = unique("JS screening");
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      await buildForm(page, title, false);
      // Conform applies every list edit (add, move, remove) in the page: building the form posted nothing.
      expect(posts).toEqual([]);
      // Live preview: a new label shows without a round trip.
      await field(page, "scoreRanges[2].label").fill("Very high");
      await page.getByTestId("band-preview").getByText("Very high").waitFor();
      await field(page, "scoreRanges[2].label").fill("High");
      await saveWithOneFix(page, title, "forms-editor-error-js-desktop");
      // The focus follows the change: to the new question; after the refused save to the error
      // summary, in view, whose link takes it to the field with the error.
      await edit(page, "add-question", "questions[4].text");
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === "questions[4].text");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.locator('[id="questions[4].text-error"]').waitFor();
      await page.waitForFunction(() => {
        const summary = document.activeElement;
        const rect = summary?.getBoundingClientRect();
        return summary?.getAttribute("role") === "alert" && !!rect && rect.top >= 0 && rect.bottom <= window.innerHeight;
      });
      await page
        .getByRole("alert")
        .getByRole("link", { name: /^Question 5 text: / })
        .click();
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === "questions[4].text");
      const row = await findInList(page, title);
      expect(await row.textContent()).toContain("4 questions");
      await row.getByRole("link", { name: title }).click();
      await page.getByRole("button", { name: "Publish" }).click();
      await page.getByText("The form is published.").waitFor();
      await page.getByRole("button", { name: "Unpublish" }).waitFor();

      // Templates can be used straight from the filtered list too.
      await page.goto(`${baseUrl()}/en/forms`);
      await page.getByLabel("Templates").selectOption("true");
      await page.getByRole("search").getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/isTemplate=true/);
      expect(await page.getByText("Not published").count()).toBeGreaterThan(0);
      await page.getByRole("button", { name: `Use this template: ${template.title}` }).click();
      await page.getByText("This is your copy of the template").waitFor();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(template.title);
      await context.close();
    },
    LONG,
  );

  it(
    "given a colleague's form, should show the 403 page; an unknown one the 404 page",
    async () => {
      const other = await api("POST", "/api/forms", { as: "teacher2@demo.test", json: mixedForm(unique("Not yours")) });
      const context = await signedIn({ javaScriptEnabled: false });
      const page = await context.newPage();
      const forbidden = await page.goto(`${baseUrl()}/en/forms/${template.id}`);
      expect(forbidden?.status()).toBe(403);
      const missing = await page.goto(`${baseUrl()}/en/forms/${other.body.id}`);
      expect(missing?.status()).toBe(404);
      await context.close();
    },
    LONG,
  );

  it(
    "given the list and the editor on a desktop and a phone, should have no serious accessibility violations",
    async () => {
      const form = await api("POST", "/api/forms", { cookie: teacher.cookie, json: mixedForm(unique("Axe form")) });
      expect(form.status, form.text).toBe(201);
      for (const [viewport, suffix] of [
        [DESKTOP, "desktop"],
        [PHONE, "phone"],
      ] as const) {
        const context = await signedIn({ viewport, bypassCSP: true });
        for (const [pathname, name] of [
          ["/en/forms", "forms-list"],
          [`/en/forms/${form.body.id}`, "forms-editor"],
          ["/en/forms/new", "forms-new"],
          ["/en/forms/templates", "forms-templates"],
          ["/es/forms", "forms-list-es"],
        ] as const) {
          const page = await open(context, pathname);
          expect(await seriousAccessibilityViolations(page), `${pathname} ${suffix}`).toEqual([]);
          await screenshot(page, `${name}-${suffix}`);
          if (name === "forms-editor") {
            // Close-ups of the parts a full-page phone shot shrinks too far to judge.
            await screenshot(page.locator("li", { has: page.getByRole("heading", { name: "Question 2" }) }), `forms-editor-question-${suffix}.png`, {
              fullPage: false,
            });
            await screenshot(page.locator("fieldset", { has: page.locator("legend", { hasText: "Score ranges" }) }), `forms-editor-ranges-${suffix}.png`, {
              fullPage: false,
            });
          }
          if (viewport === PHONE) {
            const wide = await page.evaluate(() => document.documentElement.scrollWidth);
            expect(wide, pathname).toBeLessThanOrEqual(PHONE.width);
          }
          await page.close();
        }
        await context.close();
      }
    },
    ACCESSIBILITY_SCAN_TIMEOUT,
  );
});
