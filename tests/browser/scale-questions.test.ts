import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { assign, createStudent } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { field } from "../support/form-editor.ts";

/**
 * Scale questions on a 360 px phone (one row of points, the ends' labels) and the editor's totals
 * and band checks, in Chromium with JavaScript off and on. Screenshots go to $SCREENSHOT_DIR.
 */
const SMALL_PHONE = { width: 360, height: 740 };
const teacher = "teacher@demo.test" as const;

const browser = sharedBrowser();

async function scaleForm() {
  const created = await api("POST", "/api/forms", {
    as: teacher,
    json: {
      title: unique("How likely"),
      isPublished: true,
      scoreRanges: [
        { min: 0, max: 6, label: "Detractor", color: "#B42318" },
        { min: 7, max: 10, label: "Promoter", color: "#1A7F37" },
      ],
      questions: [
        {
          text: "How likely are you to recommend the reading club to a friend?",
          type: "SCALE",
          required: true,
          scale: { min: 0, max: 10, minLabel: "Not at all likely", maxLabel: "Extremely likely" },
        },
      ],
    },
  });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string };
}

/** The top and right edge of every point: one row that stays inside the page. */
const pointBoxes = (page: Page) =>
  page.locator('[data-testid="scale-points"] label').evaluateAll((labels) =>
    labels.map((label) => {
      const box = label.getBoundingClientRect();
      return { top: Math.round(box.top), right: box.right };
    }),
  );

describe("a scale question on the test page", () => {
  it.each([false, true])(
    "given an 11-point scale on a 360 px phone (JavaScript %s), should show one row with its ends and score the point",
    async (javaScriptEnabled) => {
      const form = await scaleForm();
      const student = await createStudent(teacher, unique("Scaler"));
      const link = await assign(teacher, { formId: form.id, studentId: student.id });
      // bypassCSP only so axe can be injected.
      const context = await browser().newContext({ viewport: SMALL_PHONE, javaScriptEnabled, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/test/${link.token}`);

      const boxes = await pointBoxes(page);
      expect(boxes).toHaveLength(11);
      expect(new Set(boxes.map((box) => box.top)).size, "all points on one row").toBe(1);
      expect(Math.max(...boxes.map((box) => box.right))).toBeLessThanOrEqual(SMALL_PHONE.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SMALL_PHONE.width);
      // The ends say what they mean, to the eye and in the points' names.
      await page.getByText("0 = Not at all likely").waitFor();
      await page.getByText("10 = Extremely likely").waitFor();
      expect(await page.getByRole("radio", { name: /^10\W+Extremely likely$/ }).count()).toBe(1);
      // axe runs as a script of the page: with JavaScript on.
      if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);

      await page.getByRole("radio", { name: "8", exact: true }).check();
      await screenshot(page, `scale-phone-js-${javaScriptEnabled}.png`);
      await page.getByRole("button", { name: "Send answers" }).click();
      await page.getByText("Your answers have been received").waitFor();
      const report = await api("GET", `/api/reports/${link.id}`, { as: teacher });
      expect(report.body).toMatchObject({ totalScore: 8, maxScore: 10, scoreLabel: "Promoter" });
      await context.close();
    },
  );
});

describe("the editor's totals and bands", () => {
  it.each([false, true])(
    "given a band beyond the totals (JavaScript %s), should show the totals, flag the band and refuse to save it",
    async (javaScriptEnabled) => {
      const context = await signedInContext(browser(), sessionOf(teacher), { javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/forms/new`);
      await field(page, "title").fill(unique("Calm check"));
      await field(page, "questions[0].text").fill("How often did you feel calm?");
      await field(page, "questions[0].type").selectOption("SCALE");
      // The scale's fields show as soon as the type says so, with or without JavaScript.
      await field(page, "questions[0].scale.min").fill("0");
      await field(page, "questions[0].scale.max").fill("3");
      await field(page, "questions[0].scale.minLabel").fill("Never");
      await field(page, "questions[0].scale.maxLabel").fill("Always");
      await field(page, "questions[0].required").check();
      await page.getByRole("button", { name: "Add a score range" }).click();
      await field(page, "scoreRanges[0].label").waitFor();
      await field(page, "scoreRanges[0].label").fill("Calm");
      await field(page, "scoreRanges[0].min").fill("2");
      await field(page, "scoreRanges[0].max").fill("3");
      await page.getByRole("button", { name: "Add a score range" }).click();
      await field(page, "scoreRanges[1].label").waitFor();
      await field(page, "scoreRanges[1].label").fill("Impossible");
      await field(page, "scoreRanges[1].min").fill("10");
      await field(page, "scoreRanges[1].max").fill("20");
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Update the preview" }).click();

      const coverage = page.getByTestId("score-coverage");
      await coverage.getByText("Totals on this form run from 0 to 3.").waitFor();
      await coverage.getByText("No total can fall in score range 2: change it or remove it.").waitFor();
      await coverage.getByText("No range names totals from 0 to 1.").waitFor();
      await screenshot(page, `editor-totals-js-${javaScriptEnabled}.png`);

      await page.getByRole("button", { name: "Create the form" }).click();
      const error = page.locator('[id="scoreRanges[1]-error"]');
      await error.waitFor();
      expect(await error.textContent()).toBe("No total can fall in this range: totals on this form run from 0 to 3.");
      expect(await field(page, "questions[0].scale.minLabel").inputValue()).toBe("Never");

      // Fixed: saved, with the scale numbered from its range.
      await field(page, "scoreRanges[1].label").fill("Anxious");
      await field(page, "scoreRanges[1].min").fill("0");
      await field(page, "scoreRanges[1].max").fill("1");
      await page.getByRole("button", { name: "Create the form" }).click();
      await page.waitForURL(/\/en\/forms\/(?!new$)[a-z0-9]+$/);
      const id = new URL(page.url()).pathname.split("/").pop();
      const saved = await api("GET", `/api/forms/${id}`, { as: teacher });
      expect(saved.body.questions[0].scale).toEqual({ min: 0, max: 3, minLabel: "Never", maxLabel: "Always" });
      expect(saved.body.questions[0].options.map((o: { score: number }) => o.score)).toEqual([0, 1, 2, 3]);
      await context.close();
    },
  );
});
