import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { createForm, createStudent } from "../support/assessment.ts";
import { ACCESSIBILITY_SCAN_TIMEOUT, seriousAccessibilityViolations } from "../support/axe.ts";
import { PHONE, sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { waitForMail } from "../support/mail.ts";

/**
 * The schedule pages in Chromium with JavaScript off (plain posts, post/redirect/get): a class's
 * questionnaire repeated weekly from the group's page, its first occurrence made by the suite's
 * own server as the day has already begun, then changed, paused, resumed and deleted, asked first.
 */
const browser = sharedBrowser();

const text = async (page: Page) => ((await page.locator("main").textContent()) ?? "").replace(/\s+/g, " ");

describe("the schedule pages", () => {
  it("given JavaScript off, should repeat a class's questionnaire from the group's page, run it today, change, pause, resume and delete it", async () => {
    const form = await createForm("teacher@demo.test");
    const email = `${unique("weekly").toLowerCase()}@pupils.test`;
    const pupil = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: unique("Weekly pupil"), email } });
    const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Weekly class") } });
    await api("POST", `/api/groups/${group.body.id}/members`, { as: "teacher@demo.test", json: { studentIds: [pupil.body.id] } });
    const context = await signedInContext(browser(), sessionOf("teacher@demo.test"), { javaScriptEnabled: false });
    const page = await context.newPage();

    // From the class's page, with the class already chosen.
    await page.goto(`${baseUrl()}/en/groups/${group.body.id}`);
    await page.getByRole("link", { name: "Repeat this questionnaire" }).click();
    // Without JavaScript the page streams in: its selects are read once the whole page is there.
    await page.waitForLoadState("load");
    await page.getByRole("heading", { level: 1, name: "Repeat a questionnaire" }).waitFor();
    expect(await page.getByRole("combobox", { name: /^Respondent/ }).inputValue()).toBe(`group:${group.body.id}`);
    const today = new Date().toISOString().slice(0, 10);
    expect(await page.getByLabel("First day").inputValue()).toBe(today);
    expect(await page.getByLabel("Repeat every (days)").inputValue()).toBe("7");

    // Refused by the server, by the fields, in the page's words.
    await page.getByRole("combobox", { name: /^Form/ }).selectOption({ label: form.title });
    await page.getByLabel("Repeat every (days)").fill("400");
    await page.getByRole("button", { name: "Create the schedule" }).click();
    await expect.poll(() => page.locator("#everyDays-error").textContent()).toBe("Enter 365 or less.");
    expect(await page.getByRole("combobox", { name: /^Form/ }).inputValue()).toBe(form.id);
    await page.getByLabel("Repeat every (days)").fill("7");
    await page.getByLabel("Last day").fill("2099-01-31");
    await page.getByLabel("Number of times").fill("4");
    await page.getByRole("button", { name: "Create the schedule" }).click();
    await expect.poll(() => page.locator("#count-error").textContent()).toBe("Give a last day or a number of times, not both.");

    await page.getByLabel("Last day").fill("");
    await page.getByLabel("E-mail the links each time").check();
    await page.getByRole("button", { name: "Create the schedule" }).click();
    await page.waitForURL(/\/en\/schedules\/[a-z0-9]+$/);
    await page.getByText("The schedule is made.").waitFor();
    await page.getByRole("heading", { level: 1, name: `Schedule of ${form.title}` }).waitFor();
    const scheduleUrl = page.url();

    // The day has begun: the suite's server makes today's links at once and e-mails them.
    const mail = await waitForMail(email);
    expect(mail.subject).toBe(`A test for you: ${form.title}`);
    await expect
      .poll(async () => {
        await page.goto(scheduleUrl);
        return page.locator("#occurrences tbody tr").allTextContents();
      })
      .toEqual([expect.stringMatching(/Done\s*1\s*0/)]);
    const details = await text(page);
    expect(details).toContain("Every 7 days");
    expect(details).toContain("After 4 times");
    expect(details).toContain("The links are e-mailed");
    await screenshot(page, "schedule-page-desktop.png");

    // Changed: every two weeks, no end.
    await page.getByLabel("Repeat every (days)").fill("14");
    await page.getByLabel("Number of times").fill("");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("The schedule is saved.").waitFor();
    expect(await text(page)).toContain("Every 14 days");
    expect(await text(page)).toContain("Not until you pause or delete it");

    // Paused and resumed, here and from the list.
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByText("The schedule is paused: nothing is made until you resume it.").waitFor();
    expect(await text(page)).toContain("Paused: nothing is made until you resume it");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Schedules" }).click();
    await page.getByRole("heading", { level: 1, name: "Schedules" }).waitFor();
    const row = page.locator("li", { has: page.getByRole("link", { name: form.title }) });
    // Without JavaScript the page streams in: the heading may be there before the whole row is.
    await row.getByText("Paused", { exact: true }).waitFor();
    await page.getByRole("button", { name: `Resume the schedule of ${form.title}` }).click();
    await page.getByText("The schedule runs again.").waitFor();
    await row.getByText("Active", { exact: true }).waitFor();
    expect(((await row.textContent()) ?? "").replace(/\s+/g, " ")).toMatch(/Active\s*Next: /);

    // Deleted, asked first.
    await page.getByRole("link", { name: `Delete the schedule of ${form.title}` }).click();
    await page.getByText("Delete this schedule?").waitFor();
    await page.getByRole("button", { name: "Yes, delete the schedule" }).click();
    await page.getByText("The schedule is deleted. The links it made stay.").waitFor();
    expect(await page.getByRole("link", { name: form.title }).count()).toBe(0);
    expect((await api("GET", `/api/submissions?formId=${form.id}`, { as: "teacher@demo.test" })).body.total).toBe(1);
    await context.close();
  });

  it("given the form's and a person's pages, should open the new schedule with them chosen", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const candidate = await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: unique("Applicant") } });
    const context = await signedInContext(browser(), sessionOf("teacher@demo.test"), { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/forms/${form.id}`);
    await page.getByRole("link", { name: "Repeat this questionnaire" }).click();
    expect(await page.getByRole("combobox", { name: /^Form/ }).inputValue()).toBe(form.id);
    await page.goto(`${baseUrl()}/es/students/${student.id}`);
    await page.getByRole("link", { name: "Repetir este cuestionario" }).click();
    await page.waitForLoadState("load");
    await page.getByRole("heading", { level: 1, name: "Repetir un cuestionario" }).waitFor();
    expect(await page.getByRole("combobox", { name: /^Persona evaluada/ }).inputValue()).toBe(`student:${student.id}`);
    await page.goto(`${baseUrl()}/pt-BR/candidates/${candidate.body.id}`);
    await page.getByRole("link", { name: "Repetir este questionário" }).click();
    await page.waitForLoadState("load");
    expect(await page.getByRole("combobox", { name: /^Pessoa avaliada/ }).inputValue()).toBe(`candidate:${candidate.body.id}`);
    await context.close();
  });

  it(
    "given the list, a schedule's page and the new schedule's page on a phone, should have no serious accessibility violations",
    async () => {
      const form = await createForm("teacher@demo.test");
      const student = await createStudent("teacher@demo.test");
      const created = await api("POST", "/api/schedules", {
        as: "teacher@demo.test",
        json: { formId: form.id, studentIds: [student.id], startsAt: "2099-03-02", everyDays: 7, send: false },
      });
      const context = await signedInContext(browser(), sessionOf("teacher@demo.test"), { viewport: PHONE, bypassCSP: true });
      const page = await context.newPage();
      for (const pathname of [
        "/en/schedules",
        `/en/schedules/${created.body.schedule.id}`,
        `/en/schedules/${created.body.schedule.id}?confirm=delete`,
        "/en/schedules/new",
      ]) {
        await page.goto(`${baseUrl()}${pathname}`);
        expect(await seriousAccessibilityViolations(page), pathname).toEqual([]);
      }
      await context.close();
    },
    ACCESSIBILITY_SCAN_TIMEOUT,
  );
});
