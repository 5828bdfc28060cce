import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, type CreatedUser } from "../support/fixtures.ts";
import { type Instance, startInstance } from "../support/instance.ts";

/**
 * GET /api/reports/export (docs/api-contract.md §13) over real HTTP: the CSV and the XLSX hold exactly the rows
 * of GET /api/reports, in its order, for every combination of its filters; CSV parses back with a
 * standard parser; scope rules apply. A teacher of its own keeps other test files' results out.
 */
let teacher: CreatedUser;
let form: { id: string; questions: { id: string; options: { id: string }[] }[] };
let otherForm: { id: string };
let groupId: string;
const names = {
  quoted: `Zoë "Zo" Ørsted, Jr.; ${unique("q")}`,
  formula: `=SUM(1,2) ${unique("f")}`,
  plain: `Ana Núñez ${unique("p")}`,
};
const essay = 'Line one, with "quotes";\nline two\r\nand a third';
/** The columns every export starts with: the result's twelve, then its change over time's five (docs/api-contract.md §18). */
const FIXED = 12 + 5;

async function as(method: string, path: string, json?: unknown) {
  return api(method, path, { cookie: teacher.cookie, ...(json === undefined ? {} : { json }) });
}

async function complete(formId: string, studentId: string, answers: (f: typeof form) => unknown) {
  const link = await as("POST", "/api/submissions", { formId, studentId });
  expect(link.status, link.text).toBe(201);
  const submitted = await api("POST", `/api/test-link/${link.body.token}/submit`, { json: answers(form) });
  expect(submitted.status, submitted.text).toBe(200);
  return link.body.id as string;
}

beforeAll(async () => {
  teacher = await createSignedInUser("TEACHER");
  form = (await as("POST", "/api/forms", mixedForm(unique("Export check")))).body;
  otherForm = (await as("POST", "/api/forms", mixedForm(unique("Other check")))).body;
  const students: Record<string, string> = {};
  for (const [key, name] of Object.entries(names)) students[key] = (await as("POST", "/api/students", { name })).body.id;
  groupId = (await as("POST", "/api/groups", { name: unique("Class 4B") })).body.id;
  expect((await as("POST", `/api/groups/${groupId}/members`, { studentIds: [students.quoted, students.formula] })).status).toBe(200);

  const full = (f: typeof form) => {
    const [q1, q2, q3, q4] = f.questions;
    return {
      answers: [
        { questionId: q1!.id, optionIds: [q1!.options[0]!.id] },
        { questionId: q2!.id, optionIds: [q2!.options[0]!.id, q2!.options[2]!.id] },
        { questionId: q3!.id, optionIds: [q3!.options[3]!.id] },
        { questionId: q4!.id, text: essay },
      ],
    };
  };
  for (const key of Object.keys(names)) await complete(form.id, students[key]!, full);
  await complete(otherForm.id, students.plain!, () => {
    const other = otherForm as typeof form;
    return {
      answers: [
        { questionId: other.questions[0]!.id, optionIds: [other.questions[0]!.options[1]!.id] },
        { questionId: other.questions[2]!.id, optionIds: [other.questions[2]!.options[0]!.id] },
      ],
    };
  });
});

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

async function listedIds(filters: Record<string, string>) {
  const listed = await as("GET", `/api/reports?${query({ ...filters, limit: "100" })}`);
  expect(listed.status, listed.text).toBe(200);
  return listed.body.reports.map((report: { id: string }) => report.id) as string[];
}

async function download(filters: Record<string, string>) {
  const response = await fetch(`${baseUrl()}/api/reports/export?${query(filters)}`, { headers: { cookie: teacher.cookie } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

const csvRows = (bytes: Buffer, delimiter = ",") => parse(bytes.toString("utf8"), { bom: true, delimiter, relax_column_count: false }) as string[][];

describe("GET /api/reports/export", () => {
  it("given every combination of filters, should give the rows of GET /api/reports in its order, as CSV and as XLSX", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const combinations: Record<string, string>[] = [
      {},
      { search: "núñez" },
      { formId: form.id },
      { groupId },
      { from: "2020-01-01", to: today },
      { from: "2020-01-01", to: "2020-12-31" },
      { formId: form.id, groupId },
      { formId: form.id, groupId, search: "orsted", from: today },
      { formId: otherForm.id, search: "ana" },
    ];
    for (const filters of combinations) {
      const expected = await listedIds(filters);
      const csv = await download({ ...filters, format: "csv" });
      expect(csv.response.status, JSON.stringify(filters)).toBe(200);
      const rows = csvRows(csv.bytes);
      expect(rows[0]!.slice(0, 12)).toEqual([
        "submissionId",
        "respondent",
        "kind",
        "groups",
        "form",
        "assignedBy",
        "assignedAt",
        "completedAt",
        "totalScore",
        "maxScore",
        "percentage",
        "scoreLabel",
      ]);
      expect(
        rows.slice(1).map((row) => row[0]),
        JSON.stringify(filters),
      ).toEqual(expected);

      const xlsx = await download({ ...filters, format: "xlsx" });
      expect(xlsx.response.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      const ids: string[] = [];
      sheet.eachRow((row, number) => {
        if (number > 1) ids.push(String(row.getCell(1).value));
      });
      expect(ids, JSON.stringify(filters)).toEqual(expected);
    }
  });

  it("given a form, should add its questions' answers and scores, and round-trip quotes, commas, semicolons and new lines", async () => {
    const { response, bytes } = await download({ formId: form.id, format: "csv" });
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="reports-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = csvRows(bytes);
    expect(header).toHaveLength(FIXED + 4 * 2);
    expect(header!.slice(FIXED - 5, FIXED)).toEqual(["fromPrevious", "fromBaseline", "reliableChange", "response", "remission"]);
    expect(header!.slice(FIXED, FIXED + 2)).toEqual(["1. Pick one", "1. Pick one [score]"]);
    const quoted = rows.find((row) => row[1] === names.quoted)!;
    expect(quoted, "the name with quotes, a comma and a semicolon comes back whole").toBeDefined();
    expect(quoted[2]).toBe("student");
    expect(quoted[4]).toBe((await as("GET", `/api/forms/${form.id}`)).body.title);
    expect(quoted.slice(8, 12)).toEqual(["9.5", "9.5", "100", "High"]);
    expect(quoted.slice(FIXED)).toEqual(["A", "3", "two; one and a half", "3.5", "3", "3", essay, "0"]);
    expect(quoted[3]).toMatch(/^Class 4B/);
    // A cell a spreadsheet would run as a formula is kept as text.
    expect(rows.find((row) => row[1] === `'${names.formula}`)).toBeDefined();

    const semicolons = await download({ formId: form.id, format: "csv", delimiter: "semicolon" });
    const parsed = csvRows(semicolons.bytes, ";");
    expect(parsed.find((row) => row[1] === names.quoted)?.[FIXED + 6]).toBe(essay);

    const xlsx = await download({ formId: form.id, format: "xlsx" });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    let found = false;
    sheet.eachRow((row) => {
      if (row.getCell(2).value !== names.quoted) return;
      found = true;
      expect(row.getCell(9).value).toBe(9.5);
      // XML reads a CR LF as LF: the lines come back, as lines.
      expect(row.getCell(FIXED + 7).value).toBe(essay.replaceAll("\r\n", "\n"));
      expect(row.getCell(8).value).toBeInstanceOf(Date);
    });
    expect(found).toBe(true);
  });

  it("given another teacher, should export none of these results; another organization's group is 404; a bad format 400", async () => {
    const mine = new Set(await listedIds({}));
    const other = await api("GET", "/api/reports/export?format=csv", { as: "teacher2@demo.test" });
    expect(other.status).toBe(200);
    const theirs = parse(other.text, { bom: true }) as string[][];
    expect(theirs.slice(1).filter((row) => mine.has(row[0]!))).toEqual([]);

    const foreign = await api("GET", `/api/reports/export?format=csv&groupId=${groupId}`, { as: "teacher@other.test" });
    expect(foreign.status).toBe(404);
    const bad = await as("GET", "/api/reports/export?format=pdf");
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.path).toBe("format");
  });
});

describe("the cells of every export, as docs/api-contract.md §23 writes them", () => {
  // An organization of its own in São Paulo (UTC−3 all year since 2019), whose administrator
  // exports everything it holds: only these results.
  const ZONE = "America/Sao_Paulo";
  let admin: CreatedUser;
  let ownForm: typeof form & { title: string };
  const u = unique("c");
  // `guard` marks what must come back with the apostrophe: a leading =, +, -, @, tab or CR, or one
  // right after either list separator (such a field is quoted too). The rest comes back as typed.
  type Text = { text: string; guard?: "start" | "after a separator" };
  const names: Text[] = [
    { text: `Zoë "Zo" Ørsted, Jr.; ${u}` },
    { text: `=HYPERLINK("http://x.test","y") ${u}`, guard: "start" },
    { text: `+55 11 ${u}`, guard: "start" },
    { text: `-Ana ${u}`, guard: "start" },
    { text: `@Ana ${u}`, guard: "start" },
    { text: `Tom;=4+4 ${u}`, guard: "after a separator" },
    { text: `Tom,@home ${u}`, guard: "after a separator" },
    { text: `Ana;-1, Bia ${u}`, guard: "after a separator" },
    { text: `Ana - Bia; Cy, Di ${u}` },
    // The API refuses a line break in a name; a row written before that check, or by another
    // program, may hold one, and the file must still hold it (written to the database below).
    { text: `Line\nfeed ${u}` },
    { text: `Carriage\rreturn ${u}` },
    { text: `Both\r\nbreaks ${u}` },
    { text: `Plain ${u}` },
  ];
  const answers: Text[] = [
    { text: "line one\nline two" },
    { text: "line one\rline two" },
    { text: "line one\r\nline two\r\n" },
    { text: "=1+2", guard: "start" },
    { text: "+1", guard: "start" },
    { text: "-2+3", guard: "start" },
    { text: "@SUM(A1)", guard: "start" },
    { text: "\tindented", guard: "start" },
    { text: "\rstarts with a carriage return", guard: "start" },
    { text: "Tom;=4+4", guard: "after a separator" },
    { text: "Tom,=4+4", guard: "after a separator" },
    { text: 'a;+1,-2;@SUM(A1),\tx;\ry and "quotes"', guard: "after a separator" },
    { text: 'He said "yes", then; "no" - fine' },
  ];
  const question = 'Say something;=or not, "please"\nthanks';
  const groupName = `=Class;+4B, "${u}"`;
  // Completed 7 hours apart from 2026-11-29T05:53:00Z (02:53 in São Paulo) back, so that some fall
  // on another day there than in UTC; each assigned a day and a half before.
  const completedAt = (i: number) => new Date(Date.parse("2026-11-29T05:53:00Z") - i * 7 * 3_600_000);
  const assignedAt = (i: number) => new Date(completedAt(i).getTime() - 36 * 3_600_000);
  const saoPaulo = (instant: Date) => `${new Date(instant.getTime() - 3 * 3_600_000).toISOString().slice(0, 19)}-03:00`;
  const ids: string[] = [];

  const as = (method: string, path: string, json?: unknown) => api(method, path, { cookie: admin.cookie, ...(json === undefined ? {} : { json }) });
  const exportOf = async (params: Record<string, string>) => {
    const response = await fetch(`${baseUrl()}/api/reports/export?${query({ formId: ownForm.id, ...params })}`, { headers: { cookie: admin.cookie } });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };
  const cellOf = (expected: Text) => (expected.guard ? `'${expected.text}` : expected.text);

  beforeAll(async () => {
    const organization = await testDatabase().organization.create({ data: { name: unique("Escola Aurora") } });
    admin = await createSignedInUser("ADMIN", { as: "superadmin@demo.test", organizationId: organization.id });
    const zone = await as("PUT", "/api/organization", { timeZone: ZONE });
    expect(zone.status, zone.text).toBe(200);
    const body = mixedForm(`@Form, "quoted"; ${u}`);
    body.questions[3]!.text = question;
    ownForm = (await as("POST", "/api/forms", body)).body;
    const group = (await as("POST", "/api/groups", { name: groupName })).body;
    for (const [i, name] of names.entries()) {
      const typed = name.text.includes("\r") || name.text.includes("\n") ? `Typed ${i} ${u}` : name.text;
      const student = await as("POST", "/api/students", { name: typed });
      expect(student.status, student.text).toBe(201);
      if (typed !== name.text) await testDatabase().student.update({ where: { id: student.body.id }, data: { name: name.text } });
      if (i < 2) expect((await as("POST", `/api/groups/${group.id}/members`, { studentIds: [student.body.id] })).status).toBe(200);
      const link = await as("POST", "/api/submissions", { formId: ownForm.id, studentId: student.body.id });
      const [q1, q2, q3, q4] = ownForm.questions;
      // Even rows: 3 + 1.5 + 0 = 4.5 of 9.5 (47.37 %); odd rows: -2 + 1.5 + 0 = -0.5.
      const submitted = await api("POST", `/api/test-link/${link.body.token}/submit`, {
        json: {
          answers: [
            { questionId: q1!.id, optionIds: [q1!.options[i % 2]!.id] },
            { questionId: q2!.id, optionIds: [q2!.options[2]!.id] },
            { questionId: q3!.id, optionIds: [q3!.options[0]!.id] },
            { questionId: q4!.id, text: answers[i % answers.length]!.text },
          ],
        },
      });
      expect(submitted.status, submitted.text).toBe(200);
      // No client can choose when a result was completed: the instants are written to the database.
      await testDatabase().submission.update({ where: { id: link.body.id }, data: { completedAt: completedAt(i), createdAt: assignedAt(i) } });
      ids.push(link.body.id);
    }
  });

  it.each([
    ["comma", ","],
    ["semicolon", ";"],
  ] as const)("given the %s CSV, should parse back to one row per result with every text as typed, guarded and quoted", async (delimiter, separator) => {
    const bytes = await exportOf({ format: "csv", delimiter });
    // A strict parser (every row as long as the header) reads one row per result, line breaks and all.
    const [header, ...rows] = csvRows(bytes, separator);
    expect(header).toHaveLength(FIXED + 4 * 2);
    expect(header![FIXED + 6]).toBe(`'4. ${question}`);
    expect(header![FIXED + 7]).toBe(`'4. ${question} [score]`);
    expect(rows.map((row) => row[0])).toEqual(ids);
    for (const [i, row] of rows.entries()) {
      expect(row[1], JSON.stringify(names[i]!.text)).toBe(cellOf(names[i]!));
      expect(row[FIXED + 6], JSON.stringify(answers[i % answers.length]!.text)).toBe(cellOf(answers[i % answers.length]!));
      expect(row[3]).toBe(i < 2 ? `'${groupName}` : "");
      expect(row[4]).toBe(`'${ownForm.title}`);
      expect(row[6]).toBe(saoPaulo(assignedAt(i)));
      expect(row[7]).toBe(saoPaulo(completedAt(i)));
    }
    expect(rows[0]![7]).toBe("2026-11-29T02:53:00-03:00");
    // 28 hours earlier, 2026-11-28T01:53:00Z, is still the 27th in São Paulo.
    expect(rows[4]![7]).toBe("2026-11-27T22:53:00-03:00");
    expect(rows[0]![6]).toBe("2026-11-27T14:53:00-03:00");

    // Every field holding the file's separator, a quote, CR or LF is quoted, and so is one holding
    // a formula after the other separator: a spreadsheet that splits on that one still reads one cell.
    const text = bytes.toString("utf8");
    const quoted = (cell: string) => `${separator}"${cell.replaceAll('"', '""')}"${separator}`;
    for (const answer of answers) {
      const cell = cellOf(answer);
      const mustQuote = /["\r\n]/.test(cell) || cell.includes(separator) || answer.guard === "after a separator";
      expect(text.includes(quoted(cell)), JSON.stringify(answer.text)).toBe(mustQuote);
      if (!mustQuote) expect(text, JSON.stringify(answer.text)).toContain(`${separator}${cell}${separator}`);
    }
    expect(text).toContain(quoted("'Tom;=4+4"));
    expect(text).toContain(quoted("'Tom,=4+4"));
    expect(text).toContain(`${separator}'-2+3${separator}`);
  });

  it("given the semicolon CSV, should write decimal commas, and the comma CSV decimal points; negative numbers stay numbers", async () => {
    const listed = new Map<string, { totalScore: number; percentage: number }>(
      (await as("GET", `/api/reports?${query({ formId: ownForm.id, limit: "100" })}`)).body.reports.map(
        (report: { id: string; totalScore: number; percentage: number }) => [report.id, report],
      ),
    );
    expect(listed.get(ids[0]!)).toMatchObject({ totalScore: 4.5, percentage: 47.37 });
    expect(listed.get(ids[1]!)).toMatchObject({ totalScore: -0.5, percentage: -5.26 });

    const semicolon = await exportOf({ format: "csv", delimiter: "semicolon" });
    const [, first, second] = csvRows(semicolon, ";");
    expect(first!.slice(8, 12)).toEqual(["4,5", "9,5", "47,37", "Medium"]);
    expect(first!.slice(FIXED, FIXED + 6)).toEqual(["A", "3", "one and a half", "1,5", "0", "0"]);
    expect(second!.slice(8, 12)).toEqual(["-0,5", "9,5", "-5,26", "Low"]);
    expect(second!.slice(FIXED, FIXED + 2)).toEqual(["B", "-2"]);
    // Bare numbers: neither quoted (a spreadsheet reads them as numbers) nor guarded. Each result is
    // its respondent's first, a baseline: its change cells are empty.
    const text = semicolon.toString("utf8");
    expect(text).toContain(";4,5;9,5;47,37;Medium;;;;;;A;3;one and a half;1,5;0;0;");
    expect(text).toContain(";-0,5;9,5;-5,26;Low;;;;;;B;-2;");

    const comma = await exportOf({ format: "csv", delimiter: "comma" });
    const [, firstComma, secondComma] = csvRows(comma, ",");
    expect(firstComma!.slice(8, 12)).toEqual(["4.5", "9.5", "47.37", "Medium"]);
    expect(secondComma!.slice(8, 12)).toEqual(["-0.5", "9.5", "-5.26", "Low"]);
    expect(comma.toString("utf8")).toContain(",-0.5,9.5,-5.26,Low,,,,,,B,-2,");
  });

  it("given the XLSX, should hold the organization's local times in date cells under headers that name the zone, and every text as typed", async () => {
    const bytes = await exportOf({ format: "xlsx" });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = sheet.getRow(1).values as unknown[];
    expect(header.slice(7, 9)).toEqual([`assignedAt (${ZONE})`, `completedAt (${ZONE})`]);
    expect(header[1]).toBe("submissionId");
    expect(header[FIXED + 7]).toBe(`4. ${question}`);
    // XML reads every CR LF and lone CR as LF: the lines come back, as lines.
    const asXml = (text: string) => text.replace(/\r\n?/g, "\n");
    const seen: string[] = [];
    sheet.eachRow((row, number) => {
      if (number === 1) return;
      const i = ids.indexOf(String(row.getCell(1).value));
      seen.push(ids[i]!);
      const [assigned, completed] = [row.getCell(7).value, row.getCell(8).value];
      expect(assigned).toBeInstanceOf(Date);
      expect(completed).toBeInstanceOf(Date);
      // A date cell has no zone: it reads the wall clock in São Paulo.
      expect((completed as Date).toISOString()).toBe(`${saoPaulo(completedAt(i)).slice(0, 19)}.000Z`);
      expect((assigned as Date).toISOString()).toBe(`${saoPaulo(assignedAt(i)).slice(0, 19)}.000Z`);
      expect(row.getCell(2).value).toBe(asXml(names[i]!.text));
      expect(row.getCell(FIXED + 7).value).toBe(asXml(answers[i % answers.length]!.text));
      expect(row.getCell(9).value).toBe(i % 2 === 0 ? 4.5 : -0.5);
    });
    expect(seen).toEqual(ids);
    expect(sheet.getRow(2).getCell(8).value).toEqual(new Date("2026-11-29T02:53:00.000Z"));
  });
});

describe("an export of one form's answers (its questions are the header)", () => {
  it("given another teacher's private form, should answer as reading that form would (404), without its questions", async () => {
    const other = await createSignedInUser("TEACHER");
    const secret = unique("Private question");
    const body = mixedForm(unique("Private form"));
    body.questions[0]!.text = secret;
    const privateForm = (await api("POST", "/api/forms", { cookie: other.cookie, json: body })).body;

    const read = await as("GET", `/api/forms/${privateForm.id}`);
    expect(read.status).toBe(404);
    for (const format of ["csv", "xlsx"]) {
      const exported = await as("GET", `/api/reports/export?${query({ format, formId: privateForm.id })}`);
      expect(exported.status, format).toBe(read.status);
      expect(exported.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(exported.body).toEqual(read.body);
      expect(exported.text).not.toContain(secret);
    }
    // Another organization's administrator reads it no more than the export does.
    const foreignRead = await api("GET", `/api/forms/${privateForm.id}`, { as: "admin@other.test" });
    const foreignExport = await api("GET", `/api/reports/export?${query({ format: "csv", formId: privateForm.id })}`, { as: "admin@other.test" });
    expect([foreignRead.status, foreignExport.status]).toEqual([404, 404]);
    expect(foreignExport.body).toEqual(foreignRead.body);

    // Those who may read it get its questions: its teacher, and their organization's administrator.
    for (const caller of [{ cookie: other.cookie }, { as: "admin@demo.test" as const }]) {
      const response = await api("GET", `/api/reports/export?${query({ format: "csv", formId: privateForm.id })}`, caller);
      expect(response.status).toBe(200);
      expect(csvRows(Buffer.from(response.text))[0]![FIXED]).toBe(`1. ${secret}`);
    }
  });

  it("given the form of the caller's own results, since deleted, should still give its questions' columns", async () => {
    const owner = await createSignedInUser("TEACHER");
    const post = (path: string, json: unknown) => api("POST", path, { cookie: owner.cookie, json });
    const gone = (await post("/api/forms", mixedForm(unique("Deleted form")))).body;
    const student = (await post("/api/students", { name: unique("Pupil") })).body;
    const link = (await post("/api/submissions", { formId: gone.id, studentId: student.id })).body;
    const [q1, , q3] = gone.questions;
    const answers = [
      { questionId: q1.id, optionIds: [q1.options[0].id] },
      { questionId: q3.id, optionIds: [q3.options[0].id] },
    ];
    expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers } })).status).toBe(200);
    expect((await api("DELETE", `/api/forms/${gone.id}`, { cookie: owner.cookie })).status).toBe(200);
    expect((await api("GET", `/api/forms/${gone.id}`, { cookie: owner.cookie })).status).toBe(404);

    const response = await api("GET", `/api/reports/export?${query({ format: "csv", formId: gone.id })}`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    const [header, ...rows] = csvRows(Buffer.from(response.text));
    expect(header![FIXED]).toBe("1. Pick one");
    expect(rows.map((row) => row[0])).toEqual([link.id]);
  });
});

describe("an export longer than one batch", () => {
  it("given more results completed at the same instant than a batch holds, should give each exactly once, newest first and by id", async () => {
    // Its own teacher and form: no other file's result can fall between these.
    const owner = await createSignedInUser("TEACHER");
    const post = (path: string, json: unknown) => api("POST", path, { cookie: owner.cookie, json });
    const ownForm = (await post("/api/forms", mixedForm(unique("Batch check")))).body;
    const student = (await post("/api/students", { name: unique("Batch pupil") })).body;
    const profile = (await api("GET", "/api/user/profile", { cookie: owner.cookie })).body;
    // 1,005 results at one instant and 3 a minute earlier: the batch boundary (1,000) falls among
    // equal completedAt, where the keyset goes on by id (written straight to the database, as no
    // client can give two results the same instant).
    const instant = new Date("2026-03-02T10:00:00.000Z");
    const earlier = new Date(instant.getTime() - 60_000);
    const rows = Array.from({ length: 1008 }, (_, i) => ({
      id: `batch${unique("x").replace(/\W/g, "")}${String(i).padStart(4, "0")}`,
      organizationId: profile.organization.id as string,
      formId: ownForm.id as string,
      studentId: student.id as string,
      assignedById: owner.id,
      token: `${unique("batch-token")}-${i}-${"x".repeat(24)}`,
      isCompleted: true,
      completedAt: i < 1005 ? instant : earlier,
      totalScore: 1,
      maxScore: 9.5,
      percentage: 10.53,
      formTitle: ownForm.title as string,
      searchText: "batch pupil",
    }));
    await testDatabase().submission.createMany({ data: rows });
    const response = await fetch(`${baseUrl()}/api/reports/export?${query({ format: "csv", formId: ownForm.id })}`, { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    const ids = csvRows(Buffer.from(await response.arrayBuffer()))
      .slice(1)
      .map((row) => row[0]);
    const byIdDesc = (list: typeof rows) => list.map((row) => row.id).sort((a, b) => (a < b ? 1 : -1));
    expect(ids).toEqual([...byIdDesc(rows.slice(0, 1005)), ...byIdDesc(rows.slice(1005))]);
  });
});

describe("exports in worker threads (ADR 34)", () => {
  let instance: Instance;
  let bearer: string;
  afterAll(async () => {
    await instance?.stop();
  });

  it("given one export worker, should queue concurrent exports and give each the whole file, and free the worker when a client goes away", async () => {
    // An instance of its own with a single export worker: every export but one waits in line.
    instance = await startInstance({ env: { EXPORT_WORKERS: "1" } });
    bearer = `Bearer ${(await as("POST", "/api/user/tokens", { name: unique("export workers") })).body.token}`;
    const exportOf = (signal?: AbortSignal) =>
      fetch(`${instance.baseUrl}/api/reports/export?${query({ format: "csv", formId: form.id })}`, { headers: { authorization: bearer }, signal });
    const expected = (await download({ format: "csv", formId: form.id })).bytes;
    expect(csvRows(expected).length).toBe(4);

    // Five at once: one runs, four wait (the line holds eight per worker), and all end whole.
    const answers = await Promise.all(Array.from({ length: 5 }, () => exportOf()));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(Buffer.from(await answer.arrayBuffer()).equals(expected)).toBe(true);
    }

    // A client that goes away after the first bytes: the worker is free for the next export
    // (with the only worker held, this one would wait for ever).
    const abort = new AbortController();
    const abandoned = await exportOf(abort.signal);
    expect(abandoned.status).toBe(200);
    await abandoned.body!.getReader().read();
    abort.abort();
    const after = await exportOf();
    expect(after.status).toBe(200);
    expect(Buffer.from(await after.arrayBuffer()).equals(expected)).toBe(true);
    expect(instance.output()).not.toMatch(/Unhandled|Uncaught/);
  });
});
