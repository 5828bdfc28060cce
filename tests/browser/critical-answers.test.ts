import { describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { PHONE, sharedBrowser, signedInContext } from "../support/browser.ts";

/**
 * Critical answers in a real browser (docs/api-contract.md §16, ADR 71): the respondent's
 * confirmation page shows the form's critical message after a critical answer, with and without
 * JavaScript, and the report page's acknowledge form records the acknowledgement, with and
 * without it; both pages without serious accessibility violations (scanned with JavaScript on).
 */
const browser = sharedBrowser();

const MESSAGE = "If you are in danger now, call 112.\nYou can also talk to your school counsellor today.";

/** One question whose "Often" is critical, and the form's message. */
async function criticalLink() {
  const form = await createForm("teacher@demo.test", {
    title: unique("Wellbeing check"),
    isPublished: true,
    criticalMessage: MESSAGE,
    questions: [
      {
        text: "I felt I could not go on",
        type: "SINGLE_CHOICE",
        required: true,
        options: [
          { text: "Never", score: 0 },
          { text: "Often", score: 2, critical: true },
        ],
      },
    ],
  });
  const student = await createStudent("teacher@demo.test", unique("Respondent"));
  return assign("teacher@demo.test", { formId: form.id, studentId: student.id });
}

describe("a critical answer in the browser", () => {
  for (const javaScriptEnabled of [false, true]) {
    it(
      `given JavaScript ${javaScriptEnabled ? "on" : "off"}, should show the critical message on the confirmation page, and acknowledge the result on the report page`,
      async () => {
        const link = await criticalLink();
        const respondent = await browser().newContext({ javaScriptEnabled, viewport: PHONE, bypassCSP: true });
        const page = await respondent.newPage();
        await page.goto(link.url);
        if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
        await page.getByRole("radio", { name: "Often" }).check();
        await page.getByRole("button", { name: "Send answers" }).click();
        await page.getByRole("heading", { name: "Thank you" }).waitFor();
        const notice = page.getByRole("region", { name: "Please read this" });
        expect(await notice.textContent()).toContain("call 112.\nYou can also talk to your school counsellor today.");
        // axe runs as a script: scanned with JavaScript on.
        if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await respondent.close();

        const staff = await signedInContext(browser(), sessionOf("teacher@demo.test"), { javaScriptEnabled, bypassCSP: true });
        const report = await staff.newPage();
        await report.goto(`${baseUrl()}/en/reports/${link.id}`);
        if (javaScriptEnabled) await report.locator("html[data-hydrated]").waitFor({ state: "attached" });
        const flags = report.getByRole("region", { name: "Needs attention" });
        expect(await flags.textContent()).toContain("Critical answer: I felt I could not go on — Often");
        expect(await flags.getByText("Flagged", { exact: true }).isVisible()).toBe(true);
        if (javaScriptEnabled) expect(await seriousAccessibilityViolations(report)).toEqual([]);
        await flags.getByLabel("Note (optional)").fill("Talked with her this afternoon.");
        await flags.getByRole("button", { name: "Mark as acknowledged" }).click();
        await flags.getByText("Flagged, acknowledged", { exact: true }).waitFor();
        expect(await flags.textContent()).toContain("Note: Talked with her this afternoon.");
        await staff.close();

        const read = await api("GET", `/api/reports/${link.id}`, { as: "teacher@demo.test" });
        expect(read.body).toMatchObject({ acknowledgementNote: "Talked with her this afternoon.", acknowledgedBy: { name: expect.any(String) } });
      },
      ACCESSIBILITY_SCAN_TIMEOUT,
    );
  }
});
