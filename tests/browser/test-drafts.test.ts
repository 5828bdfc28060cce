import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { launchBrowser, PHONE, signedInContext } from "../support/browser.ts";

/**
 * Save and resume on the respondent's page (docs/api-contract.md §12), in Chromium with JavaScript off and on:
 * answers kept on one device come back on another, the progress bar counts, and a second submit
 * from a page left open says that its answers were not recorded.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the test page's drafts", () => {
  it.each([false, true])(
    "given answers saved on a phone (JavaScript %s), should restore them on another device and refuse a second submit clearly",
    async (javaScriptEnabled) => {
      const form = await createForm("teacher@demo.test");
      const student = await createStudent("teacher@demo.test", unique("Resumer"));
      const { id, token } = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
      const url = `${baseUrl()}/en/test/${token}`;

      const phone = await browser.newContext({ viewport: PHONE, javaScriptEnabled });
      const first = await phone.newPage();
      await first.goto(url);
      if (javaScriptEnabled) await first.locator("html[data-hydrated]").waitFor({ state: "attached" });
      expect(await first.getByText("0 of 4 answered").count()).toBe(1);
      await first.getByRole("radio", { name: "B" }).check();
      await first.getByLabel(/Say something/).fill("Back after lunch");
      if (javaScriptEnabled) {
        // Counted as the pupil goes, and saved after a quiet moment without pressing anything.
        await first.getByText("2 of 4 answered").waitFor();
        await first.getByText(/^Saved at /).waitFor();
      } else {
        await first.getByRole("button", { name: "Save and finish later" }).click();
        await first.getByText("Your answers are saved").waitFor();
        await first.getByText("2 of 4 answered").waitFor();
      }
      expect((await api("GET", `/api/submissions/${id}`, { as: "teacher@demo.test" })).body.status).toBe("IN_PROGRESS");

      // Another device: the same answers, the same progress; finished there.
      const laptop = await browser.newContext({ javaScriptEnabled });
      const second = await laptop.newPage();
      await second.goto(url);
      if (javaScriptEnabled) await second.locator("html[data-hydrated]").waitFor({ state: "attached" });
      expect(await second.getByRole("radio", { name: "B" }).isChecked()).toBe(true);
      expect(await second.getByLabel(/Say something/).inputValue()).toBe("Back after lunch");
      expect(await second.getByText("2 of 4 answered").count()).toBe(1);
      await second.getByRole("checkbox", { name: "two" }).check();
      await second.getByRole("radio", { name: "2" }).check();
      await second.getByRole("button", { name: "Send answers" }).click();
      await second.getByRole("heading", { name: "Thank you" }).waitFor();

      // The phone still shows the form: sending it now records nothing and says so.
      await first.getByRole("checkbox", { name: "minus one" }).check();
      await first.getByRole("radio", { name: "1" }).check();
      await first.getByRole("button", { name: "Send answers" }).click();
      await first.getByRole("heading", { name: "This test had already been answered" }).waitFor();
      const report = await api("GET", `/api/reports/${id}`, { as: "teacher@demo.test" });
      expect(report.body.answers.map((a: { text: string | null }) => a.text)).toContain("Back after lunch");
      await phone.close();
      await laptop.close();
    },
  );
});

describe("the respondent's page and the teacher's preview", () => {
  it("given a draft on a phone and a preview on a desktop, should have no serious accessibility violations", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test", unique("Accessible"));
    const { token } = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    await api("PUT", `/api/test-link/${token}/draft`, {
      json: { answers: [{ questionId: form.questions[0]!.id, optionIds: [form.questions[0]!.options[0]!.id] }] },
    });
    const phone = await browser.newContext({ viewport: PHONE, bypassCSP: true });
    const respondent = await phone.newPage();
    await respondent.goto(`${baseUrl()}/en/test/${token}`);
    await respondent.getByText("1 of 4 answered").waitFor();
    expect(await seriousAccessibilityViolations(respondent)).toEqual([]);
    await phone.close();

    const desktop = await signedInContext(browser, sessionOf("teacher@demo.test"), { bypassCSP: true });
    const preview = await desktop.newPage();
    await preview.goto(`${baseUrl()}/en/forms/${form.id}`);
    await preview.getByRole("link", { name: "Preview" }).click();
    await preview.getByText("Preview: what the respondent sees").waitFor();
    // The count is React's: a choice made before it has taken the page over is not counted (the
    // link may be followed before hydration, as a plain navigation).
    await preview.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await preview.getByRole("radio", { name: "B" }).check();
    await preview.getByText("1 of 4 answered").waitFor();
    expect(await seriousAccessibilityViolations(preview)).toEqual([]);
    await desktop.close();
  });
});
