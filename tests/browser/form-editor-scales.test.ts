import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, PHONE, sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { edit, field, fillOptions, intent } from "../support/form-editor.ts";

/**
 * The form editor's scoring beyond one total (docs/api-contract.md §15, §16) in Chromium, with
 * JavaScript off (every editing button posts) and on: question keys, a reverse-scored item,
 * critical options and bands, "Apply these options to all questions", the total's scoring, a
 * subscale with its bands, the constants of a change over time (refused in the page with
 * JavaScript, by the action without), the critical message, the warning about questions that give
 * one score, and a scale's named points. Screenshots go to $SCREENSHOT_DIR.
 */
const LONG = 180_000;
const teacher = "teacher@demo.test" as const;

const browser = sharedBrowser();

async function openEditor(javaScriptEnabled: boolean, pathname = "/en/forms/new", options: { viewport?: typeof DESKTOP; bypassCSP?: boolean } = {}) {
  const context = await signedInContext(browser(), sessionOf(teacher), { javaScriptEnabled, ...options });
  const page = await context.newPage();
  await page.goto(`${baseUrl()}${pathname}`);
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return page;
}

/** The id of the form the editor saved and redirected to. */
async function savedFormId(page: Page) {
  await page.waitForURL(/\/en\/forms\/(?!new$)[a-z0-9]+$/);
  return new URL(page.url()).pathname.split("/").pop()!;
}

/** Without JavaScript the editor shows what was last posted: "Update the preview" posts what is typed. */
async function refresh(page: Page, posts: boolean) {
  if (!posts) return;
  const answered = page.waitForResponse((response) => response.request().method() === "POST");
  await intent(page, "preview").click();
  await answered;
  await page.waitForLoadState();
}

const question = (page: Page, index: number) => page.locator("li.question-editor").nth(index);

const LIKERT: [string, string][] = [
  ["Did not apply to me", "0"],
  ["Applied to me to some degree", "1"],
  ["Applied to me a good part of the time", "2"],
  ["Applied to me most of the time", "3"],
];

/** Four items of a DASS-like form: text and key; the last one is said the other way round. */
const ITEMS = [
  ["I found it hard to wind down", "s1"],
  ["I felt that I had nothing to look forward to", "d1"],
  ["I felt I was close to panic", "a1"],
  ["I found it easy to relax", "s2r"],
] as const;

/** The subscale the editor builds: two items, doubled, with the colours the editor gives new bands. */
const STRESS = {
  key: "stress",
  name: "Stress",
  items: ["s1", "s2r"],
  method: "SUM",
  multiplier: 2,
  scoreRanges: [
    { min: 0, max: 4, label: "Normal", color: "#b42318", critical: false },
    { min: 5, max: 12, label: "Severe", color: "#b54708", critical: true },
  ],
  reliableChange: { sd: 2.4, reliability: 0.8 },
  remissionBelow: null,
};
const CRITICAL_MESSAGE = "If you feel unsafe, call the helpline on 0800 000 000 now.";

/**
 * Builds a small DASS-like form through the editor: keys, the Likert options typed once and applied
 * to every question, a reverse item, a critical option, the total's scoring with a critical band, a
 * "stress" subscale (× 2) with its bands, and the critical message. `posts`: whether each editing
 * button posts (JavaScript off).
 */
async function buildDassLike(page: Page, title: string, posts: boolean) {
  await field(page, "title").fill(title);
  await field(page, "questions[0].text").fill(ITEMS[0][0]);
  await field(page, "questions[0].key").fill(ITEMS[0][1]);
  await edit(page, "add-option:0", "questions[0].options[2].text");
  await edit(page, "add-option:0", "questions[0].options[3].text");
  await fillOptions(page, 0, LIKERT);
  for (const [i, [text, key]] of ITEMS.entries()) {
    if (i === 0) continue;
    await edit(page, "add-question", `questions[${i}].text`);
    await field(page, `questions[${i}].text`).fill(text);
    // Question 3's key is wrong at first: the save names it, and it is fixed.
    await field(page, `questions[${i}].key`).fill(i === 2 ? "a 1" : key);
  }

  // The options typed once, applied to the three other questions after saying which ones change.
  await refresh(page, posts);
  await question(page, 0).locator("summary", { hasText: "Apply these options" }).click();
  const confirm = question(page, 0).getByText("This replaces the options of questions 2, 3, and 4, every other question of this type, with these 4 options");
  await confirm.waitFor();
  await page.getByRole("button", { name: "Replace their options (question 1)" }).click();
  await page.getByRole("status").getByText("Options copied to questions 2, 3, and 4.").waitFor();
  for (const i of [1, 2, 3]) {
    await expect.poll(() => field(page, `questions[${i}].options[3].text`).inputValue()).toBe(LIKERT[3]![0]);
    expect(await field(page, `questions[${i}].options[3].score`).inputValue()).toBe("3");
    expect(await field(page, `questions[${i}].text`).inputValue()).toBe(ITEMS[i]![0]);
  }

  await field(page, "questions[3].reverseScored").check();
  await field(page, "questions[1].options[3].critical").check();
  await refresh(page, posts);
  await question(page, 3).getByTestId("mirrored-scores").getByText("Did not apply to me: 0 → 3").waitFor();
  expect(await question(page, 3).getByTestId("mirrored-scores").textContent()).toContain("Applied to me most of the time: 3 → 0");

  await field(page, "scoring.maxMissing").fill("1");
  await field(page, "scoring.display").selectOption("RAW");
  await edit(page, "add-range", "scoreRanges[0].label");
  await field(page, "scoreRanges[0].label").fill("Usual");
  await field(page, "scoreRanges[0].min").fill("0");
  await field(page, "scoreRanges[0].max").fill("6");
  await edit(page, "add-range", "scoreRanges[1].label");
  await field(page, "scoreRanges[1].label").fill("High");
  await field(page, "scoreRanges[1].min").fill("7");
  await field(page, "scoreRanges[1].max").fill("12");
  await field(page, "scoreRanges[1].critical").check();

  await page.getByRole("button", { name: "Add a subscale" }).click();
  await field(page, "subscales[0].key").waitFor();
  await field(page, "subscales[0].key").fill("stress");
  await field(page, "subscales[0].name").fill("Stress");
  await field(page, "subscales[0].multiplier").fill("2");
  const subscale = page.getByRole("group", { name: "Questions in subscale 1" });
  await subscale.getByRole("checkbox", { name: /^s1 · / }).check();
  await subscale.getByRole("checkbox", { name: /^s2r · / }).check();
  for (const [b, [label, min, max]] of [
    ["Normal", "0", "4"],
    ["Severe", "5", "12"],
  ].entries()) {
    await page.getByRole("button", { name: "Add a score range to subscale 1" }).click();
    await field(page, `subscales[0].scoreRanges[${b}].label`).waitFor();
    await field(page, `subscales[0].scoreRanges[${b}].label`).fill(label!);
    await field(page, `subscales[0].scoreRanges[${b}].min`).fill(min!);
    await field(page, `subscales[0].scoreRanges[${b}].max`).fill(max!);
  }
  await field(page, "subscales[0].scoreRanges[1].critical").check();
  // The change over time, with half a pair on the total and a standard deviation of 0 on the
  // subscale: refused, with JavaScript before anything is posted.
  await field(page, "reliableChange.sd").fill("5.1");
  await field(page, "remissionBelow").fill("6");
  await page.getByText("Change over time (subscale 1)").click();
  await field(page, "subscales[0].reliableChange.sd").fill("0");
  await field(page, "subscales[0].reliableChange.reliability").fill("0.8");
  await field(page, "criticalMessage").fill(CRITICAL_MESSAGE);
  await refresh(page, posts);
  // Two items of 0 to 3, added up and doubled; the total's four items, added up.
  await page.getByTestId("subscale-coverage-0").getByText("Scores of this subscale run from 0 to 12.").waitFor();
  await page.getByTestId("score-coverage").getByText("Totals on this form run from 0 to 12.").waitFor();
}

/**
 * Saves with the change-over-time constants refused (with JavaScript the page refuses them itself),
 * fixes them, saves again with question 3's malformed key, checks the error by the field and the
 * values kept, fixes it and saves.
 */
async function saveWithKeyFix(page: Page, shot: string, posts: string[]) {
  const posted = posts.length;
  await page.getByRole("button", { name: "Create the form" }).click();
  const pair = page.locator('[id="reliableChange.reliability-error"]');
  await pair.waitFor();
  if (await page.locator("html[data-hydrated]").count()) expect(posts.length).toBe(posted);
  expect(await pair.textContent()).toBe("Give both the standard deviation and the reliability, or neither.");
  expect(await page.locator('[id="subscales[0].reliableChange.sd-error"]').textContent()).toBe("Enter a standard deviation above 0.");
  expect(await page.getByRole("alert").first().textContent()).toContain("Standard deviation of subscale 1: Enter a standard deviation above 0.");
  await field(page, "reliableChange.reliability").fill("0.92");
  await field(page, "subscales[0].reliableChange.sd").fill("2.4");
  await page.getByRole("button", { name: "Create the form" }).click();
  const error = page.locator('[id="questions[2].key-error"]');
  await error.waitFor();
  expect(await error.textContent()).toBe("Use 1 to 40 letters, digits, “_”, “.” or “-”.");
  expect(await page.getByRole("alert").first().textContent()).toContain("Key of question 3: Use 1 to 40 letters");
  expect(await field(page, "criticalMessage").inputValue()).toBe(CRITICAL_MESSAGE);
  expect(await field(page, "subscales[0].scoreRanges[1].critical").isChecked()).toBe(true);
  // 1.96 × 5.1 × √2 × √(1 − 0.92) = 4.0 points.
  expect(await page.getByTestId("reliableChange-threshold").textContent()).toBe("With these, a change of more than 4 points between two results is reliable.");
  expect(await field(page, "subscales[0].reliableChange.sd").isVisible()).toBe(true);
  expect(
    await page
      .getByRole("group", { name: "Questions in subscale 1" })
      .getByRole("checkbox", { name: /^s2r · / })
      .isChecked(),
  ).toBe(true);
  await screenshot(page, `${shot}.png`);
  await field(page, "questions[2].key").fill("a1");
  await page.getByRole("button", { name: "Create the form" }).click();
  return savedFormId(page);
}

type SavedForm = {
  questions: { key: string; text: string; reverseScored: boolean; options: { text: string; score: number; critical: boolean }[] }[];
  scoreRanges: { min: number; max: number; label: string; critical: boolean }[];
  scoring: unknown;
  subscales: unknown;
  criticalMessage: string | null;
  reliableChange: unknown;
  remissionBelow: number | null;
  lowerIsBetter: boolean;
};

async function savedForm(id: string): Promise<SavedForm> {
  const saved = await api("GET", `/api/forms/${id}`, { as: teacher });
  expect(saved.status, saved.text).toBe(200);
  return saved.body;
}

function expectDassLike(form: SavedForm) {
  expect(form.questions.map((q) => [q.key, q.text, q.reverseScored])).toEqual(ITEMS.map(([text, key], i) => [key, text, i === 3]));
  for (const q of form.questions) expect(q.options.map((o) => [o.text, String(o.score)])).toEqual(LIKERT);
  expect(form.questions.map((q) => q.options.map((o) => o.critical))).toEqual([
    [false, false, false, false],
    [false, false, false, true],
    [false, false, false, false],
    [false, false, false, false],
  ]);
  expect(form.scoring).toEqual({ method: "SUM", multiplier: 1, maxMissing: 1, display: "RAW" });
  expect(form.scoreRanges.map((band) => [band.label, band.min, band.max, band.critical])).toEqual([
    ["Usual", 0, 6, false],
    ["High", 7, 12, true],
  ]);
  expect(form.subscales).toEqual([STRESS]);
  expect(form.criticalMessage).toBe(CRITICAL_MESSAGE);
  expect(form).toMatchObject({ reliableChange: { sd: 5.1, reliability: 0.92 }, remissionBelow: 6, lowerIsBetter: true });
}

describe("the editor's scales and flags", () => {
  it.each([false, true])(
    "given a DASS-like form built in the editor (JavaScript %s), should save its keys, reverse item, subscale, critical marks and message",
    async (javaScriptEnabled) => {
      const page = await openEditor(javaScriptEnabled);
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      await buildDassLike(page, unique("Stress check"), !javaScriptEnabled);
      // With JavaScript every edit, the copy of the options included, happened in the page.
      if (javaScriptEnabled) expect(posts).toEqual([]);
      const id = await saveWithKeyFix(page, `editor-scales-error-js-${javaScriptEnabled}`, posts);
      expectDassLike(await savedForm(id));

      // Renamed and moved, the reverse item stays in its subscale.
      await page.getByText("The form is created.").waitFor();
      if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await field(page, "questions[3].key").fill("s2calm");
      const moved = javaScriptEnabled ? Promise.resolve(null) : page.waitForResponse((response) => response.request().method() === "POST");
      await intent(page, "move-up:3").click();
      await moved;
      await expect.poll(() => field(page, "questions[2].key").inputValue()).toBe("s2calm");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Saved.").waitFor();
      const edited = await savedForm(id);
      expect(edited.questions.map((q) => q.key)).toEqual(["s1", "d1", "s2calm", "a1"]);
      expect(edited.subscales).toMatchObject([{ key: "stress", items: ["s1", "s2calm"] }]);
      expect(edited.questions[2]!.reverseScored).toBe(true);
      await page.context().close();
    },
    LONG,
  );

  it(
    "given the saved form's editor on a phone and a desktop, should have no serious accessibility violations and fit the phone",
    async () => {
      const created = await api("POST", "/api/forms", {
        as: teacher,
        json: {
          title: unique("Stress check"),
          scoring: { method: "SUM", multiplier: 1, maxMissing: 1, display: "RAW" },
          scoreRanges: [{ min: 7, max: 12, label: "High", color: "#B42318", critical: true }],
          questions: ITEMS.map(([text, key], i) => ({
            text,
            key,
            type: "SINGLE_CHOICE",
            required: true,
            reverseScored: i === 3,
            options: LIKERT.map(([optionText, score], j) => ({ text: optionText, score: Number(score), critical: i === 1 && j === 3 })),
          })),
          subscales: [STRESS],
          criticalMessage: CRITICAL_MESSAGE,
        },
      });
      expect(created.status, created.text).toBe(201);
      for (const [viewport, suffix] of [
        [DESKTOP, "desktop"],
        [PHONE, "phone"],
      ] as const) {
        const page = await openEditor(true, `/en/forms/${created.body.id}`, { viewport, bypassCSP: true });
        // The parts that only show on demand: the copy's confirmation.
        await question(page, 0).locator("summary", { hasText: "Apply these options" }).click();
        expect(await seriousAccessibilityViolations(page), suffix).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), suffix).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `editor-scales-${suffix}.png`);
        for (const [name, locator] of [
          ["question", question(page, 0)],
          ["reverse", question(page, 3)],
          ["scoring", page.locator("fieldset", { has: page.locator("legend", { hasText: "How the total is made" }) })],
          ["change", page.locator("fieldset", { has: page.locator("legend", { hasText: "Change over time" }) })],
          ["subscales", page.locator("fieldset", { has: page.locator("legend", { hasText: "Subscales" }) })],
          ["critical", page.locator("fieldset", { has: page.locator("legend", { hasText: "Critical answers" }) })],
        ] as const) {
          await screenshot(locator, `editor-scales-${name}-${suffix}.png`, { fullPage: false });
        }
        await page.context().close();
      }
    },
    ACCESSIBILITY_SCAN_TIMEOUT,
  );
});

describe("a question whose options all score the same", () => {
  it.each([
    [false, "es"],
    [true, "en"],
  ] as const)(
    "given one (JavaScript %s, in %s), should warn before saving and save only when told to",
    async (javaScriptEnabled, locale) => {
      const words = {
        en: {
          note: "Every option scores 1: this question adds the same to every total.",
          title: "1 question gives the same score whatever the answer.",
          item: "Question 2: every option scores 1",
          create: "Create the form",
          anyway: "Save anyway",
          created: "The form is created.",
        },
        es: {
          note: "Todas las opciones puntúan 1: esta pregunta suma lo mismo a cualquier total.",
          title: "1 pregunta da la misma puntuación sea cual sea la respuesta.",
          item: "Pregunta 2: todas las opciones puntúan 1",
          create: "Crear el formulario",
          anyway: "Guardar de todos modos",
          created: "El formulario está creado.",
        },
      }[locale];
      const page = await openEditor(javaScriptEnabled, `/${locale}/forms/new`, { bypassCSP: true });
      const title = unique("Flat");
      await field(page, "title").fill(title);
      await field(page, "questions[0].text").fill("How was your week?");
      await fillOptions(page, 0, [
        ["Good", "2"],
        ["Bad", "0"],
      ]);
      const added = javaScriptEnabled ? Promise.resolve(null) : page.waitForResponse((response) => response.request().method() === "POST");
      await page.locator(`button[value^='insert({"name":"questions",']`).click();
      await added;
      await field(page, "questions[1].text").fill("Did you sleep well?");
      await fillOptions(page, 1, [
        ["Yes", "1"],
        ["No", "1"],
      ]);
      // With JavaScript the note is there as the scores are typed.
      if (javaScriptEnabled) await question(page, 1).getByTestId("one-score-note").getByText(words.note).waitFor();

      await page.getByRole("button", { name: words.create, exact: true }).click();
      const warning = page.getByTestId("one-score-warning");
      await warning.getByText(words.title).waitFor();
      expect(await warning.getByRole("link").allTextContents()).toEqual([words.item]);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("one-score-warning");
      expect(new URL(page.url()).pathname).toBe(`/${locale}/forms/new`);
      expect(await question(page, 1).getByTestId("one-score-note").textContent()).toBe(words.note);
      expect(await field(page, "questions[1].options[1].text").inputValue()).toBe("No");
      if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `editor-one-score-js-${javaScriptEnabled}.png`);

      await warning.getByRole("button", { name: words.anyway }).click();
      await page.getByText(words.created).waitFor();
      const id = new URL(page.url()).pathname.split("/").pop()!;
      const saved = await savedForm(id);
      expect(saved.questions.map((q) => q.options.map((o) => o.score))).toEqual([
        [2, 0],
        [1, 1],
      ]);
      await page.context().close();
    },
    LONG,
  );
});

describe("a scale question's named points", () => {
  it.each([false, true])(
    "given points named with their scores left as they came (JavaScript %s), should score each point its value",
    async (javaScriptEnabled) => {
      const page = await openEditor(javaScriptEnabled);
      await field(page, "title").fill(unique("Named points"));
      await field(page, "questions[0].text").fill("How often did you feel tense?");
      await field(page, "questions[0].type").selectOption("SCALE");
      await field(page, "questions[0].scale.min").fill("1");
      await field(page, "questions[0].scale.max").fill("4");
      await edit(page, "add-option:0", "questions[0].options[2].text");
      await edit(page, "add-option:0", "questions[0].options[3].text");
      for (const [j, text] of ["Never", "Sometimes", "Often", "Always"].entries()) {
        await field(page, `questions[0].options[${j}].text`).fill(text);
      }
      // An empty score says what it will be.
      expect(await field(page, "questions[0].options[3].score").getAttribute("placeholder")).toBe("4");
      await page.getByRole("button", { name: "Create the form" }).click();
      const id = await savedFormId(page);

      const saved = await api("GET", `/api/forms/${id}`, { as: teacher });
      expect(saved.body.questions[0].options.map((o: { text: string; score: number }) => [o.text, o.score])).toEqual([
        ["Never", 1],
        ["Sometimes", 2],
        ["Often", 3],
        ["Always", 4],
      ]);
      await page.context().close();
    },
    LONG,
  );
});
