import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique, type DemoUser } from "../support/api.ts";
import {
  answersBySubscale,
  assign,
  createForm,
  createStudent,
  highAnswers,
  installDass21,
  mediumAnswers,
  mixedForm,
  negativeAnswers,
  type CreatedForm,
  type SubscaleForm,
} from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, PHONE, sharedBrowser, signedInContext, screenshot, keepToLookAt } from "../support/browser.ts";

/**
 * A person's results per form (docs/decisions/0027): one chart per instrument, each over its own
 * bands, a negative total drawn and tabled as negative, with and without JavaScript, at desktop
 * and phone widths, axe-clean; and the page and a report as printed. Screenshots go to
 * $SCREENSHOT_DIR.
 */
const ADMIN: DemoUser = "admin@demo.test";
const browser = sharedBrowser();

let reading: CreatedForm;
let habits: CreatedForm;
let student: { id: string; name: string };
let reportId: string;

async function complete(form: CreatedForm, answers: unknown): Promise<string> {
  const assignment = await assign(ADMIN, { formId: form.id, studentId: student.id });
  const submitted = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: answers });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  return assignment.id;
}

beforeAll(async () => {
  reading = await createForm(ADMIN, mixedForm(unique("Reading comprehension")));
  habits = await createForm(ADMIN, {
    ...mixedForm(unique("Study habits")),
    scoreRanges: [
      { min: -5, max: 3, label: "Needs support", color: "#B42318" },
      { min: 3.5, max: 9.5, label: "On track", color: "#1A7F37" },
    ],
  });
  student = await createStudent(ADMIN, unique("Two forms"));
  await complete(reading, mediumAnswers(reading));
  await complete(habits, highAnswers(habits));
  reportId = await complete(reading, negativeAnswers(reading));
  await complete(habits, mediumAnswers(habits));
  await complete(reading, highAnswers(reading));
  // The second form's bands are edited: its earlier results keep the bands they were scored against.
  const edited = await api("PUT", `/api/forms/${habits.id}`, {
    as: ADMIN,
    json: {
      scoreRanges: [
        { min: -5, max: 6, label: "Below", color: "#B54708" },
        { min: 6.5, max: 9.5, label: "Above", color: "#1A7F37" },
      ],
    },
  });
  expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  await complete(habits, highAnswers(habits));
  // One still open: listed apart, never charted.
  await assign(ADMIN, { formId: habits.id, studentId: student.id });
});

const chartOf = (page: Page, form: CreatedForm) => page.getByRole("img", { name: new RegExp(`^Scores on ${form.title} over time`) });
const scores = (chart: Locator) => chart.locator("circle").evaluateAll((circles) => circles.map((circle) => Number(circle.getAttribute("data-score"))));

describe("a person's results per form", () => {
  for (const javaScriptEnabled of [false, true]) {
    const mode = javaScriptEnabled ? "js" : "nojs";
    it(`given results on two forms (JavaScript ${javaScriptEnabled ? "on" : "off"}), should chart each form apart, the negative total below zero`, async () => {
      const context = await signedInContext(browser(), sessionOf(ADMIN), { javaScriptEnabled, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/students/${student.id}`);

      // One chart per form, named by it; the points of one are never in the other.
      expect(await page.getByRole("img", { name: /^Scores on .* over time/ }).count()).toBe(2);
      const readingChart = chartOf(page, reading);
      const habitsChart = chartOf(page, habits);
      expect(await readingChart.getAttribute("data-form-id")).toBe(reading.id);
      expect(await habitsChart.getAttribute("data-form-id")).toBe(habits.id);
      expect(await scores(readingChart)).toEqual([1, -3, 9.5]);
      expect(await scores(habitsChart)).toEqual([9.5, 1, 9.5]);
      // Each point on its band's colour, each chart on its own bands.
      expect(await readingChart.locator("circle").evaluateAll((circles) => circles.map((c) => c.getAttribute("fill")))).toEqual([
        "#B54708",
        "#B42318",
        "#1A7F37",
      ]);
      expect(await habitsChart.locator("rect").evaluateAll((rects) => rects.map((r) => r.getAttribute("data-band")))).toEqual([
        "Needs support",
        "On track",
        "Below",
        "Above",
      ]);
      expect(await habitsChart.locator("circle").evaluateAll((circles) => circles.map((c) => c.getAttribute("data-band")))).toEqual([
        "On track",
        "Needs support",
        "Above",
      ]);
      const habitsBlock = page.getByRole("region", { name: habits.title });
      expect(await habitsBlock.getByText("The bands changed between these results").isVisible()).toBe(true);
      expect(await page.getByRole("region", { name: reading.title }).getByText("The bands changed").count()).toBe(0);

      // The negative total is drawn under the zero line, which the axis labels.
      const zero = Number(await readingChart.locator('line[data-tick="0"]').getAttribute("y1"));
      const negative = Number(await readingChart.locator('circle[data-score="-3"]').getAttribute("cy"));
      expect(negative).toBeGreaterThan(zero);
      expect(await readingChart.locator("text").allTextContents()).toEqual(expect.arrayContaining(["0", "Score", "Completion date"]));
      expect((await readingChart.locator("text").allTextContents()).some((text) => text.startsWith("-"))).toBe(true);

      // Every result in the form's table, newest first, the negative one as negative.
      const readingRows = page.getByRole("table", { name: `Results on ${reading.title}, newest first` }).locator("tbody tr");
      expect(await readingRows.count()).toBe(3);
      const negativeRow = await readingRows.nth(1).textContent();
      expect(negativeRow).toContain("-3 of 9.5");
      expect(negativeRow).toContain("-31.6%");
      expect(negativeRow).toContain("Low");
      expect(
        await page
          .getByRole("table", { name: `Results on ${habits.title}, newest first` })
          .locator("tbody tr")
          .count(),
      ).toBe(3);
      // The open assignment is listed apart.
      expect(await page.getByRole("table", { name: "Assigned, not completed" }).locator("tbody tr").count()).toBe(1);

      if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `person-history-desktop-${mode}`);
      await screenshot(readingChart, `person-history-chart-${mode}.png`, { fullPage: false });

      await page.setViewportSize(PHONE);
      expect(await page.getByRole("img", { name: /^Scores on .* over time/ }).count()).toBe(2);
      expect(await scores(chartOf(page, reading))).toEqual([1, -3, 9.5]);
      expect(await chartOf(page, reading).getAttribute("data-testid")).toBe("history-chart-phone");
      expect(await page.evaluate(() => document.documentElement.scrollWidth), "the page fits a phone").toBeLessThanOrEqual(PHONE.width);
      if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `person-history-phone-${mode}`);
      await page.setViewportSize(DESKTOP);
      await context.close();
    });
  }

  it("given print, should leave out the navigation, buttons and forms, keep the charts and tables, and print a report", async () => {
    const context = await signedInContext(browser(), sessionOf(ADMIN));
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/students/${student.id}`);
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(true);
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("header").isVisible()).toBe(false);
    expect(await page.getByRole("link", { name: "Edit" }).isVisible()).toBe(false);
    expect(await page.getByRole("link", { name: "Back to the list" }).isVisible()).toBe(false);
    expect(await page.locator("button:visible, form:visible, nav:visible").count()).toBe(0);
    expect(await page.getByRole("img", { name: /^Scores on .* over time/ }).count()).toBe(2);
    expect(await page.getByRole("table", { name: `Results on ${reading.title}, newest first` }).isVisible()).toBe(true);
    const personPdf = await page.pdf({ format: "A4" });
    keepToLookAt("person-history-print.pdf", personPdf);

    await page.goto(`${baseUrl()}/en/reports/${reportId}`);
    expect(await page.getByRole("link", { name: "Download PDF" }).isVisible()).toBe(false);
    expect(await page.locator("button:visible, nav:visible").count()).toBe(0);
    expect(await page.getByRole("heading", { name: student.name }).isVisible()).toBe(true);
    const reportPdf = await page.pdf({ format: "A4" });
    expect(reportPdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(reportPdf.length).toBeGreaterThan(10_000);
    keepToLookAt("report-print.pdf", reportPdf);

    // The reports list prints its table (not the phone's list) without its filters.
    await page.goto(`${baseUrl()}/en/reports`);
    expect(await page.locator("main table").isVisible()).toBe(true);
    expect(await page.locator("form:visible, button:visible, nav:visible").count()).toBe(0);
    await context.close();
  });
});

describe("a person's subscales", () => {
  let dass: SubscaleForm;
  let patient: { id: string; name: string };

  beforeAll(async () => {
    dass = await installDass21(ADMIN);
    patient = await createStudent(ADMIN, unique("Subscales"));
    for (const itemScore of [
      { depression: 2, anxiety: 1, stress: 0 },
      { depression: 1, anxiety: 1, stress: 1 },
      { depression: 0, anxiety: 2, stress: 1 },
    ]) {
      const link = await assign(ADMIN, { formId: dass.id, studentId: patient.id });
      const submitted = await api("POST", `/api/test-link/${link.token}/submit`, { json: answersBySubscale(dass, itemScore) });
      expect(submitted.status, submitted.text).toBe(200);
    }
  });

  for (const javaScriptEnabled of [false, true]) {
    const mode = javaScriptEnabled ? "js" : "nojs";
    it(`given the DASS-21 (JavaScript ${javaScriptEnabled ? "on" : "off"}), should show its subscales on request: a line each, named in text, and a column each`, async () => {
      const context = await signedInContext(browser(), sessionOf(ADMIN), { javaScriptEnabled, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/students/${patient.id}`);
      if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      const subscalesChart = page.getByRole("img", { name: new RegExp(`^Subscale scores on ${dass.title} over time`) });
      expect(await subscalesChart.count()).toBe(0);

      await page.getByRole("link", { name: "Show subscales" }).click();
      await page.waitForURL(/\?subscales=1#history$/);
      await subscalesChart.waitFor();
      // One line per subscale, its points the scores in date order, its name at its end.
      for (const [key, expected] of [
        ["depression", [28, 14, 0]],
        ["anxiety", [14, 14, 28]],
        ["stress", [0, 14, 14]],
      ] as const) {
        expect(
          await subscalesChart.locator(`[data-subscale="${key}"] circle`).evaluateAll((circles) => circles.map((c) => Number(c.getAttribute("data-score")))),
        ).toEqual(expected);
      }
      expect(await subscalesChart.locator("text").allTextContents()).toEqual(expect.arrayContaining(["Depression", "Anxiety", "Stress"]));
      const table = page.getByRole("table", { name: `Results on ${dass.title}, newest first` });
      expect(await table.locator("thead th").allTextContents()).toEqual([
        "Completed",
        "Score",
        "Band",
        "Since previous",
        "Since first",
        "Depression",
        "Anxiety",
        "Stress",
      ]);
      expect(await table.locator("tbody tr").first().textContent()).toContain("0 of 42");
      expect(await table.locator("tbody tr").first().textContent()).toContain("21 / 63");

      if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `person-subscales-desktop-${mode}`);
      await page.setViewportSize(PHONE);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), "the page fits a phone").toBeLessThanOrEqual(PHONE.width);
      if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `person-subscales-phone-${mode}`);

      await page.getByRole("link", { name: "Hide subscales" }).click();
      await page.waitForURL(new RegExp(`/en/students/${patient.id}#history$`));
      await page.getByRole("link", { name: "Show subscales" }).waitFor();
      expect(await subscalesChart.count()).toBe(0);
      await context.close();
    });
  }
});
