import { execFileSync } from "node:child_process";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { DESKTOP, PHONE, sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { dictionaries } from "../support/dictionaries.ts";
import { type CreatedUser, createSignedInUser } from "../support/fixtures.ts";

/**
 * A clinic's day with the instrument library and critical answers (docs/api-contract.md §16, §17),
 * through the pages in real Chromium, once with JavaScript on and once off: a clinician at a desk
 * (1280 px) installs the PHQ-9 in Spanish from the Library and publishes it, assigns it to a
 * patient on the assign page; the patient answers on a phone (390 px) with item 9 positive and
 * reads the form's critical message; the clinician finds the result under "needs attention",
 * acknowledges it with a note on the report and downloads its PDF, which names the total, the band
 * and the flag. Then the DASS-21's report page and PDF list its three subscales. With JavaScript
 * on, axe checks the Library, the instrument, the installed form's editor, the flagged report and
 * the report with subscales at both widths.
 * Screenshots of every step at both widths go to $SCREENSHOT_DIR/clinician-* (default
 * <tmp>/assessment-screenshots).
 */
const NEVER = "Ningún día";
const NEARLY_EVERY_DAY = "Casi todos los días";
const PHQ9_ITEM_9 = "Pensamientos de que estaría mejor muerto(a) o de lastimarse de alguna manera";
const SAFETY_MESSAGE_ES = "Si estás pensando en hacerte daño, habla con alguien ahora";

const browser = sharedBrowser();

const hydrated = async (page: Page, javaScriptEnabled: boolean) => {
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
};

/** The width of what the page would scroll sideways, at the width it has now. */
const scrollWidth = (page: Page) => page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth);

/**
 * The page full length at the desk's and the phone's width as clinician-<name>-{desk,phone}.png;
 * it must fit the phone without sideways scrolling. Back to the width it had after.
 */
async function shots(page: Page, name: string) {
  const original = page.viewportSize() ?? DESKTOP;
  for (const [label, viewport] of [
    ["desk", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await screenshot(page, `clinician-${name}-${label}.png`);
  }
  expect(await scrollWidth(page), `${name} fits a phone`).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize(original);
}

/** axe at the desk's and the phone's width, when the context runs scripts (and bypasses the CSP). */
async function axeAtBothWidths(page: Page, javaScriptEnabled: boolean, what: string) {
  if (!javaScriptEnabled) return;
  const original = page.viewportSize() ?? DESKTOP;
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    expect(await seriousAccessibilityViolations(page), `${what} at ${viewport.width} px`).toEqual([]);
  }
  await page.setViewportSize(original);
}

/** The respondent's page's words in English that the page shows (none on a Spanish form's). */
async function englishWordsOf(page: Page): Promise<string[]> {
  const text = (await page.locator("main").textContent()) ?? "";
  return Object.values(dictionaries.en.testLink).filter((words): words is string => typeof words === "string" && text.includes(words));
}

/**
 * The PDF the page's "Download PDF" link downloads, as the lines pdftotext lays out, each trimmed
 * and with its columns (two spaces or more apart) joined by " | ".
 */
async function downloadedPdfLines(page: Page): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const text = execFileSync("pdftotext", ["-enc", "UTF-8", "-layout", (await download.path())!, "-"], { encoding: "utf8" });
  return text.split("\n").map((line) => line.trim().replace(/\s{2,}/g, " | "));
}

async function clinicianContext(clinician: CreatedUser, javaScriptEnabled: boolean): Promise<BrowserContext> {
  // axe is injected as a script: the CSP is bypassed only when scripts run at all.
  return signedInContext(browser(), clinician.cookie, { viewport: DESKTOP, javaScriptEnabled, bypassCSP: javaScriptEnabled, acceptDownloads: true });
}

describe("a clinician's journey with the instrument library and critical answers", () => {
  for (const javaScriptEnabled of [false, true]) {
    const mode = javaScriptEnabled ? "js" : "nojs";
    it(
      `given JavaScript ${javaScriptEnabled ? "on" : "off"}, should install the PHQ-9 in Spanish, assign it, show the patient the critical message on a phone, list it under needs attention until acknowledged, and name total, band and flag in its PDF`,
      async () => {
        const clinician = await createSignedInUser("TEACHER");
        const context = await clinicianContext(clinician, javaScriptEnabled);
        const page = await context.newPage();

        // 1. Library → PHQ-9 → Spanish → install → the locked editor → publish.
        await page.goto(`${baseUrl()}/en/home`);
        await hydrated(page, javaScriptEnabled);
        await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Library" }).click();
        await page.waitForURL(`${baseUrl()}/en/library`);
        await page.getByRole("heading", { level: 1, name: "Instrument library" }).waitFor();
        await hydrated(page, javaScriptEnabled);
        await axeAtBothWidths(page, javaScriptEnabled, "library");
        await shots(page, `library-${mode}`);

        await page.getByRole("link", { name: "PHQ-9: details and install" }).click();
        await page.waitForURL(`${baseUrl()}/en/library/phq-9`);
        await page.getByRole("heading", { level: 1, name: "PHQ-9" }).waitFor();
        await page.getByLabel("Show the items in").selectOption("es");
        await page.getByRole("button", { name: "Show" }).click();
        await page.waitForURL(/language=es/);
        await page.getByText("Poco interés o placer en hacer cosas").waitFor();
        await hydrated(page, javaScriptEnabled);
        await axeAtBothWidths(page, javaScriptEnabled, "instrument");
        await shots(page, `instrument-${mode}`);

        const title = unique("PHQ-9 consulta");
        expect(await page.getByLabel("Language of the form").inputValue()).toBe("es");
        await page.getByLabel("Title").fill(title);
        await page.getByRole("button", { name: "Install", exact: true }).click();
        await page.waitForURL(/\/en\/forms\/[a-z0-9]+$/);
        await page.getByText("The instrument is installed as a new form").waitFor();
        await hydrated(page, javaScriptEnabled);
        const formId = new URL(page.url()).pathname.split("/").pop()!;
        expect(await page.getByRole("note").textContent()).toContain("This form is PHQ-9 (version 2, Español)");
        await page.getByText(PHQ9_ITEM_9).waitFor();
        // Read-only: none of the form editor's question fields.
        expect(await page.locator('[name^="questions["]').count()).toBe(0);
        await axeAtBothWidths(page, javaScriptEnabled, "installed form's editor");
        await shots(page, `installed-${mode}`);
        await page.getByRole("button", { name: "Publish" }).click();
        await page.getByText("The form is published.").waitFor();
        await hydrated(page, javaScriptEnabled);
        expect((await api("GET", `/api/forms/${formId}`, { cookie: clinician.cookie })).body).toMatchObject({
          title,
          isPublished: true,
          instrument: { key: "phq-9", language: "es" },
        });

        // 2. The patient, and the assignment through the assign page.
        const patientName = `Lucía Fernández ${unique(mode)}`;
        const patient = await api("POST", "/api/candidates", { cookie: clinician.cookie, json: { name: patientName, age: 34 } });
        expect(patient.status, patient.text).toBe(201);
        await page.goto(`${baseUrl()}/en/assignments/new`);
        await page.getByRole("heading", { level: 1, name: "Assign a test" }).waitFor();
        await hydrated(page, javaScriptEnabled);
        await page.getByLabel("Find a student or candidate").fill(patientName);
        await page.getByRole("search").getByRole("button", { name: "Search" }).click();
        await page.waitForURL(/\/en\/assignments\/new\?q=/);
        await page.waitForFunction(() => document.querySelectorAll("#respondent option").length === 2);
        await page.getByLabel(/^Form/).selectOption({ label: title });
        await page.getByLabel(/^Respondent/).selectOption({ label: patientName });
        await shots(page, `assign-${mode}`);
        await page.getByRole("button", { name: "Assign", exact: true }).click();
        await page.waitForURL(/\/en\/assignments\/(?!new)[^/?]+$/);
        await page.getByRole("heading", { level: 1, name: "Test assigned" }).waitFor();
        const assignmentId = new URL(page.url()).pathname.split("/").pop()!;
        // The link opens in the form's language, whatever the clinician's pages speak (ADR 78).
        const link = await page.getByRole("textbox", { name: `Test link for ${patientName}` }).inputValue();
        expect(link).toMatch(/\/es\/test\/[A-Za-z0-9_-]{43}$/);
        await shots(page, `assigned-${mode}`);

        // 3. The patient on a phone: item 9 "nearly every day", the rest "not at all".
        const phone = await browser().newContext({ viewport: PHONE, javaScriptEnabled, bypassCSP: javaScriptEnabled });
        const answer = await phone.newPage();
        await answer.goto(link);
        await hydrated(answer, javaScriptEnabled);
        expect(await answer.getByRole("heading", { level: 1 }).textContent()).toBe(title);
        expect(await answer.locator("html").getAttribute("lang")).toBe("es");
        await answer.getByText(`Hola, ${patientName}`).waitFor();
        expect(await englishWordsOf(answer)).toEqual([]);
        expect(await scrollWidth(answer), "the test link fits the phone").toBeLessThanOrEqual(PHONE.width);
        await screenshot(answer, `clinician-test-link-${mode}-phone.png`);
        const questions = answer.getByRole("group");
        expect(await questions.count()).toBe(9);
        for (let i = 0; i < 9; i++) {
          await questions
            .nth(i)
            .getByRole("radio", { name: i === 8 ? NEARLY_EVERY_DAY : NEVER, exact: true })
            .check();
        }
        await answer.getByRole("button", { name: "Enviar respuestas" }).click();
        await answer.getByRole("heading", { name: "Gracias" }).waitFor();
        expect(await answer.getByRole("region", { name: "Lee esto, por favor" }).textContent()).toContain(SAFETY_MESSAGE_ES);
        expect(await englishWordsOf(answer)).toEqual([]);
        expect(await scrollWidth(answer), "the confirmation fits the phone").toBeLessThanOrEqual(PHONE.width);
        await screenshot(answer, `clinician-test-done-${mode}-phone.png`);
        await phone.close();

        // 4. Needs attention on the home page, the flag on the report, acknowledged with a note.
        await page.goto(`${baseUrl()}/en/home`);
        await hydrated(page, javaScriptEnabled);
        const attention = page.locator("section#needs-attention");
        expect(await attention.getByRole("link").allTextContents()).toEqual([expect.stringContaining(patientName)]);
        expect(await attention.getByRole("link").first().textContent()).toContain("Flagged");
        await shots(page, `home-attention-${mode}`);
        await attention.getByRole("link", { name: new RegExp(patientName) }).click();
        await page.waitForURL(`${baseUrl()}/en/reports/${assignmentId}`);
        await page.getByRole("heading", { level: 1, name: patientName }).waitFor();
        await hydrated(page, javaScriptEnabled);
        const flags = page.getByRole("region", { name: "Needs attention" });
        expect(await flags.getByText("Flagged", { exact: true }).isVisible()).toBe(true);
        expect(await flags.textContent()).toContain(`Critical answer: ${PHQ9_ITEM_9} — ${NEARLY_EVERY_DAY}`);
        await axeAtBothWidths(page, javaScriptEnabled, "flagged report");
        await shots(page, `report-flagged-${mode}`);
        const note = "Llamé a la paciente; cita mañana a las 9.";
        await flags.getByLabel("Note (optional)").fill(note);
        await flags.getByRole("button", { name: "Mark as acknowledged" }).click();
        await flags.getByText("Flagged, acknowledged", { exact: true }).waitFor();
        expect(await flags.textContent()).toContain(`Note: ${note}`);
        await shots(page, `report-acknowledged-${mode}`);

        await page.goto(`${baseUrl()}/en/home`);
        await hydrated(page, javaScriptEnabled);
        await page.getByRole("heading", { level: 1, name: `Welcome, ${clinician.profile.name}` }).waitFor();
        expect(await page.locator("section#needs-attention").count()).toBe(0);
        await shots(page, `home-clear-${mode}`);
        await page.goto(`${baseUrl()}/en/reports/${assignmentId}`);
        await hydrated(page, javaScriptEnabled);
        expect(await page.getByRole("region", { name: "Needs attention" }).getByText("Flagged, acknowledged", { exact: true }).isVisible()).toBe(true);

        // 5. The PDF, downloaded through the report page.
        const pdf = await downloadedPdfLines(page);
        expect(pdf).toEqual(
          expect.arrayContaining([
            // The PHQ-9 shows its total as a score of its maximum, no percentage (ADR 79).
            "Total score | Score band",
            "3 / 27 | Minimal",
            "NEEDS ATTENTION",
            "Flagged: an answer or a score of this result is marked critical.",
            `• ${PHQ9_ITEM_9} — ${NEARLY_EVERY_DAY}`,
            expect.stringMatching(new RegExp(`^Acknowledged by ${clinician.profile.name}, `)),
            `Note: ${note}`,
          ]),
        );
        expect((await api("GET", `/api/reports/${assignmentId}`, { cookie: clinician.cookie })).body).toMatchObject({
          totalScore: 3,
          scoreLabel: "Minimal",
          acknowledgementNote: note,
        });
        await context.close();
      },
      ACCESSIBILITY_SCAN_TIMEOUT,
    );
  }

  it(
    "given the DASS-21 installed through the API and answered, should list its three subscales with their scores and bands on the report page and in its PDF",
    async () => {
      const clinician = await createSignedInUser("TEACHER");
      const installed = await api("POST", "/api/instruments/dass-21/install", { cookie: clinician.cookie, json: { title: unique("DASS-21") } });
      expect(installed.status, installed.text).toBe(201);
      const form = installed.body as {
        id: string;
        questions: { id: string; key: string; options: { id: string; score: number }[] }[];
        subscales: { key: string; name: string; items: string[] }[];
      };
      expect((await api("PUT", `/api/forms/${form.id}`, { cookie: clinician.cookie, json: { isPublished: true } })).status).toBe(200);
      const patient = await api("POST", "/api/candidates", { cookie: clinician.cookie, json: { name: `Tomás Ibáñez ${unique("dass")}` } });
      const link = await api("POST", "/api/submissions", { cookie: clinician.cookie, json: { formId: form.id, candidateId: patient.body.id } });
      expect(link.status, link.text).toBe(201);
      // Every depression item "2", anxiety "1", stress "0": 28, 14 and 0 of 42 once doubled.
      const itemScore = { depression: 2, anxiety: 1, stress: 0 } as Record<string, number>;
      const subscaleOf = new Map(form.subscales.flatMap((subscale) => subscale.items.map((key) => [key, subscale.key] as const)));
      const answers = form.questions.map((question) => ({
        questionId: question.id,
        optionIds: [question.options.find((option) => option.score === itemScore[subscaleOf.get(question.key)!])!.id],
      }));
      const submit = await api("POST", `/api/test-link/${link.body.token}/submit`, { json: { answers } });
      expect(submit.status, submit.text).toBe(200);

      const context = await clinicianContext(clinician, true);
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/reports/${link.body.id}`);
      await page.getByRole("heading", { level: 1, name: patient.body.name }).waitFor();
      await hydrated(page, true);
      // The page lists them as the PDF does.
      expect(
        await page
          .getByRole("region", { name: "Subscales" })
          .getByRole("listitem")
          .evaluateAll((items) => items.map((item) => item.textContent)),
      ).toEqual(["DepressionExtremely severe28 of 42", "AnxietyModerate14 of 42", "StressNormal0 of 42"]);
      // The total is its score of its maximum, not "No band" and a percentage; the subscales take the bands' place.
      const summary = await page.locator("#summary").textContent();
      expect(summary).toContain("21 / 63");
      expect(summary).not.toContain("No band");
      expect(summary).not.toContain("%");
      expect(await page.locator("#bands").count()).toBe(0);
      await axeAtBothWidths(page, true, "report with subscales");
      await shots(page, "report-dass-21");
      // The total as a score of its maximum and no band (the DASS-21 bands its subscales only),
      // then each subscale, its band and score.
      const lines = await downloadedPdfLines(page);
      expect(lines.join("\n")).not.toContain("This form defines no score bands.");
      expect(lines.join("\n")).not.toContain("%");
      expect(lines).toEqual(
        expect.arrayContaining(["21 / 63", "SUBSCALES", "Depression | Extremely severe | 28 / 42", "Anxiety | Moderate | 14 / 42", "Stress | Normal | 0 / 42"]),
      );
      await context.close();
    },
    ACCESSIBILITY_SCAN_TIMEOUT,
  );
});
