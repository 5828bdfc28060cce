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

/** Windows-1252 bytes of `text`, as Excel on Windows saves "CSV" (the accents here are all Latin-1). */
const windows1252 = (text: string) => Buffer.from(text, "latin1");

describe("the roster import page, keeping people in step", () => {
  it.each([
    { javaScriptEnabled: false, locale: "en" },
    { javaScriptEnabled: true, locale: "pt-BR" },
  ] as const)(
    "given a Windows-1252 file that updates one student and adds another (JavaScript $javaScriptEnabled, $locale), should preview the rows as stored before writing, then import them",
    async ({ javaScriptEnabled, locale }) => {
      const tag = unique("Sync").replaceAll("-", "");
      const marta = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: `Marta ${tag}`, externalId: `${tag}-1`, grade: "5" } });
      expect(marta.status).toBe(201);
      const t =
        locale === "en"
          ? {
              importLink: "Import from a file",
              file: "CSV file",
              update: "Update the people already here",
              check: "Check the file",
              encoding: "The file is not UTF-8: it was read as Windows-1252, as Excel saves CSV files. Check that the names below look right.",
              counts: "New: 1. To update: 1. Unchanged: 0. New groups: 1.",
              created: "New",
              updated: "Matched; changes grade and group",
              confirm: "Import: add 1, update 1",
              done: "The file is imported.",
            }
          : {
              importLink: "Importar de um arquivo",
              file: "Arquivo CSV",
              update: "Atualizar as pessoas que já estão aqui",
              check: "Verificar o arquivo",
              encoding:
                "O arquivo não está em UTF-8: foi lido como Windows-1252, como o Excel salva arquivos CSV. Confira se os nomes abaixo aparecem corretamente.",
              counts: "Novas: 1. A atualizar: 1. Sem mudança: 0. Grupos novos: 1.",
              created: "Nova",
              updated: "Já está; muda série e grupo",
              confirm: "Importar: adicionar 1, atualizar 1",
              done: "O arquivo foi importado.",
            };
      const context = await signedInContext(browser, sessionOf("teacher@demo.test"), { javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/${locale}/students`);
      await page.getByRole("link", { name: t.importLink }).click();
      await page.waitForURL(new RegExp(`/${locale}/students/import$`));

      const csv = `nome;matrícula;série;turma\r\nMarta ${tag};${tag}-1;6;${tag}\r\nVinícius Araújo ${tag};${tag}-2;5;${tag}\r\n`;
      await page.getByLabel(t.file).setInputFiles({ name: "turma.csv", mimeType: "text/csv", buffer: windows1252(csv) });
      await page.getByLabel(t.update).check();
      await page.getByRole("button", { name: t.check }).click();
      await page.locator("#import-rows").waitFor();

      // Nothing is written yet; the page shows the names as they will be stored and what each row does.
      expect((await api("GET", `/api/students?search=${tag}`, { as: "teacher@demo.test" })).body.total).toBe(1);
      expect(await page.locator("#import-encoding").textContent()).toBe(t.encoding);
      expect(await page.locator("#import-counts").textContent()).toBe(t.counts);
      const rows = await page.locator("#import-rows tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
      expect(rows).toEqual([
        ["2", `Marta ${tag}`, "—", `${tag}-1`, tag, t.updated],
        ["3", `Vinícius Araújo ${tag}`, "—", `${tag}-2`, tag, t.created],
      ]);
      // The choice is kept for a second check.
      expect(await page.getByLabel(t.update).isChecked()).toBe(true);

      await page.getByRole("button", { name: t.confirm }).click();
      await page.waitForURL(new RegExp(`/${locale}/students$`));
      await page.getByText(t.done).waitFor();
      const students = (await api("GET", `/api/students?search=${tag}`, { as: "teacher@demo.test" })).body.students as {
        id: string;
        name: string;
        externalId: string;
        grade: string;
      }[];
      expect(students.map(({ name, externalId, grade }) => ({ name, externalId, grade })).sort((a, b) => a.externalId.localeCompare(b.externalId))).toEqual([
        { name: `Marta ${tag}`, externalId: `${tag}-1`, grade: "6" },
        { name: `Vinícius Araújo ${tag}`, externalId: `${tag}-2`, grade: "5" },
      ]);
      expect(students.find((student) => student.externalId === `${tag}-1`)?.id).toBe(marta.body.id);
      const groups = await api("GET", `/api/groups?search=${tag}`, { as: "teacher@demo.test" });
      expect(groups.body.groups[0]._count.members).toBe(2);
      await context.close();
    },
  );
});
