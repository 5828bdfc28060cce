import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, expectProblem } from "../support/fixtures.ts";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";

/** Importing a class list from CSV over real HTTP (docs/api-contract.md §11), and keeping it in step with another system (§23). */
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
    expect(preview.body).toEqual({ rows: 5000, valid: 5000, errors: [], encoding: "utf-8" });
    expect((await api("GET", `/api/students?search=${tag}`, { as: "teacher@demo.test" })).body.total).toBe(0);

    const imported = await upload("/api/students/import", csv);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).toBe(201);
    expect(imported.body).toEqual({ created: 5000, groupsCreated: 1, encoding: "utf-8" });
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

/** A new organization and its administrator, signed in: its people and webhooks are this test's alone. */
async function newOrganization(label: string) {
  const organization = await testDatabase().organization.create({ data: { name: unique(label) } });
  const admin = await createSignedInUser("ADMIN", { as: "superadmin@demo.test", organizationId: organization.id });
  return { organizationId: organization.id, cookie: admin.cookie };
}

/** A CSV file posted as the multipart field `file` by the holder of `cookie`. */
function send(cookie: string, path: string, csv: string | Uint8Array<ArrayBuffer>) {
  const body = new FormData();
  body.set("file", new File([csv], "roster.csv", { type: "text/csv" }));
  return api("POST", path, { cookie, body });
}

/** Windows-1252 bytes of `text` (what Excel on Windows saves as "CSV"): Latin-1, with the typographic marks it places at 0x80–0x9F. */
function windows1252(text: string): Uint8Array<ArrayBuffer> {
  const extra: Record<string, number> = {
    "€": 0x80,
    "‚": 0x82,
    "„": 0x84,
    "…": 0x85,
    "‘": 0x91,
    "’": 0x92,
    "“": 0x93,
    "”": 0x94,
    "–": 0x96,
    "—": 0x97,
    œ: 0x9c,
  };
  return Uint8Array.from([...text].map((char) => extra[char] ?? (char.charCodeAt(0) <= 0xff ? char.charCodeAt(0) : 0x3f)));
}

type RosterEvent = { type: string; data: { id: string; name: string; externalId: string | null } };

/** The shared loopback receiver, read as the events it was sent. */
async function startReceiver() {
  const receiver = await startWebhookReceiver();
  return {
    url: receiver.url,
    close: receiver.close,
    get received(): RosterEvent[] {
      return receiver.received.map((delivery) => JSON.parse(delivery.body) as RosterEvent);
    },
  };
}

type RowAction = { row: number; id?: string; action: "created" | "updated" | "unchanged" };

describe("roster sync (docs/api-contract.md §23)", () => {
  it("given a nightly sync of 500 people, then 20 of them changed, 5 gone and 5 new, should update 20, create 5, leave 475 alone and tell the webhook exactly that", async () => {
    const org = await newOrganization("Nightly");
    const receiver = await startReceiver();
    try {
      const header = "externalId,name,email,grade,group";
      const person = (i: number, grade = `${1 + (i % 6)}º`) => `S-${1000 + i},Aluno ${i},aluno${i}@nightly.test,${grade},Turma ${i % 4}`;
      const first = [header, ...Array.from({ length: 500 }, (_, i) => person(i))].join("\n");
      const initial = await send(org.cookie, "/api/students/import?mode=upsert", first);
      expect(initial.status, initial.text.slice(0, 500)).toBe(201);
      expect(initial.body).toMatchObject({ created: 500, updated: 0, unchanged: 0, groupsCreated: 4, encoding: "utf-8" });
      expect(initial.body.rows).toHaveLength(500);
      expect(initial.body.rows[0]).toEqual({ row: 2, id: expect.any(String), action: "created" });

      const hook = await api("POST", "/api/webhooks", { cookie: org.cookie, json: { url: receiver.url, events: ["student.created", "student.updated"] } });
      expect(hook.status, hook.text).toBe(201);

      // The next night's file: 10 moved up a grade, 10 have a new address, 5 have left and 5 have joined.
      const lines = Array.from({ length: 495 }, (_, i) => (i < 10 ? person(i, "7º") : i < 20 ? person(i).replace(`aluno${i}@`, `aluno${i}.novo@`) : person(i)));
      for (let i = 500; i < 505; i++) lines.push(person(i));
      const second = [header, ...lines].join("\n");

      const dryRun = await send(org.cookie, "/api/students/import?mode=upsert&dryRun=true", second);
      expect(dryRun.status, dryRun.text.slice(0, 500)).toBe(200);
      expect(dryRun.body).toMatchObject({ created: 5, updated: 20, unchanged: 475, groupsCreated: 0, valid: 500, errors: [], encoding: "utf-8" });
      const planned = dryRun.body.rows as RowAction[];
      expect(planned.filter((row) => row.action === "created")).toEqual([497, 498, 499, 500, 501].map((row) => ({ row, action: "created" })));
      expect(planned.filter((row) => row.action === "updated").map((row) => row.row)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
      expect(planned.every((row) => row.action === "created" || row.id === initial.body.rows[row.row - 2].id)).toBe(true);
      // A dry run writes nothing and tells nobody.
      expect((await api("GET", "/api/students?limit=1", { cookie: org.cookie })).body.total).toBe(500);

      const synced = await send(org.cookie, "/api/students/import?mode=upsert", second);
      expect(synced.status, synced.text.slice(0, 500)).toBe(201);
      expect(synced.body).toMatchObject({ created: 5, updated: 20, unchanged: 475, groupsCreated: 0, encoding: "utf-8" });
      const rows = synced.body.rows as Required<RowAction>[];
      expect(rows.filter((row) => row.action !== "created").map((row) => row.id)).toEqual(initial.body.rows.slice(0, 495).map((row: RowAction) => row.id));
      const createdIds = rows.filter((row) => row.action === "created").map((row) => row.id);
      const updatedIds = rows.filter((row) => row.action === "updated").map((row) => row.id);

      const moved = await api("GET", `/api/students/${rows[0]!.id}`, { cookie: org.cookie });
      expect(moved.body).toMatchObject({ externalId: "S-1000", name: "Aluno 0", email: "aluno0@nightly.test", grade: "7º" });
      const readdressed = await api("GET", `/api/students/${rows[15]!.id}`, { cookie: org.cookie });
      expect(readdressed.body).toMatchObject({ externalId: "S-1015", email: "aluno15.novo@nightly.test", grade: "4º" });
      const list = await api("GET", "/api/students?search=aluno%20504", { cookie: org.cookie });
      expect(list.body.students).toEqual([expect.objectContaining({ id: createdIds[4], externalId: "S-1504", email: "aluno504@nightly.test" })]);
      // Those who left are not in the file, and stay (an upsert never deletes).
      expect((await api("GET", "/api/students?limit=1", { cookie: org.cookie })).body.total).toBe(505);

      // One delivery per person created or changed: 5 student.created and 20 student.updated, each once.
      await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(25);
      const about = (type: string) =>
        receiver.received
          .filter((event) => event.type === type)
          .map((event) => event.data.id)
          .sort();
      expect(about("student.created")).toEqual([...createdIds].sort());
      expect(about("student.updated")).toEqual([...updatedIds].sort());
      expect(receiver.received.find((event) => event.data.id === rows[0]!.id)?.data).toMatchObject({ name: "Aluno 0", externalId: "S-1000" });
      expect(await testDatabase().webhookDelivery.count({ where: { webhookId: hook.body.id } })).toBe(25);

      // The same file again changes nothing and tells nobody.
      const again = await send(org.cookie, "/api/students/import?mode=upsert", second);
      expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 500, groupsCreated: 0 });
      expect(await testDatabase().webhookDelivery.count({ where: { webhookId: hook.body.id } })).toBe(25);
    } finally {
      await receiver.close();
    }
  });

  it("given a Windows-1252 roster with accents, should read it as such, say so, and store the names as written", async () => {
    const org = await newOrganization("Latin");
    const csv = "nome;e-mail;matrícula;série\r\nVinícius Araújo;vinicius@latin.test;M-1;5º\r\nJoana D’Ávila Conceição;joana@latin.test;M-2;6º\r\n";
    const bytes = windows1252(csv);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow();

    const preview = await send(org.cookie, "/api/students/import?dryRun=true", bytes);
    expect(preview.body).toEqual({ rows: 2, valid: 2, errors: [], encoding: "windows-1252" });
    const imported = await send(org.cookie, "/api/students/import", bytes);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body).toEqual({ created: 2, groupsCreated: 0, encoding: "windows-1252" });
    const students = (await api("GET", "/api/students", { cookie: org.cookie })).body.students as { name: string; externalId: string; grade: string }[];
    expect(students.map(({ name, externalId, grade }) => ({ name, externalId, grade })).sort((a, b) => a.externalId.localeCompare(b.externalId))).toEqual([
      { name: "Vinícius Araújo", externalId: "M-1", grade: "5º" },
      { name: "Joana D’Ávila Conceição", externalId: "M-2", grade: "6º" },
    ]);
    // The same names in UTF-8 with a byte order mark: read as UTF-8, and matched as the same people.
    const utf8 = await send(org.cookie, "/api/students/import?mode=upsert", `\uFEFF${csv}`);
    expect(utf8.body).toMatchObject({ created: 0, updated: 0, unchanged: 2, encoding: "utf-8" });
  });

  it.each([
    ["Spanish", "NOMBRE;Correo Electrónico;Matricula;Edad;Curso;Género;Estado;Grupo"],
    ["Portuguese", "Nome Completo;E-MAIL;matrícula;idade;Série;Sexo;Situação;Turma"],
  ])("given %s headers in any case and with or without accents, should read every column", async (language, header) => {
    const org = await newOrganization(language);
    const csv = `${header}\nLucía Peña;lucia@${language}.test;X-7;12;6º;F;graduated;6ºB\n`;
    const imported = await send(org.cookie, "/api/students/import?mode=upsert", csv);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body).toMatchObject({ created: 1, groupsCreated: 1 });
    const [student] = (await api("GET", "/api/students", { cookie: org.cookie })).body.students;
    expect(student).toMatchObject({
      name: "Lucía Peña",
      email: `lucia@${language.toLowerCase()}.test`,
      externalId: "X-7",
      age: 12,
      grade: "6º",
      gender: "F",
      status: "GRADUATED",
    });
    const groups = (await api("GET", "/api/groups", { cookie: org.cookie })).body.groups;
    expect(groups).toEqual([expect.objectContaining({ name: "6ºB", _count: { members: 1 } })]);
  });

  it("given two columns for one field, should say which", async () => {
    const org = await newOrganization("Twice");
    const response = await send(org.cookie, "/api/students/import?dryRun=true", "name,nombre,correo\nAna,Ana,ana@twice.test\n");
    expect(response.body.errors).toEqual([{ row: 1, field: "nombre", message: "Another column of the file is the same field." }]);
  });

  it("given people already here, should refuse them in create mode as before, and match them on external id, else e-mail, in upsert mode", async () => {
    const org = await newOrganization("Modes");
    const ana = await api("POST", "/api/students", { cookie: org.cookie, json: { name: "Ana", email: "ana@modes.test", externalId: "A-1" } });
    const bea = await api("POST", "/api/students", { cookie: org.cookie, json: { name: "Bea", email: "bea@modes.test", grade: "5" } });
    expect([ana.status, bea.status]).toEqual([201, 201]);
    const csv = "externalId,name,email,grade\nA-1,Ana Lima,ana.lima@modes.test,6\n,Bea,bea@modes.test,5\nB-9,Bea,bea@modes.test,5\n";

    // create (the default): every row a new person, so the address and the id already used are refused, and nothing is written.
    const refused = await send(org.cookie, "/api/students/import", csv);
    expectProblem(refused, 400, "VALIDATION_FAILED");
    expect(refused.body.errors.map((e: { row: number; field: string; message: string }) => [e.row, e.field, e.message])).toEqual([
      [2, "externalId", "Another person already has this record number."],
      [3, "email", "Another record already uses this e-mail address."],
      [4, "email", "This e-mail address is also on another row of the file."],
    ]);

    // upsert: row 2 is Ana by her id (new name and address), rows 3 and 4 are both Bea by her address.
    const twice = await send(org.cookie, "/api/students/import?mode=upsert&dryRun=true", csv);
    expect(twice.body.errors).toEqual([
      { row: 4, field: "email", message: "This e-mail address is also on another row of the file." },
      { row: 4, field: "email", message: "Row 3 of the file is already this person." },
    ]);
    const upserted = await send(org.cookie, "/api/students/import?mode=upsert", csv.split("\n").slice(0, 3).join("\n").replace(",Bea,", "B-9,Bea,"));
    expect(upserted.status, upserted.text).toBe(201);
    expect(upserted.body).toEqual({
      created: 0,
      updated: 2,
      unchanged: 0,
      groupsCreated: 0,
      rows: [
        { row: 2, id: ana.body.id, action: "updated" },
        { row: 3, id: bea.body.id, action: "updated" },
      ],
      encoding: "utf-8",
    });
    expect((await api("GET", `/api/students/${ana.body.id}`, { cookie: org.cookie })).body).toMatchObject({
      name: "Ana Lima",
      email: "ana.lima@modes.test",
      grade: "6",
    });
    // Matched on her address, Bea takes the other system's id; a blank id later keeps it.
    expect((await api("GET", `/api/students/${bea.body.id}`, { cookie: org.cookie })).body).toMatchObject({ externalId: "B-9", grade: "5" });
    const blank = await send(org.cookie, "/api/students/import?mode=upsert", "externalId,name,email\n,Bea,bea@modes.test\n");
    expect(blank.body).toMatchObject({ unchanged: 1, rows: [{ row: 2, id: bea.body.id, action: "unchanged" }] });

    // An address another person of the other system holds is not taken over by a sync.
    const taken = await send(org.cookie, "/api/students/import?mode=upsert&dryRun=true", "externalId,name,email\nC-3,Carla,bea@modes.test\n");
    expect(taken.body.errors).toEqual([{ row: 2, field: "email", message: "Another record already uses this e-mail address." }]);
  });

  it("given candidates upserted, should create and update them and tell candidate.created for the new ones", async () => {
    const org = await newOrganization("Candidates");
    const receiver = await startReceiver();
    try {
      const hook = await api("POST", "/api/webhooks", { cookie: org.cookie, json: { url: receiver.url, events: ["candidate.created"] } });
      expect(hook.status, hook.text).toBe(201);
      const single = await api("POST", "/api/candidates", { cookie: org.cookie, json: { name: "Dani", externalId: "C-1" } });
      expect(single.body).toMatchObject({ externalId: "C-1", status: "NEW" });
      const imported = await send(org.cookie, "/api/candidates/import?mode=upsert", "id,nombre,estado\nC-1,Dani,in_evaluation\nC-2,Eva,\n");
      expect(imported.body).toMatchObject({ created: 1, updated: 1, unchanged: 0 });
      const candidates = (await api("GET", "/api/candidates", { cookie: org.cookie })).body.candidates;
      expect(candidates.map((c: { externalId: string; status: string }) => [c.externalId, c.status]).sort()).toEqual([
        ["C-1", "IN_EVALUATION"],
        ["C-2", "NEW"],
      ]);
      // One event for the candidate created by hand, one for the one the import created.
      await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
      expect(receiver.received.map((event) => [event.type, event.data.externalId]).sort()).toEqual([
        ["candidate.created", "C-1"],
        ["candidate.created", "C-2"],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it("given the same upsert twice at once, should create each person once", async () => {
    const org = await newOrganization("Twice at once");
    const csv = ["externalId,name", ...Array.from({ length: 50 }, (_, i) => `T-${i},Twin ${i}`)].join("\n");
    const answers = await Promise.all([1, 2].map(() => send(org.cookie, "/api/students/import?mode=upsert", csv)));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(answers.map((answer) => [answer.body.created, answer.body.unchanged]).sort()).toEqual([
      [0, 50],
      [50, 0],
    ]);
    expect((await api("GET", "/api/students?limit=1", { cookie: org.cookie })).body.total).toBe(50);
  });
});

describe("external ids (docs/api-contract.md §23)", () => {
  it("given an external id on a student, should return it, keep it unique in the organization, and release it when the student is deleted", async () => {
    const org = await newOrganization("Ids");
    const other = await newOrganization("Other ids");
    const created = await api("POST", "/api/students", { cookie: org.cookie, json: { name: "Ana", externalId: " SIS-1 " } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.externalId).toBe("SIS-1");
    expect((await api("GET", "/api/students", { cookie: org.cookie })).body.students[0].externalId).toBe("SIS-1");

    expectProblem(await api("POST", "/api/students", { cookie: org.cookie, json: { name: "Bia", externalId: "SIS-1" } }), 409, "EXTERNAL_ID_TAKEN");
    // Another organization's people are another matter; a candidate is too.
    expect((await api("POST", "/api/students", { cookie: other.cookie, json: { name: "Ana", externalId: "SIS-1" } })).status).toBe(201);
    expect((await api("POST", "/api/candidates", { cookie: org.cookie, json: { name: "Ana", externalId: "SIS-1" } })).status).toBe(201);
    // Many people without one.
    for (const name of ["Caio", "Duda"]) expect((await api("POST", "/api/students", { cookie: org.cookie, json: { name } })).body.externalId).toBeNull();

    const bia = await api("POST", "/api/students", { cookie: org.cookie, json: { name: "Bia" } });
    expectProblem(await api("PUT", `/api/students/${bia.body.id}`, { cookie: org.cookie, json: { externalId: "SIS-1" } }), 409, "EXTERNAL_ID_TAKEN");
    const renamed = await api("PUT", `/api/students/${created.body.id}`, { cookie: org.cookie, json: { externalId: "SIS-2" } });
    expect(renamed.body.externalId).toBe("SIS-2");
    expect((await api("PUT", `/api/students/${bia.body.id}`, { cookie: org.cookie, json: { externalId: "SIS-1" } })).body.externalId).toBe("SIS-1");
    expect((await api("PUT", `/api/students/${bia.body.id}`, { cookie: org.cookie, json: { externalId: "" } })).body.externalId).toBeNull();

    expect((await api("DELETE", `/api/students/${created.body.id}`, { cookie: org.cookie })).status).toBe(200);
    const again = await api("POST", "/api/students", { cookie: org.cookie, json: { name: "Ana", externalId: "SIS-2" } });
    expect(again.status, again.text).toBe(201);
  });
});

describe("dates of birth and record numbers in a roster file (docs/api-contract.md §18)", () => {
  const later = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

  it("given dates of birth under any of the header's names, should store them as calendar days, and refuse a day that does not exist or is after today by row", async () => {
    const org = await newOrganization("Dates of birth");
    for (const [header, recordHeader] of [
      ["dateOfBirth", "externalId"],
      ["Date of birth", "Record number"],
      ["Fecha de nacimiento", "Número de expediente"],
      ["Data de nascimento", "Prontuário"],
    ]) {
      const tag = unique("dob").replaceAll("-", "");
      const csv = [`name,${recordHeader},${header}`, `Ana ${tag},${tag}-1,2014-03-09`, `Bea ${tag},${tag}-2,`].join("\n");
      const imported = await send(org.cookie, "/api/students/import", csv);
      expect(imported.status, imported.text).toBe(201);
      const people = (await api("GET", `/api/students?search=${tag}`, { cookie: org.cookie })).body.students;
      expect(people.map((person: { externalId: string; dateOfBirth: string | null }) => [person.externalId, person.dateOfBirth]).sort()).toEqual([
        [`${tag}-1`, "2014-03-09"],
        [`${tag}-2`, null],
      ]);
    }
    const tag = unique("baddob").replaceAll("-", "");
    const bad = ["name,dateOfBirth", `Ana ${tag},2014-02-30`, `Bea ${tag},09/03/2014`, `Cai ${tag},${later}`, `Dan ${tag},2014-03-09`].join("\n");
    const preview = await send(org.cookie, "/api/candidates/import?dryRun=true", bad);
    expect(preview.body).toMatchObject({ rows: 4, valid: 1 });
    expect(preview.body.errors).toEqual([
      { row: 2, field: "dateOfBirth", message: "Enter a date of birth as a date, such as 2014-03-09." },
      { row: 3, field: "dateOfBirth", message: "Enter a date of birth as a date, such as 2014-03-09." },
      { row: 4, field: "dateOfBirth", message: "A date of birth cannot be later than today." },
    ]);
    expectProblem(await send(org.cookie, "/api/candidates/import", bad), 400, "VALIDATION_FAILED");
    expect((await api("GET", `/api/candidates?search=${tag}`, { cookie: org.cookie })).body.total).toBe(0);
  });

  it("given a roster exported, should hold every profile column, import again unchanged with upsert, and import whole into another organization", async () => {
    const org = await newOrganization("Roster export");
    const tag = unique("exp").replaceAll("-", "");
    const people = [
      {
        name: `Ana Lima ${tag}`,
        email: `ana.${tag}@clinic.test`,
        externalId: `${tag}-1`,
        dateOfBirth: "2014-03-09",
        phone: "+34 612 345 678",
        age: 11,
        grade: "Outpatients",
        gender: "female",
        status: "ACTIVE",
      },
      {
        name: `"Bruno", o do meio ${tag}`,
        email: null,
        externalId: `${tag}-2`,
        dateOfBirth: null,
        phone: "=1+1",
        age: null,
        grade: null,
        gender: null,
        status: "INACTIVE",
      },
      {
        name: `Çağla Øster ${tag}`,
        email: null,
        externalId: null,
        dateOfBirth: "2001-12-31",
        phone: null,
        age: 24,
        grade: "Línea 2\nB",
        gender: null,
        status: "GRADUATED",
      },
    ];
    for (const person of people) {
      const created = await api("POST", "/api/students", { cookie: org.cookie, json: person });
      expect(created.status, created.text).toBe(201);
    }
    const exported = await fetch(`${baseUrl()}/api/students/export?search=${tag}`, { headers: { cookie: org.cookie } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment; filename="students-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await exported.arrayBuffer());
    // UTF-8 with a byte order mark, so that Excel reads the accents.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = new TextDecoder().decode(bytes);
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(["name", "email", "externalId", "dateOfBirth", "phone", "age", "grade", "gender", "status"]);
    expect(rows.map((row) => row.name)).toEqual(people.map((person) => person.name));
    expect(rows[0]).toMatchObject({ externalId: `${tag}-1`, dateOfBirth: "2014-03-09", age: "11", grade: "Outpatients" });
    // A text a spreadsheet would run as a formula is guarded with an apostrophe (ADR 49).
    expect(rows[0]!.phone).toBe("'+34 612 345 678");
    expect(rows[1]!.phone).toBe("'=1+1");

    // The same file back, matched on the record number or else the e-mail: nothing to change.
    // (The third person has neither: upsert would add them again, so the file goes back without them.)
    const matched = csv
      .split("\r\n")
      .filter((line) => !line.startsWith('"Çağla') && !line.startsWith("Çağla"))
      .join("\r\n");
    const again = await send(org.cookie, "/api/students/import?mode=upsert&dryRun=true", matched);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 2, errors: [] });

    // Into another organization: the same people, field for field.
    const other = await newOrganization("Roster export target");
    const imported = await send(other.cookie, "/api/students/import", bytes);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body).toMatchObject({ created: 3 });
    const copied = (await api("GET", `/api/students?search=${tag}&limit=10`, { cookie: other.cookie })).body.students as Record<string, unknown>[];
    const profile = (person: Record<string, unknown>) =>
      Object.fromEntries(["name", "email", "externalId", "dateOfBirth", "phone", "age", "grade", "gender", "status"].map((field) => [field, person[field]]));
    expect(copied.map(profile).sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(
      people.map(profile).sort((a, b) => String(a.name).localeCompare(String(b.name))),
    );
  });

  it("given the export's filters, a candidate roster and a student's login, should export what the list shows, and refuse the student", async () => {
    const org = await newOrganization("Roster export filters");
    const tag = unique("flt").replaceAll("-", "");
    await api("POST", "/api/candidates", { cookie: org.cookie, json: { name: `New ${tag}`, externalId: `${tag}-A`, status: "NEW" } });
    await api("POST", "/api/candidates", { cookie: org.cookie, json: { name: `Approved ${tag}`, externalId: `${tag}-B`, status: "APPROVED" } });
    const file = async (query: string) => {
      const response = await fetch(`${baseUrl()}/api/candidates/export?${query}`, { headers: { cookie: org.cookie } });
      expect(response.status).toBe(200);
      return (parse(await response.text(), { bom: true, columns: true }) as Record<string, string>[]).map((row) => row.externalId);
    };
    expect(await file(`search=${tag}`)).toEqual([`${tag}-A`, `${tag}-B`]);
    expect(await file(`search=${tag}&status=APPROVED`)).toEqual([`${tag}-B`]);
    expect(await file(`search=${encodeURIComponent(`${tag}-a`)}`)).toEqual([`${tag}-A`]);
    expectProblem(await api("GET", "/api/candidates/export?status=GONE", { cookie: org.cookie }), 400, "VALIDATION_FAILED");
    expectProblem(await api("GET", "/api/candidates/export?page=2", { cookie: org.cookie }), 400, "VALIDATION_FAILED");
    expect((await api("GET", "/api/students/export", { as: "student@demo.test" })).status).toBe(403);
    expect((await api("GET", "/api/students/export")).status).toBe(401);
  });
});
