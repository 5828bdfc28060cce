import { describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { assign, createStudent } from "../support/assessment.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, PHONE, screenshot, sharedBrowser, signedInContext } from "../support/browser.ts";
import { capitalsFormBody } from "../support/form-bodies.ts";
import { field } from "../support/form-editor.ts";

/**
 * The editor's answer key in Chromium with JavaScript (docs/api-contract.md §22, ADR 90): a
 * question given points puts its options' scores away and counts its points in the totals, one
 * click marks the correct option, the feedback and the review are saved; with a result, a change
 * of the key asks before it makes version 2. On a phone and a desktop, with an axe scan of the
 * editor. Screenshots go to $SCREENSHOT_DIR.
 */
const teacher = "teacher@demo.test" as const;
const browser = sharedBrowser();

async function openEditor(id: string, viewport: typeof DESKTOP) {
  const context = await signedInContext(browser(), sessionOf(teacher), { viewport, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${baseUrl()}/en/forms/${id}`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return page;
}

const read = async (id: string) => (await api("GET", `/api/forms/${id}`, { as: teacher })).body;

describe("the editor's answer key in a browser", () => {
  it.each([
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const)(
    "given a question to key on a %s, should mark the correct option with one click and save it, accessible and fitting the screen",
    async (suffix, viewport) => {
      const created = await api("POST", "/api/forms", { as: teacher, json: capitalsFormBody(unique("Capitals")) });
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as string;
      const page = await openEditor(id, viewport);
      await page.getByText("Give the options scores to see which totals respondents can get.").waitFor();

      await field(page, "questions[0].points").fill("2");
      // Graded by its key: the scores are put away, and the points count in the totals at once.
      await page.getByTestId("points-hint-1").getByText("Graded by its key: choosing the options marked correct earns the points", { exact: false }).waitFor();
      await expect.poll(() => field(page, "questions[0].options[0].score").isVisible()).toBe(false);
      await page.getByTestId("score-coverage").getByText("Totals on this form run from 0 to 2.").waitFor();
      await page.getByRole("checkbox", { name: "Option 1 of question 1 is correct" }).click();
      await page.getByTestId("feedback-1").locator("summary").click();
      await field(page, "questions[0].feedback").fill("Paris has been the capital for centuries.");
      await field(page, "questions[0].options[1].feedback").fill("Lyon is the third city.");
      await field(page, "review").selectOption("AFTER_SUBMIT");

      // The options' images too, folded away until asked for.
      await page.getByTestId("option-images-1").locator("summary").click();
      await page.getByTestId("option-images-1").getByRole("group", { name: "Option 2" }).waitFor();
      expect(await seriousAccessibilityViolations(page), suffix).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), suffix).toBeLessThanOrEqual(viewport.width);
      await screenshot(page.locator("li.question-editor").first(), `answer-key-${suffix}.png`, { fullPage: false });

      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Saved.").waitFor();
      const saved = await read(id);
      expect(saved).toMatchObject({ review: "AFTER_SUBMIT", version: 1 });
      expect(saved.questions[0]).toMatchObject({
        points: 2,
        feedback: "Paris has been the capital for centuries.",
        options: [
          { text: "Paris", correct: true, feedback: null },
          { text: "Lyon", correct: false, feedback: "Lyon is the third city." },
        ],
      });
      await page.context().close();
    },
    ACCESSIBILITY_SCAN_TIMEOUT,
  );

  it(
    "given a keyed form with a result, should ask before a key change makes version 2, keep what was typed, and save it when confirmed",
    async () => {
      const created = await api("POST", "/api/forms", { as: teacher, json: capitalsFormBody(unique("Capitals"), 1) });
      expect(created.status, created.text).toBe(201);
      const form = created.body;
      const student = await createStudent(teacher);
      const link = await assign(teacher, { formId: form.id, studentId: student.id });
      const submitted = await api("POST", `/api/test-link/${link.token}/submit`, {
        json: { answers: [{ questionId: form.questions[0].id, optionIds: [form.questions[0].options[0].id] }] },
      });
      expect(submitted.status, submitted.text).toBe(200);

      const page = await openEditor(form.id, DESKTOP);
      await page.getByTestId("form-version").getByText("Version 1 · 1 result").waitFor();
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      await page.getByRole("checkbox", { name: "Option 1 of question 1 is correct" }).click();
      await page.getByRole("checkbox", { name: "Option 2 of question 1 is correct" }).click();
      await field(page, "questions[1].text").fill("Anything else to add?");
      await page.getByRole("button", { name: "Save", exact: true }).click();

      const warning = page.getByTestId("new-version-warning");
      await warning
        .getByText("1 result was scored with the current version. Saving makes version 2: that result keeps its score until you rescore it.")
        .waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("new-version-warning");
      expect(posts).toHaveLength(1);
      expect(await read(form.id)).toMatchObject({
        version: 1,
        questions: [{ options: [{ correct: true }, { correct: false }] }, { text: "Anything to add?" }],
      });
      expect(await page.getByRole("checkbox", { name: "Option 2 of question 1 is correct" }).isChecked()).toBe(true);
      expect(await field(page, "questions[1].text").inputValue()).toBe("Anything else to add?");
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, "answer-key-new-version.png");

      await warning.getByRole("button", { name: "Save as version 2" }).click();
      await page.getByText("Saved.").waitFor();
      await page.getByTestId("form-version").getByText("Version 2 · 0 results").waitFor();
      expect(await read(form.id)).toMatchObject({
        version: 2,
        questions: [{ options: [{ correct: false }, { correct: true }] }, { text: "Anything else to add?" }],
      });
      await page.context().close();
    },
    ACCESSIBILITY_SCAN_TIMEOUT,
  );
});
