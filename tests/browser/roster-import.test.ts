import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { launchBrowser, signedInContext } from "../support/browser.ts";

/** Importing a class list from the students page, in Chromium with JavaScript off and on. */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("the roster import page", () => {
  it.each([false, true])(
    "given a CSV from a spreadsheet (JavaScript %s), should check it, show a bad row, then import the fixed file with its group",
    async (javaScriptEnabled) => {
      const tag = unique("Roster").replaceAll("-", "");
      const context = await signedInContext(browser, sessionOf("teacher@demo.test"), { javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/students`);
      await page.getByRole("link", { name: "Import from a file" }).click();
      await page.waitForURL(/\/en\/students\/import$/);

      // Nothing chosen: said by the field.
      await page.getByRole("button", { name: "Check the file" }).click();
      await expect.poll(() => page.locator("#file-error").textContent()).toBe("Choose a CSV file.");

      const bad = `\uFEFFname;age;group\nÁngela ${tag};12;${tag}\nBeto ${tag};300;${tag}\n`;
      await page.getByLabel("CSV file").setInputFiles({ name: "class.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
      await page.getByRole("button", { name: "Check the file" }).click();
      await page.getByText("2 rows read; 1 can be imported.").waitFor();
      expect(await page.locator("tbody tr").allTextContents()).toEqual(["3ageEnter an age from 0 to 150."]);
      expect(await page.getByRole("button", { name: /^Import/ }).count()).toBe(0);

      const good = bad.replace(";300;", ";13;");
      await page.getByLabel("CSV file").setInputFiles({ name: "class.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
      await page.getByRole("button", { name: "Check the file" }).click();
      await page.getByText("2 rows read; 2 can be imported.").waitFor();
      await page.getByRole("button", { name: "Import 2 rows" }).click();
      await page.waitForURL(/\/en\/students$/);
      await page.getByText("The file is imported.").waitFor();
      const students = await api("GET", `/api/students?search=${tag}`, { as: "teacher@demo.test" });
      expect(students.body.students.map((s: { name: string }) => s.name).sort()).toEqual([`Beto ${tag}`, `Ángela ${tag}`].sort());
      const groups = await api("GET", `/api/groups?search=${tag}`, { as: "teacher@demo.test" });
      expect(groups.body.groups[0]._count.members).toBe(2);
      await context.close();
    },
  );
});
