import { describe, expect, it } from "vitest";
import { LOCALES, type Locale } from "../../app/lib/i18n.ts";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { assign, createStudent } from "../support/assessment.ts";
import { PHONE, screenshot, sharedBrowser } from "../support/browser.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { testDatabase } from "../support/database.ts";
import { dictionaries } from "../support/dictionaries.ts";
import { keyedFormBody } from "../support/form-bodies.ts";
import { readableText } from "../support/school-words.ts";

/**
 * The review on the link's own page (docs/api-contract.md §22), as a browser without JavaScript
 * reads it in each language: below the completion message, each answer, whether it was correct in
 * words, the correct option when it was not, the points and the feedback; the total. It fits a
 * phone, and a signed-in student finds their way home from it.
 */
const teacher = "teacher@demo.test" as const;
const browser = sharedBrowser();

type Form = { id: string; questions: { id: string; options: { id: string; text: string }[] }[] };

async function answered(review: "NEVER" | "AFTER_SUBMIT" | "AFTER_CLOSE", studentId?: string) {
  const created = await api<Form>("POST", "/api/forms", { as: teacher, json: keyedFormBody(unique("Review page"), review) });
  expect(created.status, created.text).toBe(201);
  const form = created.body;
  const respondent = studentId ?? (await createStudent(teacher, unique("Reviewer"))).id;
  const link = await assign(teacher, { formId: form.id, studentId: respondent });
  const ids = (q: number, ...texts: string[]) => texts.map((text) => form.questions[q]!.options.find((option) => option.text === text)!.id);
  const [q1, q2, q3, q4] = form.questions;
  // Lyon (wrong), both primes (right), two oceans and a desert (partly), and a text.
  const answers = [
    { questionId: q1!.id, optionIds: ids(0, "Lyon") },
    { questionId: q2!.id, optionIds: ids(1, "2", "3") },
    { questionId: q3!.id, optionIds: ids(2, "Atlantic", "Pacific", "Sahara") },
    { questionId: q4!.id, text: "It was fun." },
  ];
  const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers } });
  expect(submit.status, submit.text).toBe(200);
  return { form, link };
}

/** What a person reads of the page, its spaces made one. */
async function pageText(path: string, cookie?: string) {
  const response = await fetch(`${baseUrl()}${path}`, { headers: cookie ? { cookie } : {} });
  expect(response.status).toBe(200);
  const html = await response.text();
  return { html, text: readableText(html).replace(/\s+/g, " ") };
}

/** Spaces made one, as `pageText` reads them (a French-style "42,9 %" has a no-break space). */
const said = (text: string) => text.replace(/\s+/g, " ");
const percent = (locale: Locale, value: number) => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(value / 100);

describe("the review on the link's page", () => {
  it.each(LOCALES)(
    "given AFTER_SUBMIT in %s without JavaScript, should show the answers, correctness in words, the correct option, points and feedback",
    async (locale) => {
      const { link } = await answered("AFTER_SUBMIT");
      const t = dictionaries[locale].testLink;
      const { html, text } = await pageText(`/${locale}/test/${link.token}`);
      expect(html).toContain(`<html lang="${locale}"`);
      // Below the completion message.
      expect(text.indexOf(t.doneTitle)).toBeGreaterThan(-1);
      expect(text.indexOf(t.review.title)).toBeGreaterThan(text.indexOf(t.doneText));
      expect(text).toContain(said(t.review.total("3", "7", percent(locale, 42.86))));

      const r = t.review;
      // Q1: Lyon, not correct, Paris was; the chosen option's and the question's feedback.
      expect(text).toContain(
        `1. Which city is the capital of France? ${r.incorrect} · ${r.points("0", "2")} ${r.yourAnswer} Lyon ${r.correctAnswer(1)} Paris ${r.feedback} Lyon is a large city, not the capital. Paris has been the capital since the 10th century.`,
      );
      // Q2: correct, no correct answers repeated.
      expect(text).toContain(
        `2. Which numbers are prime? ${r.correct} · ${r.points("2", "2")} ${r.yourAnswer} 2 3 ${r.feedback} A prime has exactly two divisors.`,
      );
      // Q3: partly correct, with the three oceans it should have been.
      expect(text).toContain(
        `3. Which are oceans? ${r.partlyCorrect} · ${r.points("1", "3")} ${r.yourAnswer} Atlantic Pacific Sahara ${r.correctAnswer(3)} Atlantic Pacific Indian ${r.feedback} The Sahara is a desert.`,
      );
      // Q4: a text is not graded.
      expect(text).toContain(`4. Anything to add? ${r.yourAnswer} It was fun.`);
      // Feedback of options not chosen stays unsaid.
      expect(text).not.toContain("Yes: Paris.");
      expect(text).not.toContain("4 is 2 × 2.");
      // Headings and lists, and no way home for someone not signed in.
      expect(html.match(/<h3/g)).toHaveLength(4);
      expect(html).toMatch(/<h2 id="review-title"/);
      expect(html).toMatch(/<ol[^>]*>\s*<li/);
      expect(text).not.toContain(r.home);
    },
  );

  it.each(LOCALES)("given AFTER_CLOSE in %s while the test is open, should say when the review opens and show no answers; NEVER, neither", async (locale) => {
    const t = dictionaries[locale].testLink;
    const closing = await answered("AFTER_CLOSE");
    const waiting = await pageText(`/${locale}/test/${closing.link.token}`);
    expect(waiting.text).toContain(t.doneTitle);
    expect(waiting.text).toContain(t.review.opensWhenClosed);
    expect(waiting.text).not.toContain(t.review.title);
    expect(waiting.text).not.toContain("Lyon");

    // Closed: the review is there, the line is not.
    expect((await api("PUT", `/api/forms/${closing.form.id}`, { as: teacher, json: { isPublished: false } })).status).toBe(200);
    const closed = await pageText(`/${locale}/test/${closing.link.token}`);
    expect(closed.text).toContain(t.review.title);
    expect(closed.text).toContain(t.review.incorrect);
    expect(closed.text).not.toContain(t.review.opensWhenClosed);

    const never = await pageText(`/${locale}/test/${(await answered("NEVER")).link.token}`);
    expect(never.text).toContain(t.doneText);
    expect(never.text).not.toContain(t.review.title);
    expect(never.text).not.toContain(t.review.opensWhenClosed);
    expect(never.text).not.toContain("Lyon");
  });

  it("given the link's own student signed in, should link back to their home page; another student's login, not", async () => {
    const mateo = await testDatabase().student.findFirstOrThrow({ where: { user: { email: "student@demo.test" } }, select: { id: true } });
    const own = await answered("AFTER_SUBMIT", mateo.id);
    const signedIn = await pageText(`/es/test/${own.link.token}`, sessionOf("student@demo.test"));
    expect(signedIn.html).toMatch(new RegExp(`<a[^>]*href="/es/home"[^>]*>${dictionaries.es.testLink.review.home}</a>`));
    const theirs = await answered("AFTER_SUBMIT");
    expect((await pageText(`/es/test/${theirs.link.token}`, sessionOf("student@demo.test"))).text).not.toContain(dictionaries.es.testLink.review.home);
  });

  it("given a phone, should fit its width without scrolling sideways, without JavaScript, and have no serious accessibility violation", async () => {
    const { link } = await answered("AFTER_SUBMIT");
    for (const javaScriptEnabled of [false, true]) {
      const context = await browser().newContext({ viewport: PHONE, javaScriptEnabled, bypassCSP: javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/test/${link.token}`);
      if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      const review = page.getByRole("region", { name: dictionaries.en.testLink.review.title });
      expect(await review.getByRole("heading", { level: 3 }).count()).toBe(4);
      expect(await review.getByRole("listitem").first().textContent()).toContain("Not correct");
      expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `review-phone-js-${javaScriptEnabled}.png`);
      await context.close();
    }
  });
});
