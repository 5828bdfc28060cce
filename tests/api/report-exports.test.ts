import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, type CreatedUser } from "../support/fixtures.ts";
import { type Instance, startInstance } from "../support/instance.ts";

/**
 * GET /api/reports/export (contract §13) over real HTTP: the CSV and the XLSX hold exactly the rows
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
    expect(header).toHaveLength(12 + 4 * 2);
    expect(header!.slice(12, 14)).toEqual(["1. Pick one", "1. Pick one [score]"]);
    const quoted = rows.find((row) => row[1] === names.quoted)!;
    expect(quoted, "the name with quotes, a comma and a semicolon comes back whole").toBeDefined();
    expect(quoted[2]).toBe("student");
    expect(quoted[4]).toBe((await as("GET", `/api/forms/${form.id}`)).body.title);
    expect(quoted.slice(8, 12)).toEqual(["9.5", "9.5", "100", "High"]);
    expect(quoted.slice(12)).toEqual(["A", "3", "two; one and a half", "3.5", "3", "3", essay, "0"]);
    expect(quoted[3]).toMatch(/^Class 4B/);
    // A cell a spreadsheet would run as a formula is kept as text.
    expect(rows.find((row) => row[1] === `'${names.formula}`)).toBeDefined();

    const semicolons = await download({ formId: form.id, format: "csv", delimiter: "semicolon" });
    const parsed = csvRows(semicolons.bytes, ";");
    expect(parsed.find((row) => row[1] === names.quoted)?.[18]).toBe(essay);

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
      expect(row.getCell(19).value).toBe(essay.replaceAll("\r\n", "\n"));
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

describe("cells a spreadsheet would misread (contract §23)", () => {
  // Answers a respondent may type: a formula after either list separator, at the start, and a
  // text over several lines with a lone LF or CR (no CR LF, which the CSV's own line end would quote).
  const typed = {
    semicolonFormula: "Tom;=4+4",
    commaFormula: "Tom,=4+4",
    afterSeparator: "a;+1,-2;@SUM(A1),\tx;\ry",
    leading: "-2+3",
    lineFeed: "line one\nline two",
    carriageReturn: "line one\rline two",
    harmless: "Fine; thanks, - really",
  };
  const guarded = (text: string) => (/^[=+\-@\t\r]|[,;][=+\-@\t\r]/.test(text) ? `'${text}` : text);
  const ids: Record<string, string> = {};
  let formulaForm: typeof form;

  beforeAll(async () => {
    formulaForm = (await as("POST", "/api/forms", mixedForm(unique("Formula check")))).body;
    for (const [key, text] of Object.entries(typed)) {
      const student = (await as("POST", "/api/students", { name: unique(`Respondent ${key}`) })).body.id;
      const [q1, , q3, q4] = formulaForm.questions;
      const link = await as("POST", "/api/submissions", { formId: formulaForm.id, studentId: student });
      const submitted = await api("POST", `/api/test-link/${link.body.token}/submit`, {
        json: {
          answers: [
            { questionId: q1!.id, optionIds: [q1!.options[0]!.id] },
            { questionId: q3!.id, optionIds: [q3!.options[0]!.id] },
            { questionId: q4!.id, text },
          ],
        },
      });
      expect(submitted.status, submitted.text).toBe(200);
      ids[key] = link.body.id;
    }
  });

  it.each([
    ["comma", ","],
    ["semicolon", ";"],
  ] as const)(
    "given the %s CSV, should parse back to one row per result and prefix every formula, after either separator too",
    async (delimiter, separator) => {
      const { response, bytes } = await download({ formId: formulaForm.id, format: "csv", delimiter });
      expect(response.status).toBe(200);
      // A strict parser (every row as long as the header) reads one row per result, lines and all.
      const [header, ...rows] = csvRows(bytes, separator);
      expect(header).toHaveLength(12 + 4 * 2);
      expect(rows).toHaveLength(Object.keys(typed).length);
      for (const [key, text] of Object.entries(typed)) {
        const row = rows.find((cells) => cells[0] === ids[key]);
        expect(row, key).toBeDefined();
        expect(row![18], key).toBe(guarded(text));
      }
      expect(guarded(typed.semicolonFormula)).toBe("'Tom;=4+4");
      expect(guarded(typed.harmless)).toBe(typed.harmless);
      // Every field holding a list separator, a quote, CR or LF is quoted, whichever the separator:
      // a spreadsheet that splits on the other one still reads one cell.
      const text = bytes.toString("utf8");
      for (const key of ["semicolonFormula", "commaFormula", "afterSeparator", "lineFeed", "carriageReturn", "harmless"] as const) {
        expect(text, key).toContain(`${separator}"${guarded(typed[key])}"${separator}`);
      }
      expect(text).toContain(`${separator}'-2+3${separator}`);
    },
  );

  it("given the XLSX, should keep what was typed as text cells, never formulas", async () => {
    const { bytes } = await download({ formId: formulaForm.id, format: "xlsx" });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const answers = new Map<string, unknown>();
    workbook.worksheets[0]!.eachRow((row, number) => {
      if (number > 1) answers.set(String(row.getCell(1).value), row.getCell(19).value);
    });
    expect(answers.get(ids.semicolonFormula!)).toBe(typed.semicolonFormula);
    expect(answers.get(ids.leading!)).toBe(typed.leading);
    expect(answers.get(ids.lineFeed!)).toBe(typed.lineFeed);
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
      expect(csvRows(Buffer.from(response.text))[0]![12]).toBe(`1. ${secret}`);
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
    expect(header![12]).toBe("1. Pick one");
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
