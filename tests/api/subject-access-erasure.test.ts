import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, signIn, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createOrganization, errorPaths, expectProblem, type OwnOrganization } from "../support/fixtures.ts";
import { submissionCounts, submissionRecount, summaryRecount, summaryTallies } from "../support/recount.ts";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";

/**
 * Subject access and erasure (docs/api-contract.md §21, ADR 88) over real HTTP, checked against
 * the database itself: the export holds every row about the person; after ANONYMISE nothing that
 * identifies them is left in any text column of any table, and their scores count as before; after
 * DELETE the summaries, tallies and totals equal a recount. Everything happens in an organization
 * of the file's own, with a webhook, so the deliveries' bodies are searched too.
 */

type Form = { id: string; questions: { id: string; options: { id: string }[] }[] };
type Person = {
  kind: "student" | "candidate";
  id: string;
  name: string;
  email: string;
  externalId: string;
  phone: string;
  dateOfBirth: string;
  /** Free text the person wrote: in their results' answers and in a saved draft. */
  texts: string[];
  submissionIds: string[];
  login: { email: string; password: string } | null;
};

let org: OwnOrganization;
let form: Form;
let groupId: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

const as = (method: string, path: string, json?: unknown) => api(method, path, { cookie: org.admin, ...(json === undefined ? {} : { json }) });
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** Answers to the mixed form: `text` in its text question, unless null. */
function answers(text: string | null, first = 0) {
  const [q1, q2, q3, q4] = form.questions;
  return [
    { questionId: q1!.id, optionIds: [q1!.options[first]!.id] },
    { questionId: q2!.id, optionIds: [q2!.options[0]!.id, q2!.options[2]!.id] },
    { questionId: q3!.id, optionIds: [q3!.options[2]!.id] },
    ...(text === null ? [] : [{ questionId: q4!.id, text }]),
  ];
}

/** The profile a person is created with: their own values, and an age, grade and gender like many others'. */
const profileOf = (person: Pick<Person, "name" | "email" | "externalId" | "phone" | "dateOfBirth">) => ({
  name: person.name,
  email: person.email,
  externalId: person.externalId,
  phone: person.phone,
  dateOfBirth: person.dateOfBirth,
  age: 12,
  grade: "6B",
  gender: "female",
});

/**
 * A person with everything the service can store about one: a full profile, a group, a login
 * (students, when asked) signed in once, two completed results with written answers, a link with a
 * saved draft, a schedule naming them, and webhook deliveries about them.
 */
async function personWithHistory(kind: "student" | "candidate", options: { login?: boolean } = {}): Promise<Person> {
  const tag = unique("p");
  const person = {
    kind,
    name: `Zélie Quatremaire ${tag}`,
    email: `zelie.${tag}@erasure.test`.toLowerCase(),
    externalId: `MRN-${tag}`,
    phone: `+44 7700 ${randomInt(100_000_000, 999_999_999)}`,
    dateOfBirth: `19${randomInt(50, 99)}-0${randomInt(1, 9)}-1${randomInt(0, 9)}`,
    texts: [`Only my sister knows ${tag}`, `I sleep badly since ${tag}`, `Half-written thought ${tag}`],
  };
  const created = await as("POST", `/api/${kind}s`, profileOf(person));
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  const who = kind === "student" ? { studentId: id } : { candidateId: id };
  expect((await as("POST", `/api/groups/${groupId}/members`, { [`${kind}Ids`]: [id] })).status).toBe(200);
  let login: Person["login"] = null;
  if (options.login) {
    // A login with the student's address is linked to the student (and signs in once: its session and throttle rows).
    const password = `pw-${unique("secret")}`;
    const user = await as("POST", "/api/users", { email: person.email, name: person.name, role: "STUDENT", password });
    expect(user.status, user.text).toBe(201);
    await signIn(person.email, password);
    login = { email: person.email, password };
  }
  const submissionIds: string[] = [];
  for (const [index, text] of [person.texts[0]!, person.texts[1]!].entries()) {
    const link = await as("POST", "/api/submissions", { formId: form.id, ...who });
    expect(link.status, link.text).toBe(201);
    const submit = await api("POST", `/api/test-link/${link.body.token}/submit`, { json: { answers: answers(text, index) } });
    expect(submit.status, submit.text).toBe(200);
    submissionIds.push(link.body.id);
  }
  const waiting = await as("POST", "/api/submissions", { formId: form.id, ...who });
  const draft = await api("PUT", `/api/test-link/${waiting.body.token}/draft`, {
    json: { answers: [{ questionId: form.questions[3]!.id, text: person.texts[2] }] },
  });
  expect(draft.status, draft.text).toBe(200);
  submissionIds.push(waiting.body.id);
  const schedule = await as("POST", "/api/schedules", { formId: form.id, [`${kind}Ids`]: [id], startsAt: tomorrow(), everyDays: 7, send: false });
  expect(schedule.status, schedule.text).toBe(201);
  return { ...person, id, submissionIds, login };
}

const isPostgres = () => /^postgres(ql)?:/.test(inject("databaseUrl"));

/** Every text column of every table (JSON columns read as text): `[table, column]`. */
async function textColumns(): Promise<[string, string][]> {
  const db = testDatabase();
  if (isPostgres()) {
    const rows = await db.$queryRawUnsafe<{ table_name: string; column_name: string }[]>(
      `SELECT c.table_name, c.column_name FROM information_schema.columns AS c
       JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
       WHERE c.table_schema = current_schema() AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')`,
    );
    return rows.map((row) => [row.table_name, row.column_name]);
  }
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'table'`);
  const columns: [string, string][] = [];
  for (const { name } of tables) {
    const info = await db.$queryRawUnsafe<{ name: string; type: string }[]>(`SELECT name, type FROM pragma_table_info('${name.replaceAll("'", "''")}')`);
    // Untyped columns (a full-text index's own tables) may hold text too.
    for (const column of info) if (/TEXT|CHAR|CLOB|JSON|^$/i.test(column.type)) columns.push([name, column.name]);
  }
  return columns;
}

/** Where in the whole database any of `values` is found, as `table.column: value`, whatever the case. */
async function foundAnywhere(values: string[]): Promise<string[]> {
  const db = testDatabase();
  const found: string[] = [];
  for (const [table, column] of await textColumns()) {
    const text = isPostgres() ? `"${column}"::text` : `CAST("${column}" AS TEXT)`;
    const contains = isPostgres() ? (n: number) => `strpos(lower(${text}), lower($${n})) > 0` : () => `instr(lower(${text}), lower(?)) > 0`;
    for (const value of values) {
      const [row] = await db.$queryRawUnsafe<{ hits: number | bigint }[]>(`SELECT COUNT(*) AS hits FROM "${table}" WHERE ${contains(1)}`, value);
      if (Number(row!.hits) > 0) found.push(`${table}.${column}: ${value}`);
    }
  }
  return found;
}

/** What identifies the person: each as given, and the name as the search folds it. */
const identifying = (person: Person) => [
  person.name,
  person.name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase(),
  person.email,
  person.externalId,
  person.phone,
  person.dateOfBirth,
  ...person.texts,
];

/** The results as they were scored: totals, bands, subscales, flags, and each answer's choices and score. */
const scoresOf = (submissionIds: string[]) =>
  testDatabase().submission.findMany({
    where: { id: { in: submissionIds } },
    select: {
      id: true,
      totalScore: true,
      maxScore: true,
      percentage: true,
      scoreLabel: true,
      subscales: true,
      flags: true,
      // Ordered: an anonymised answer is rewritten, and PostgreSQL returns rewritten rows last.
      answers: { select: { questionId: true, optionIds: true, score: true }, orderBy: { questionId: "asc" } },
    },
    orderBy: { id: "asc" },
  });

async function auditEventsAbout(targetId: string) {
  return testDatabase().auditEvent.findMany({ where: { targetId }, orderBy: { at: "asc" } });
}

beforeAll(async () => {
  org = await createOrganization("Erasure");
  receiver = await startWebhookReceiver();
  const hook = await as("POST", "/api/webhooks", {
    url: receiver.url,
    events: ["student.created", "candidate.created", "submission.created", "submission.completed"],
  });
  expect(hook.status, hook.text).toBe(201);
  const created = await as("POST", "/api/forms", mixedForm());
  expect(created.status, created.text).toBe(201);
  form = created.body;
  const group = await as("POST", "/api/groups", { name: unique("Class") });
  expect(group.status, group.text).toBe(201);
  groupId = group.body.id;
});

afterAll(async () => {
  await receiver.close();
});

describe("subject access", () => {
  it("given a student with a login, results, a draft, a group and a schedule, should answer a JSON file with every row about them and record the download", async () => {
    const db = testDatabase();
    const person = await personWithHistory("student", { login: true });
    const response = await as("GET", `/api/students/${person.id}/export`);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="student-${person.id}.json"`);
    const document = response.body;

    const stored = await db.student.findUniqueOrThrow({ where: { id: person.id } });
    expect(document.person).toMatchObject({
      id: person.id,
      ...profileOf(person),
      status: stored.status,
      updatedAt: stored.updatedAt.toISOString(),
      deletedAt: null,
      anonymisedAt: null,
    });
    expect(document.alsoRecordedAs).toBeNull();
    expect(document.login).toMatchObject({ email: person.email, name: person.name, isActive: true });
    const memberships = await db.groupMember.findMany({ where: { studentId: person.id } });
    expect(document.groups.map((group: { id: string }) => group.id)).toEqual(memberships.map((membership) => membership.groupId));

    const submissions = await db.submission.findMany({
      where: { studentId: person.id },
      include: { answers: true, draft: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(document.submissions.map((row: { id: string }) => row.id)).toEqual(submissions.map((row) => row.id));
    expect(submissions.map((row) => row.id).sort()).toEqual([...person.submissionIds].sort());
    for (const [index, row] of submissions.entries()) {
      const exported = document.submissions[index];
      expect(exported).toMatchObject({ isCompleted: row.isCompleted, totalScore: row.totalScore, maxScore: row.maxScore, scoreLabel: row.scoreLabel });
      expect(
        exported.answers.map((answer: { questionId: string; text: string | null; score: number }) => [answer.questionId, answer.text, answer.score]),
      ).toEqual([...row.answers].sort((a, b) => a.position - b.position).map((answer) => [answer.questionId, answer.text, answer.score]));
    }
    expect(document.submissions.flatMap((row: { answers: { text: string | null }[] }) => row.answers.map((answer) => answer.text)).filter(Boolean)).toEqual(
      person.texts.slice(0, 2),
    );
    const drafts = submissions.filter((row) => row.draft);
    expect(document.drafts).toEqual(drafts.map((row) => ({ submissionId: row.id, answers: row.draft!.answers, savedAt: row.draft!.savedAt.toISOString() })));

    const schedules = (await db.schedule.findMany({ where: { organizationId: org.id } })).filter((row) => (row.studentIds as string[]).includes(person.id));
    expect(document.schedules.map((row: { id: string; namesThePerson: boolean }) => [row.id, row.namesThePerson])).toEqual(
      schedules.map((row) => [row.id, true]),
    );

    // The download is recorded, naming the record and not the person; the next download lists it.
    const events = await auditEventsAbout(person.id);
    const exports = events.filter((event) => event.action === "person.exported");
    expect(exports.map((event) => [event.action, event.targetType, event.details])).toEqual([["person.exported", "person", { kind: "student" }]]);
    expect(JSON.stringify(events)).not.toContain(person.name);
    const again = await as("GET", `/api/students/${person.id}/export`);
    // Every event about the person or their results (their creation, the first download…) but the
    // download being answered.
    const about = await db.auditEvent.findMany({ where: { targetId: { in: [person.id, ...person.submissionIds] } } });
    const answering = about.filter((event) => event.action === "person.exported" && event.id !== exports[0]!.id);
    expect(answering).toHaveLength(1);
    const listed = again.body.auditEvents as { id: string; action: string }[];
    expect(listed.map((event) => event.id).sort()).toEqual(
      about
        .filter((event) => event.id !== answering[0]!.id)
        .map((event) => event.id)
        .sort(),
    );
    expect(listed.find((event) => event.id === exports[0]!.id)).toMatchObject({
      action: "person.exported",
      target: { type: "person", id: person.id },
      details: { kind: "student" },
    });

    // A super admin reads any organization's people.
    expect((await api("GET", `/api/students/${person.id}/export`, { as: "superadmin@demo.test" })).status).toBe(200);
  });

  it("given another organization's administrator, a teacher, or an unknown id, should answer 404, 403 and 404 and record nothing", async () => {
    const person = await personWithHistory("candidate");
    const before = await auditEventsAbout(person.id);
    expectProblem(await api("GET", `/api/candidates/${person.id}/export`, { as: "admin@other.test" }), 404);
    expectProblem(await api("GET", `/api/candidates/${person.id}/export`, { cookie: org.teacher }), 403);
    expectProblem(await as("GET", "/api/candidates/does-not-exist/export"), 404);
    // A candidate is not a student.
    expectProblem(await as("GET", `/api/students/${person.id}/export`), 404);
    expect(await auditEventsAbout(person.id)).toEqual(before);
  });
});

describe("erasure", () => {
  it("given ANONYMISE, should leave no identifying value of the person in any text column of the database, and every score and summary as it was", async () => {
    const db = testDatabase();
    const person = await personWithHistory("student", { login: true });
    // Another person's results on the same form stay as they are.
    const other = await personWithHistory("student");
    // The search reaches everything: before, the values are where the person's data is kept.
    const before = await foundAnywhere(identifying(person));
    for (const place of [
      "Student.name",
      "Student.email",
      "Student.externalId",
      "User.email",
      "Answer.text",
      "SubmissionDraft.answers",
      "WebhookDelivery.payload",
      "RateLimit.key",
    ]) {
      expect(
        before.some((found) => found.startsWith(`${place}:`)),
        place,
      ).toBe(true);
    }
    const summary = (await as("GET", `/api/forms/${form.id}/summary`)).body;
    const scores = await scoresOf(person.submissionIds);

    const wrong = await as("POST", `/api/students/${person.id}/erase`, { mode: "ANONYMISE", confirm: person.name.toUpperCase() });
    expectProblem(wrong, 400, "VALIDATION_FAILED");
    expect(errorPaths(wrong)).toEqual(["confirm"]);
    expectProblem(await api("POST", `/api/students/${person.id}/erase`, { cookie: org.teacher, json: { mode: "ANONYMISE", confirm: person.name } }), 403);
    expectProblem(await api("POST", `/api/students/${person.id}/erase`, { as: "admin@other.test", json: { mode: "ANONYMISE", confirm: person.name } }), 404);
    expect(errorPaths(await as("POST", `/api/students/${person.id}/erase`, { mode: "FORGET", confirm: person.name }))).toEqual(["mode"]);
    expect(await db.student.findUniqueOrThrow({ where: { id: person.id } })).toMatchObject({ name: person.name, deletedAt: null });

    const erased = await as("POST", `/api/students/${person.id}/erase`, { mode: "ANONYMISE", confirm: person.name });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toMatchObject({ id: person.id, kind: "student", mode: "ANONYMISE", submissions: 3, answers: 8, drafts: 1 });

    expect(await foundAnywhere(identifying(person))).toEqual([]);
    expect((await foundAnywhere(identifying(other))).length).toBeGreaterThan(0);
    // What stands in its place: a mark, the same in every language; the record has left the lists.
    const record = await db.student.findUniqueOrThrow({ where: { id: person.id } });
    expect(record).toMatchObject({ email: null, externalId: null, phone: null, dateOfBirth: null, age: null, gender: null, grade: "6B" });
    expect(record.name).toMatch(/^#[0-9A-F]{6}$/);
    expect(record.deletedAt).not.toBeNull();
    expect(record.anonymisedAt).not.toBeNull();
    expectProblem(await as("GET", `/api/students/${person.id}`), 404);
    // The login is closed: no session, no way in.
    const login = await db.user.findFirstOrThrow({ where: { student: { id: person.id } } });
    expect(login).toMatchObject({ isActive: false, passwordHash: null });
    expect(await db.session.count({ where: { userId: login.id } })).toBe(0);
    await expect(signIn(person.login!.email, person.login!.password)).rejects.toThrow(/401/);

    // Scores, choices and the summary are as they were; the written answers are kept as answered.
    expect(await scoresOf(person.submissionIds)).toEqual(scores);
    expect((await as("GET", `/api/forms/${form.id}/summary`)).body).toEqual(summary);
    expect(await summaryTallies(form.id)).toEqual(await summaryRecount(form.id));
    const reports = await as("GET", `/api/reports?search=${encodeURIComponent(record.name)}`);
    expect(reports.body.reports.map((report: { id: string; studentName: string }) => [report.id, report.studentName]).sort()).toEqual(
      person.submissionIds
        .slice(0, 2)
        .map((id) => [id, record.name])
        .sort(),
    );

    // One event, naming the record and the number of its submissions, and nothing of the person.
    const events = (await auditEventsAbout(person.id)).filter((event) => event.action === "person.anonymised");
    expect(events.map((event) => event.details)).toEqual([{ kind: "student", submissions: 3 }]);
    for (const value of identifying(person)) expect(JSON.stringify(events)).not.toContain(value);

    // What is left can still be read, and deleted for good with the name it now has.
    const exported = await as("GET", `/api/students/${person.id}/export`);
    expect(exported.body.person).toMatchObject({ name: record.name, anonymisedAt: record.anonymisedAt!.toISOString() });
    const deleted = await as("POST", `/api/students/${person.id}/erase`, { mode: "DELETE", confirm: record.name });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await db.student.count({ where: { id: person.id } })).toBe(0);
  });

  it("given DELETE, should remove the person, their login, results, answers and drafts, and keep the summary, the tallies, the counts and the reports' total equal to a recount", async () => {
    const db = testDatabase();
    const person = await personWithHistory("student", { login: true });
    await personWithHistory("student");
    const login = await db.user.findFirstOrThrow({ where: { student: { id: person.id } }, select: { id: true } });

    const erased = await as("POST", `/api/students/${person.id}/erase`, { mode: "DELETE", confirm: person.name });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toMatchObject({ id: person.id, kind: "student", mode: "DELETE", submissions: 3, answers: 8, drafts: 1 });

    expect(await db.student.count({ where: { id: person.id } })).toBe(0);
    expect(await db.user.count({ where: { id: login.id } })).toBe(0);
    expect(await db.submission.count({ where: { id: { in: person.submissionIds } } })).toBe(0);
    expect(await db.answer.count({ where: { submissionId: { in: person.submissionIds } } })).toBe(0);
    expect(await db.submissionDraft.count({ where: { submissionId: { in: person.submissionIds } } })).toBe(0);
    expect(await db.groupMember.count({ where: { studentId: person.id } })).toBe(0);
    expect(await foundAnywhere(identifying(person))).toEqual([]);

    expect(await summaryTallies(form.id)).toEqual(await summaryRecount(form.id));
    expect(await submissionCounts([org.id])).toEqual(await submissionRecount([org.id]));
    const summary = (await as("GET", `/api/forms/${form.id}/summary`)).body;
    expect(summary.completed).toBe(await db.submission.count({ where: { formId: form.id, isCompleted: true, deletedAt: null } }));
    expect(summary.assigned).toBe(await db.submission.count({ where: { formId: form.id, deletedAt: null } }));
    const reports = await as("GET", "/api/reports?limit=1");
    expect(reports.body.total).toBe(await db.submission.count({ where: { organizationId: org.id, isCompleted: true, deletedAt: null } }));

    // The lists read with updatedSince learn that the student and each of their submissions left.
    const tombstones = await db.tombstone.findMany({ where: { itemId: { in: [person.id, ...person.submissionIds] } } });
    expect(tombstones.map((tombstone) => [tombstone.kind, tombstone.itemId]).sort()).toEqual(
      [["student", person.id], ...person.submissionIds.map((id) => ["submission", id])].sort(),
    );
    const events = (await auditEventsAbout(person.id)).filter((event) => event.action === "person.deleted");
    expect(events.map((event) => event.details)).toEqual([{ kind: "student", submissions: 3 }]);
    expectProblem(await as("POST", `/api/students/${person.id}/erase`, { mode: "DELETE", confirm: person.name }), 404);
  });

  it("given a promoted candidate, should export the student it became with it, and anonymise both records with one request", async () => {
    const db = testDatabase();
    const person = await personWithHistory("candidate");
    const promoted = await as("POST", `/api/candidates/${person.id}/promote`);
    expect(promoted.status, promoted.text).toBe(201);
    const studentId = promoted.body.student.id as string;

    const exported = await as("GET", `/api/candidates/${person.id}/export`);
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.alsoRecordedAs).toMatchObject({ kind: "student", profile: { id: studentId, name: person.name, email: person.email } });
    expect(exported.body.submissions.map((row: { id: string }) => row.id).sort()).toEqual([...person.submissionIds].sort());

    const erased = await as("POST", `/api/candidates/${person.id}/erase`, { mode: "ANONYMISE", confirm: person.name });
    expect(erased.status, erased.text).toBe(200);
    expect(await foundAnywhere(identifying(person))).toEqual([]);
    const [candidate, student] = await Promise.all([
      db.candidate.findUniqueOrThrow({ where: { id: person.id } }),
      db.student.findUniqueOrThrow({ where: { id: studentId } }),
    ]);
    expect(candidate.name).toBe(student.name);
    expect([candidate.anonymisedAt, student.anonymisedAt]).not.toContain(null);
    for (const [id, kind] of [
      [person.id, "candidate"],
      [studentId, "student"],
    ]) {
      const events = (await auditEventsAbout(id!)).filter((event) => event.action === "person.anonymised");
      expect(events.map((event) => event.details)).toEqual([{ kind, submissions: 3 }]);
    }
  });
});
