import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, PHONE, screenshot, sharedBrowser, signedInContext } from "../support/browser.ts";
import { testDatabase } from "../support/database.ts";
import { createOrganization } from "../support/fixtures.ts";
import { edit, field, fillOptions } from "../support/form-editor.ts";

/**
 * A teacher's quiz from start to finish (docs/api-contract.md §22), through the pages in real
 * Chromium, once with JavaScript on (the teacher at 1280 px) and once off (the teacher at 390 px);
 * the pupil always on a 390 px phone. The teacher builds a 10-question quiz with an answer key,
 * feedback and two images, assigns it to a class; a pupil answers and reads their review; the
 * teacher finds the key of one question wrong, fixes it, rescores, and the summary shows the most
 * missed question first. axe finds nothing serious on the editor and the review.
 */
const browser = sharedBrowser();

/** The quiz: each capital first (the correct answer), then a wrong one. */
const QUIZ = [
  ["France", "Paris", "Lyon"],
  ["Spain", "Madrid", "Seville"],
  ["Italy", "Rome", "Milan"],
  ["Germany", "Berlin", "Munich"],
  ["Portugal", "Lisbon", "Porto"],
  ["Brazil", "Brasília", "Rio de Janeiro"],
  ["Japan", "Tokyo", "Osaka"],
  ["Canada", "Ottawa", "Toronto"],
  ["Australia", "Canberra", "Sydney"],
  ["Egypt", "Cairo", "Alexandria"],
] as const;
/** Question 3 (Italy), whose key the teacher first marks wrong: Milan. */
const WRONG_KEY = 2;
const PORTUGAL = 4;
const PORTUGAL_FEEDBACK = "Lisbon has been the capital since the 13th century; Porto is the second city.";

const hydrated = async (page: Page, javaScriptEnabled: boolean) => {
  await page.waitForLoadState("load");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
};

const square = (r: number, g: number, b: number) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

/** Adds an image to a saved question through its own small form, and waits for the editor to come back with it. */
async function addImage(page: Page, javaScriptEnabled: boolean, question: number, alt: string, bytes: Buffer) {
  // The question's own fields come first; its options' (folded away) follow.
  const box = page.getByTestId(`question-image-${question}`);
  await box
    .getByLabel("Image file")
    .first()
    .setInputFiles({ name: `flag-${question}.png`, mimeType: "image/png", buffer: bytes });
  await box.getByLabel("Description of the image").first().fill(alt);
  await box.getByRole("button", { name: "Add the image" }).first().click();
  await page.getByTestId(`question-image-${question}`).getByText(alt, { exact: true }).waitFor();
  await hydrated(page, javaScriptEnabled);
}

describe("a quiz with an answer key, from the editor to the most missed questions", () => {
  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? "js" : "nojs";
    const teacherViewport = javaScriptEnabled ? DESKTOP : PHONE;
    it(
      `given JavaScript ${javaScriptEnabled ? "on" : "off"}, should let a teacher key a quiz with feedback and images, a pupil read their review on a phone, and the teacher fix the key, rescore and see the most missed question`,
      async () => {
        // Not the journey's point, through the API: the school, a class of three pupils.
        const school = await createOrganization(`Quiz school ${mode}`);
        const className = unique("Class 6A");
        const group = await api("POST", "/api/groups", { cookie: school.teacher, json: { name: className } });
        expect(group.status, group.text).toBe(201);
        const pupils = [];
        for (const name of ["Ana Araújo", "Beto Böhm", "Caio Çelik"]) {
          const pupil = await api("POST", "/api/students", { cookie: school.teacher, json: { name: `${name} ${unique(mode)}` } });
          expect(pupil.status, pupil.text).toBe(201);
          pupils.push(pupil.body as { id: string; name: string });
        }
        const added = await api("POST", `/api/groups/${group.body.id}/members`, { cookie: school.teacher, json: { studentIds: pupils.map((p) => p.id) } });
        expect(added.status, added.text).toBe(200);

        const options = { viewport: teacherViewport, javaScriptEnabled, bypassCSP: javaScriptEnabled };
        const teacherContext = await signedInContext(browser(), school.teacher, options);
        const page = await teacherContext.newPage();
        const phone = await browser().newContext({ viewport: PHONE, javaScriptEnabled, bypassCSP: javaScriptEnabled });
        const pupil = await phone.newPage();
        try {
          // 1. The teacher builds the quiz: ten questions, each worth a point, one click marking
          //    each key (question 3's on the wrong option), feedback, a review after submitting.
          const title = unique("Capitals quiz");
          await page.goto(`${baseUrl()}/en/forms/new`);
          await hydrated(page, javaScriptEnabled);
          await field(page, "title").fill(title);
          for (const [i, [country, right, wrong]] of QUIZ.entries()) {
            if (i > 0) await edit(page, "add-question", `questions[${i}].text`);
            await field(page, `questions[${i}].text`).fill(`The capital of ${country}?`);
            await fillOptions(page, i, [
              [right, "0"],
              [wrong, "0"],
            ]);
            await field(page, `questions[${i}].points`).fill("1");
            const key = i === WRONG_KEY ? 2 : 1;
            await page.getByRole("checkbox", { name: `Option ${key} of question ${i + 1} is correct` }).check();
          }
          await page
            .getByTestId(`feedback-${PORTUGAL + 1}`)
            .locator("summary")
            .click();
          await field(page, `questions[${PORTUGAL}].feedback`).fill(PORTUGAL_FEEDBACK);
          await field(page, `questions[${PORTUGAL}].options[1].feedback`).fill("Porto gave Portugal its name, not its capital.");
          await field(page, "review").selectOption("AFTER_SUBMIT");
          await page.getByRole("button", { name: "Create the form" }).click();
          await page.waitForURL(/\/en\/forms\/(?!new$)[a-z0-9]+$/);
          const formId = new URL(page.url()).pathname.split("/").pop()!;
          await hydrated(page, javaScriptEnabled);

          // Two images, each with its description: a map and a flag.
          await addImage(page, javaScriptEnabled, 1, "A map of France with Paris marked", await square(0, 85, 164));
          await addImage(page, javaScriptEnabled, 2, "The flag of Spain", await square(198, 11, 30));
          if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page), "the editor").toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(teacherViewport.width);
          await screenshot(page, `quiz-editor-${mode}.png`);
          await page.getByRole("button", { name: "Publish" }).click();
          await page.getByText("The form is published.").waitFor();
          const built = (await api("GET", `/api/forms/${formId}`, { cookie: school.teacher })).body;
          expect(built).toMatchObject({ review: "AFTER_SUBMIT", isPublished: true, version: 1 });
          expect(built.questions).toHaveLength(10);
          expect(built.questions.map((q: { points: number }) => q.points)).toEqual(Array(10).fill(1));
          expect(built.questions[WRONG_KEY].options.map((o: { correct: boolean }) => o.correct)).toEqual([false, true]);
          expect(built.questions[PORTUGAL]).toMatchObject({ feedback: PORTUGAL_FEEDBACK });
          expect(built.questions.filter((q: { imageId: string | null }) => q.imageId !== null)).toHaveLength(2);

          // 2. The quiz assigned to the class from the class's page.
          await page.goto(`${baseUrl()}/en/groups/${group.body.id}`);
          await page.getByRole("link", { name: "Assign a test" }).click();
          await hydrated(page, javaScriptEnabled);
          await page.getByRole("combobox", { name: /^Form/ }).selectOption({ label: title });
          await page.getByRole("button", { name: "Assign", exact: true }).click();
          await page.getByText("3 links created.").waitFor();
          const links = await testDatabase().submission.findMany({ where: { formId }, select: { id: true, token: true, studentId: true } });
          const linkOf = (studentId: string) => links.find((link) => link.studentId === studentId)!;

          // 3. Ana answers on her phone: every capital right but Portugal's, and reads her review.
          //    Rome is right, but the key says Milan: her review says "Not correct" there, for now.
          await pupil.goto(`${baseUrl()}/en/test/${linkOf(pupils[0]!.id).token}`);
          await hydrated(pupil, javaScriptEnabled);
          await pupil.getByRole("img", { name: "A map of France with Paris marked" }).waitFor();
          for (const [i, [, right, wrong]] of QUIZ.entries()) {
            await pupil.getByRole("radio", { name: i === PORTUGAL ? wrong : right, exact: true }).check();
          }
          await pupil.getByRole("button", { name: "Send answers" }).click();
          await pupil.getByRole("heading", { name: "Thank you" }).waitFor();
          const review = pupil.getByRole("region", { name: "Review of your answers" });
          await review.waitFor();
          const reviewText = ((await review.textContent()) ?? "").replace(/\s+/g, " ");
          expect(reviewText).toContain("Total: 8 of 10 points");
          expect(reviewText).toContain(PORTUGAL_FEEDBACK);
          expect(reviewText).toContain("Porto gave Portugal its name, not its capital.");
          expect((reviewText.match(/Not correct/g) ?? []).length).toBe(2);
          expect(await pupil.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
          if (javaScriptEnabled) expect(await seriousAccessibilityViolations(pupil), "the review").toEqual([]);
          await screenshot(pupil, `quiz-review-${mode}.png`);

          // Beto and Caio answer too (not the journey's point, through the API): both miss
          // Portugal; Beto misses Australia; Caio picks Milan, which the key calls right for now.
          const answersOf = (wrongAt: number[]) => ({
            answers: built.questions.map((q: { id: string; options: { id: string }[] }, i: number) => ({
              questionId: q.id,
              optionIds: [q.options[wrongAt.includes(i) ? 1 : 0]!.id],
            })),
          });
          for (const [pupilIndex, wrongAt] of [
            [1, [PORTUGAL, 8]],
            [2, [PORTUGAL, WRONG_KEY]],
          ] as const) {
            const sent = await api("POST", `/api/test-link/${linkOf(pupils[pupilIndex]!.id).token}/submit`, { json: answersOf([...wrongAt]) });
            expect(sent.status, sent.text).toBe(200);
          }

          // 4. The teacher sees the wrong key, fixes it, is told three results were scored with
          //    it, saves and rescores them.
          await page.goto(`${baseUrl()}/en/forms/${formId}`);
          await hydrated(page, javaScriptEnabled);
          await page.getByRole("checkbox", { name: `Option 1 of question ${WRONG_KEY + 1} is correct` }).check();
          await page.getByRole("checkbox", { name: `Option 2 of question ${WRONG_KEY + 1} is correct` }).uncheck();
          await page.getByRole("button", { name: "Save", exact: true }).click();
          const warning = page.getByTestId("new-version-warning");
          await warning.getByText("3 results were scored with the current version.", { exact: false }).waitFor();
          await screenshot(page, `quiz-new-version-${mode}.png`);
          await warning.getByRole("button", { name: "Save and rescore" }).click();
          await page.waitForURL(`${baseUrl()}/en/forms/${formId}/rescore`);
          await page.getByRole("heading", { level: 1, name: "Rescore results" }).waitFor();
          const plan = ((await page.locator("main").textContent()) ?? "").replace(/\s+/g, " ");
          for (const { name } of pupils) expect(plan).toContain(name);
          await screenshot(page, `quiz-rescore-${mode}.png`);
          await page.getByRole("button", { name: "Rescore 3 results" }).click();
          await page.getByText("The results are rescored against the current version of the form.").waitFor();
          const totals = await testDatabase().submission.findMany({
            where: { formId },
            select: { studentId: true, totalScore: true, formVersion: true },
          });
          expect(Object.fromEntries(totals.map((row) => [row.studentId, [row.totalScore, row.formVersion]]))).toEqual({
            [pupils[0]!.id]: [9, 2],
            [pupils[1]!.id]: [8, 2],
            [pupils[2]!.id]: [8, 2],
          });

          // Ana's review now reads the fixed key.
          await pupil.reload();
          await pupil.getByRole("region", { name: "Review of your answers" }).getByText("Total: 9 of 10 points", { exact: false }).waitFor();

          // 5. The summary: Portugal's capital, missed by all three, comes first.
          await page.goto(`${baseUrl()}/en/forms/${formId}/summary`);
          const missed = page.getByRole("heading", { name: "Most missed questions" }).locator("xpath=ancestor::section[1]");
          await missed.waitFor();
          const first = ((await missed.getByRole("listitem").first().textContent()) ?? "").replace(/\s+/g, " ");
          expect(first).toContain("The capital of Portugal?");
          expect(first).toContain("0% of the points earned");
          await screenshot(page, `quiz-summary-${mode}.png`);
        } finally {
          await teacherContext.close();
          await phone.close();
        }
      },
      ACCESSIBILITY_SCAN_TIMEOUT * 2,
    );
  }
});
