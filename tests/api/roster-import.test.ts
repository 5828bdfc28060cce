import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";

/** Importing a class list from CSV over real HTTP (contract §11). */
function upload(path: string, csv: string, as: "teacher@demo.test" | "student@demo.test" = "teacher@demo.test") {
  const body = new FormData();
  body.set("file", new File([csv], "class.csv", { type: "text/csv" }));
  return api("POST", path, { as, body });
}

const BOM = "\uFEFF";

describe("roster import", () => {
  it.each([
    ["semicolons and a BOM, as Excel writes them in comma-decimal locales", ";", BOM],
    ["commas, without a BOM", ",", ""],
  ])("given 5,000 rows with accents separated by %s, should preview them all, then import them and their group in one go", async (_, separator, bom) => {
    const tag = unique("imp").replaceAll("-", "");
    const group = `6ºA ${tag}`;
    const lines = [["name", "email", "age", "grade", "group"].join(separator)];
    for (let i = 0; i < 5000; i++) lines.push([`"Émilie Þórsdóttir ${tag} ${i}"`, `e${i}.${tag}@school.test`, 10 + (i % 5), "6A", group].join(separator));
    const csv = bom + lines.join("\r\n");

    const preview = await upload("/api/students/import?dryRun=true", csv);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ rows: 5000, valid: 5000, errors: [] });
    expect((await api("GET", `/api/students?search=${tag}`, { as: "teacher@demo.test" })).body.total).toBe(0);

    const imported = await upload("/api/students/import", csv);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).toBe(201);
    expect(imported.body).toEqual({ created: 5000, groupsCreated: 1 });
    const found = await api("GET", `/api/students?search=${encodeURIComponent(`emilie thorsdottir ${tag} 4999`)}`, { as: "teacher@demo.test" });
    expect(found.body.students).toEqual([
      expect.objectContaining({ name: `Émilie Þórsdóttir ${tag} 4999`, email: `e4999.${tag}@school.test`, age: 14, grade: "6A" }),
    ]);
    const groups = await api("GET", `/api/groups?search=${tag}`, { as: "teacher@demo.test" });
    expect(groups.body.groups).toEqual([expect.objectContaining({ name: group, _count: { members: 5000 } })]);
  });

  it("given a comma-separated file with bad rows, should list every problem by row and column in the dry run, and import nothing", async () => {
    const tag = unique("bad").replaceAll("-", "");
    const csv = [
      "Name,Email,Age,Status",
      `Ana ${tag},ana.${tag}@school.test,11,active`,
      `"Lima, Bruno ${tag}",bruno.${tag}@school.test,200,ACTIVE`,
      `,carla.${tag}@school.test,,`,
      `Dora ${tag},ana.${tag}@school.test,,`,
      `Eli ${tag},,,EXPELLED`,
    ].join("\n");
    const preview = await upload("/api/students/import?dryRun=true", csv);
    expect(preview.status).toBe(200);
    expect(preview.body.rows).toBe(5);
    // Ana is the only row with nothing wrong (Dora's address is Ana's).
    expect(preview.body.valid).toBe(1);
    expect(preview.body.errors).toEqual([
      { row: 3, field: "age", message: "Enter an age from 0 to 150." },
      { row: 4, field: "name", message: "Enter a name." },
      { row: 5, field: "email", message: "This e-mail address is also on another row of the file." },
      { row: 6, field: "status", message: "Choose one of the options." },
    ]);
    const imported = await upload("/api/students/import", csv);
    expect(imported.status).toBe(400);
    expect(imported.body.code).toBe("VALIDATION_FAILED");
    expect(imported.body.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [3, "age"],
      [4, "name"],
      [5, "email"],
      [6, "status"],
    ]);
    expect((await api("GET", `/api/students?search=${tag}`, { as: "teacher@demo.test" })).body.total).toBe(0);
  });

  it("given a text/csv body of candidates, an e-mail already used and an unknown column, should say so", async () => {
    const tag = unique("cand").replaceAll("-", "");
    await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: "Existing", email: `taken.${tag}@school.test` } });
    const taken = await api("POST", "/api/candidates/import?dryRun=true", {
      as: "teacher@demo.test",
      headers: { "content-type": "text/csv" },
      body: `name,email\nNew ${tag},taken.${tag}@school.test\n`,
    });
    expect(taken.body.errors).toEqual([{ row: 2, field: "email", message: "Another record already uses this e-mail address." }]);
    const unknown = await upload("/api/candidates/import?dryRun=true", "name,shoe size\nAna,38\n");
    expect(unknown.body.errors).toEqual([{ row: 1, field: "shoe size", message: "This column is not one the import knows." }]);
    const ok = await upload("/api/candidates/import", `name,status\nNova ${tag},in_evaluation\n`);
    expect(ok.status).toBe(201);
    expect((await api("GET", `/api/candidates?search=${tag}`, { as: "teacher@demo.test" })).body.candidates[0]).toMatchObject({ status: "IN_EVALUATION" });
  });

  it("given no name column, no rows, a broken quote, no file or a student's login, should refuse clearly", async () => {
    expect((await upload("/api/students/import?dryRun=true", "email\na@b.test\n")).body.errors).toEqual([
      { row: 1, field: "name", message: "The file needs a “name” column." },
    ]);
    expect((await upload("/api/students/import?dryRun=true", "name\n")).body.errors).toEqual([
      { row: 1, field: "file", message: "The file has no rows under its header." },
    ]);
    const broken = await upload("/api/students/import?dryRun=true", 'name\n"Ana\nBruno\n');
    expect(broken.body.errors[0]).toMatchObject({ field: "file", message: "This row could not be read: check its quotes." });
    const noFile = await api("POST", "/api/students/import", { as: "teacher@demo.test", body: new FormData() });
    expect(noFile.status).toBe(400);
    expect((await api("POST", "/api/students/import", { as: "teacher@demo.test", json: {} })).status).toBe(415);
    expect((await upload("/api/students/import", "name\nAna\n", "student@demo.test")).status).toBe(403);
  });

  it("given more than 5,000 rows, should refuse the file", async () => {
    const csv = ["name", ...Array.from({ length: 5001 }, (_, i) => `P${i}`)].join("\n");
    const response = await upload("/api/students/import?dryRun=true", csv);
    expect(response.body.errors).toEqual([{ row: 1, field: "file", message: "A file holds at most 5,000 rows." }]);
  });

  it("given what the dry run reads, should agree with a standard CSV parser on quotes, commas and new lines", () => {
    const csv = 'name,grade\n"Lima, Ana","6""B"\n"Multi\nline",7\n';
    expect(parse(csv, { columns: true })).toEqual([
      { name: "Lima, Ana", grade: '6"B' },
      { name: "Multi\nline", grade: "7" },
    ]);
  });
});
