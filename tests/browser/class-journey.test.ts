import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { createForm } from "../support/assessment.ts";
import { launchBrowser, PHONE, signedInContext } from "../support/browser.ts";
import { testDatabase } from "../support/database.ts";
import { waitForMail } from "../support/mail.ts";

/**
 * The class journey, in Chromium with JavaScript off and on: a teacher imports a class from a
 * CSV file, assigns a form to the class with the links e-mailed, a pupil answers on a phone from
 * the e-mail, the teacher sees the class's progress, reminds the rest, withdraws one link and
 * extends another.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const text = async (page: Page) => (await page.locator("main").innerText()).replace(/\s+/g, " ");

describe("a class from a file to its results", () => {
  it.each([false, true])(
    "given a teacher and three pupils (JavaScript %s), should take the class from a CSV file to its progress",
    async (javaScriptEnabled) => {
      const tag = unique("Journey").replaceAll("-", "");
      const ana = `ana.${tag}@pupils.test`.toLowerCase();
      const beto = `beto.${tag}@pupils.test`.toLowerCase();
      const form = await createForm("teacher@demo.test");
      const teacher = await signedInContext(browser, sessionOf("teacher@demo.test"), { javaScriptEnabled });
      const page = await teacher.newPage();

      // 1. The class from a spreadsheet: Excel's semicolons, a BOM, accents, one pupil without an address.
      await page.goto(`${baseUrl()}/en/students/import`);
      const csv = `\uFEFFname;email;group\nAna Araújo ${tag};${ana};Class ${tag}\nBeto Böhm ${tag};${beto};Class ${tag}\nCaio Çelik ${tag};;Class ${tag}\n`;
      await page.getByLabel("CSV file").setInputFiles({ name: "class.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await page.getByRole("button", { name: "Check the file" }).click();
      await page.getByText("3 rows read; 3 can be imported.").waitFor();
      await page.getByRole("button", { name: "Import 3 rows" }).click();
      await page.getByText("The file is imported.").waitFor();

      // 2. The class's page, and the whole class assigned with the links e-mailed.
      await page.goto(`${baseUrl()}/en/groups?search=${tag}`);
      await page.getByRole("link", { name: `Class ${tag}` }).click();
      await page.getByRole("heading", { name: `Class ${tag}` }).waitFor();
      const groupUrl = page.url();
      await page.getByRole("link", { name: "Assign a test" }).click();
      await page.getByRole("combobox", { name: /^Form/ }).selectOption({ label: form.title });
      expect(await page.getByRole("combobox", { name: /^Respondent/ }).inputValue()).toMatch(/^group:/);
      await page.getByLabel("E-mail the link now").check();
      await page.getByRole("button", { name: "Assign", exact: true }).click();
      await page.getByText("3 links created.").waitFor();
      await page.getByText("1 person has no e-mail address: give them the link yourself.").waitFor();

      // 3. Ana answers on her phone from the e-mail, in the teacher's language.
      const mail = await waitForMail(ana);
      const link = /https?:\/\/\S+\/en\/test\/[\w-]+/.exec(mail.text)![0].replace(/^https?:\/\/[^/]+/, baseUrl());
      const phone = await browser.newContext({ viewport: PHONE, javaScriptEnabled });
      const pupil = await phone.newPage();
      await pupil.goto(link);
      await pupil.getByRole("radio", { name: "B" }).check();
      await pupil.getByRole("checkbox", { name: "two" }).check();
      await pupil.getByRole("radio", { name: "2" }).check();
      await pupil.getByRole("button", { name: "Send answers" }).click();
      await pupil.getByRole("heading", { name: "Thank you" }).waitFor();
      await phone.close();
      await waitForMail(beto);

      // 4. The class's progress: one of three done, two still to answer.
      await page.goto(groupUrl);
      const progress = await text(page);
      expect(progress).toContain("1 of 3 completed");
      expect(progress).toMatch(/Assigned 3 E-mailed 2 Not opened 2 Opened 0 In progress 0 Completed 1/);
      await page.getByText("2 people still to answer").click();
      await page
        .locator("#progress")
        .getByRole("link", { name: `Beto Böhm ${tag}` })
        .waitFor();

      // 5. Remind the rest, once the first e-mails were queued more than 10 minutes ago as far as the links know.
      const links = await testDatabase().submission.findMany({ where: { formId: form.id }, select: { id: true } });
      await testDatabase().submission.updateMany({ where: { id: { in: links.map((l) => l.id) } }, data: { mailQueuedAt: new Date(Date.now() - 11 * 60_000) } });
      await page.getByRole("button", { name: "Remind now" }).click();
      await page.getByText("1 reminder is on its way.").waitFor();
      await page.getByText("1 person has no e-mail address: remind them yourself.").waitFor();
      expect((await waitForMail(beto, 1)).subject).toBe(`Reminder: ${form.title} is waiting for your answers`);

      // 6. Beto's link withdrawn, from the list of those still to answer.
      await page.goto(groupUrl);
      await page.getByText("2 people still to answer").click();
      await page
        .locator("#progress")
        .getByRole("link", { name: `Beto Böhm ${tag}` })
        .click();
      await page.getByText("Withdraw the link").click();
      await page.getByRole("button", { name: "Yes, withdraw it" }).click();
      await page.getByText("The link is withdrawn.").waitFor();

      // 7. Caio's link extended to a last day.
      await page.goto(groupUrl);
      await page.getByText("1 person still to answer").click();
      await page
        .locator("#progress")
        .getByRole("link", { name: `Caio Çelik ${tag}` })
        .click();
      await page.getByLabel("Last day of the link").fill("2099-06-30");
      await page.getByRole("button", { name: "Save the expiry" }).click();
      await page.getByText("The expiry is changed.").waitFor();

      const all = await api("GET", `/api/submissions?formId=${form.id}`, { as: "teacher@demo.test" });
      const byName = Object.fromEntries(
        all.body.submissions.map((s: { student: { name: string }; status: string; expiresAt: string | null }) => [s.student.name.split(" ")[0], s]),
      );
      expect(byName.Ana.status).toBe("COMPLETED");
      expect(byName.Beto.status).toBe("REVOKED");
      expect(byName.Caio).toMatchObject({ status: "PENDING", expiresAt: "2099-06-30T23:59:59.999Z" });
      await page.goto(groupUrl);
      expect(await text(page)).toMatch(/1 of 3 completed.*Withdrawn 1/);
      await teacher.close();
    },
  );
});
