import { coerceFormValue } from "@conform-to/zod/v4/future";
import { parse } from "csv-parse/sync";
import type { z } from "zod";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, LONG_WRITE, type Prisma, serializeWrites } from "~/lib/db.server.ts";
import { en } from "~/i18n/en.ts";
import { fieldMessage, type FieldMessageKey, fieldText } from "~/lib/messages.ts";
import { badRequest, type FieldProblem, issueMessage } from "~/lib/problem.server.ts";
import { insertRows } from "~/lib/insert-rows.server.ts";
import { foldForSearch } from "~/lib/search.ts";
import { createCandidateBody } from "../candidates/candidate-schemas.ts";
import { createStudentBody } from "../students/student-schemas.ts";
import { emitWebhookEvents, webhookSubscribers } from "../webhooks/webhooks.server.ts";
import { refreshRespondentSearchText } from "./people.server.ts";
import { type ImportMode, PROFILE_COLUMNS, type RosterAction, type RosterColumn, type RosterSource, ROSTER_HEADERS } from "./roster-columns.ts";
import { newId } from "~/lib/ids.server.ts";
import { dayIn } from "~/lib/zoned-time.ts";
import { unguardFormula } from "../reports/report-export-file.server.ts";
import { recordAudit } from "../audit/audit.server.ts";

/**
 * A class list from a spreadsheet (docs/api-contract.md §11, §23): a CSV file, comma or semicolon separated
 * (what Excel writes depends on the locale), UTF-8 with or without a byte order mark, or else
 * Windows-1252 (what Excel saves as "CSV" in the Americas and western Europe), one person a row,
 * a header naming the columns in English, Spanish or Portuguese. Every row is checked with the
 * same schema as one created by hand; a dry run answers what the import would do, and the import
 * itself writes every row or none.
 *
 * Two modes (ADR 51): `create` adds every row as a new person, and refuses an e-mail address or
 * external id already used; `upsert` (a nightly sync from a school's information system) matches
 * each row on its external id, else on its e-mail address, updates the people it finds with the
 * columns the file has, and adds the others.
 */
export const IMPORT_ROW_LIMIT = 5000;
/** Rows the page lists in its preview; the counts cover them all. */
export const PREVIEW_ROWS_SHOWN = 200;

type Kind = "students" | "candidates";
const SCHEMAS = { students: createStudentBody, candidates: createCandidateBody } as const;
type Input = z.output<(typeof SCHEMAS)[Kind]>;
type ProfileColumn = Exclude<RosterColumn, "group">;
type Row = { line: number; input: Input; group: string | null; blank: ReadonlySet<RosterColumn> };

/** A problem at a line and column of the file, said in English for the API (the key for pages). */
const problemAt = (line: number, field: string, key: FieldMessageKey, ...params: string[]): FieldProblem => {
  const message = fieldMessage(key, ...params);
  return { path: `rows.${line}.${field}`, row: line, field, key: message, message: fieldText(en, message) };
};

/** The separator a header line uses: Excel writes semicolons where the decimal mark is a comma. */
function separatorOf(text: string) {
  const header = text.slice(0, text.search(/\r?\n|$/));
  return (header.match(/;/g)?.length ?? 0) > (header.match(/,/g)?.length ?? 0) ? ";" : ",";
}

/** A header as compared: without case, accents, spaces or punctuation (`E-mail` is `email`, `Matrícula` is `matricula`). */
const headerKey = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

const COLUMN_OF = new Map<string, RosterColumn>(
  Object.entries(ROSTER_HEADERS).flatMap(([column, names]) => names.map((name) => [headerKey(name), column as RosterColumn] as const)),
);

/**
 * The file's rows, read and checked on their own (without the database); problems by line and
 * column. `today`: the organization's day, which no date of birth may come after.
 */
function readRoster(kind: Kind, text: string, today: string) {
  let records: string[][];
  try {
    records = parse(text, { bom: true, delimiter: separatorOf(text.replace(/^\uFEFF/, "")), relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { columns: [], rows: [], total: 0, problems: [problemAt(line, "file", "unreadableRow")] };
  }
  const [header = [], ...body] = records;
  const problems: FieldProblem[] = [];
  const columns: (RosterColumn | null)[] = header.map((name, index) => {
    const column = COLUMN_OF.get(headerKey(name)) ?? null;
    const label = name.trim() || `#${index + 1}`;
    if (column === null) problems.push(problemAt(1, label, "unknownColumn"));
    else if (header.slice(0, index).some((earlier) => COLUMN_OF.get(headerKey(earlier)) === column)) problems.push(problemAt(1, label, "columnTwice"));
    return column;
  });
  if (!columns.includes("name")) problems.push(problemAt(1, "name", "nameColumn"));
  if (body.length === 0) problems.push(problemAt(1, "file", "noRows"));
  if (body.length > IMPORT_ROW_LIMIT) problems.push(problemAt(1, "file", "tooManyRows", "5,000"));
  const present = columns.filter((column) => column !== null);
  if (problems.length > 0) return { columns: present, rows: [], total: body.length, problems };

  const schema = coerceFormValue(SCHEMAS[kind]);
  const rows: Row[] = [];
  body.forEach((cells, index) => {
    const line = index + 2;
    const value: Record<string, string> = {};
    const blank = new Set<RosterColumn>();
    let group: string | null = null;
    columns.forEach((column, position) => {
      // A text our own export guarded against spreadsheet formulas (`'+34 612…`) is read as it was.
      const cell = unguardFormula((cells[position] ?? "").trim());
      if (cell === "") blank.add(column!);
      if (column === "group") group = cell || null;
      else value[column!] = column === "status" ? cell.toUpperCase() : cell;
    });
    const parsed = schema.safeParse(value);
    if (parsed.success && parsed.data.dateOfBirth && parsed.data.dateOfBirth > today) problems.push(problemAt(line, "dateOfBirth", "dateOfBirthFuture"));
    else if (parsed.success) rows.push({ line, input: parsed.data as Input, group, blank });
    else
      for (const issue of parsed.error.issues)
        problems.push(problemAt(line, String(issue.path[0] ?? "file"), issueMessage(issue).key, ...issueMessage(issue).params));
  });

  // An e-mail address and an external id are one person's: not twice in the file.
  for (const field of ["email", "externalId"] as const) {
    const seen = new Set<string>();
    for (const row of rows) {
      const value = row.input[field];
      if (!value) continue;
      if (seen.has(value)) problems.push(problemAt(row.line, field, field === "email" ? "emailTwice" : "externalIdTwice"));
      else seen.add(value);
    }
  }
  return { columns: present, rows, total: body.length, problems };
}

const personSelect = {
  id: true,
  externalId: true,
  dateOfBirth: true,
  email: true,
  deletedAt: true,
  name: true,
  phone: true,
  age: true,
  grade: true,
  gender: true,
  status: true,
} as const;
type Existing = {
  id: string;
  externalId: string | null;
  dateOfBirth: string | null;
  email: string | null;
  deletedAt: Date | null;
  name: string;
  phone: string | null;
  age: number | null;
  grade: string | null;
  gender: string | null;
  status: string;
};

/** What the import does with one row: the person it matched (null for a new one), and what changes. */
export type PlannedRow = {
  row: Row;
  action: RosterAction;
  id: string | null;
  /** The profile columns that change, with their new values (for `updated`). */
  changes: Partial<Record<ProfileColumn, string | number | null>>;
  /** The (folded) name of a group the person joins. */
  joins: string | null;
};

async function findPeople(client: Prisma.TransactionClient, kind: Kind, where: Prisma.StudentWhereInput & Prisma.CandidateWhereInput): Promise<Existing[]> {
  return kind === "students" ? client.student.findMany({ where, select: personSelect }) : client.candidate.findMany({ where, select: personSelect });
}

/**
 * What the rows do to the organization, read through `client` (the import's transaction, after it
 * took the roster: ADR 41). `create`: every row is new, and an address or id already used is a
 * problem. `upsert`: a row is the person with its external id, else the (not deleted) person with
 * its address; it changes the columns the file has whose values differ. A blank cell clears the
 * value, but for the name (required), the status and the external id (kept). A person matched by
 * two rows, or a row whose address belongs to someone else, is a problem.
 */
async function planRoster(client: Prisma.TransactionClient, actor: Actor, kind: Kind, mode: ImportMode, columns: RosterColumn[], rows: Row[]) {
  const organizationId = actor.organizationId;
  const emails = [...new Set(rows.flatMap((row) => (row.input.email ? [row.input.email] : [])))];
  const externalIds = [...new Set(rows.flatMap((row) => (row.input.externalId ? [row.input.externalId] : [])))];
  // An external id is checked among the deleted too (the unique index holds them), an address among the others.
  const [byEmail, byExternalId] = await Promise.all([
    emails.length ? findPeople(client, kind, { organizationId, deletedAt: null, email: { in: emails } }) : [],
    externalIds.length ? findPeople(client, kind, { organizationId, externalId: { in: externalIds } }) : [],
  ]);
  const emailOwner = new Map(byEmail.map((person) => [person.email!, person]));
  const idOwner = new Map(byExternalId.map((person) => [person.externalId!, person]));
  const problems: FieldProblem[] = [];
  const planned: PlannedRow[] = [];
  const matchedBy = new Map<string, number>();

  // In create mode a value used here is said once, on the first row that has it (a later one is
  // already told it repeats an earlier row).
  const told = new Set<string>();
  const tellOnce = (row: Row, field: "email" | "externalId", value: string, key: FieldMessageKey) => {
    if (told.has(`${field}\u0000${value}`)) return;
    told.add(`${field}\u0000${value}`);
    problems.push(problemAt(row.line, field, key));
  };
  for (const row of rows) {
    const { email, externalId } = row.input;
    const withId = externalId ? idOwner.get(externalId) : undefined;
    if (mode === "create") {
      if (email && emailOwner.has(email)) tellOnce(row, "email", email, "emailTaken");
      if (externalId && withId) tellOnce(row, "externalId", externalId, "externalIdTaken");
      planned.push({ row, action: "created", id: null, changes: {}, joins: row.group ? foldForSearch(row.group) : null });
      continue;
    }
    let person: Existing | undefined;
    if (withId && withId.deletedAt === null) person = withId;
    else if (withId) problems.push(problemAt(row.line, "externalId", "externalIdTaken"));
    else if (email) {
      const owner = emailOwner.get(email);
      // The address is someone else's in the other system: never re-keyed by a sync.
      if (owner?.externalId && externalId) problems.push(problemAt(row.line, "email", "emailTaken"));
      else person = owner;
    }
    if (person && email && emailOwner.has(email) && emailOwner.get(email)!.id !== person.id) problems.push(problemAt(row.line, "email", "emailTaken"));
    if (person) {
      const matchedOn = person === withId ? "externalId" : "email";
      if (matchedBy.has(person.id)) problems.push(problemAt(row.line, matchedOn, "samePersonTwice", String(matchedBy.get(person.id))));
      else matchedBy.set(person.id, row.line);
    }
    planned.push(
      person
        ? { row, action: "unchanged", id: person.id, changes: changesOf(kind, columns, row, person), joins: row.group ? foldForSearch(row.group) : null }
        : { row, action: "created", id: null, changes: {}, joins: row.group ? foldForSearch(row.group) : null },
    );
  }

  // Whether each matched person is already in the group their row names.
  const named = [...new Set(planned.flatMap((plan) => (plan.joins ? [plan.joins] : [])))];
  const groups = named.length
    ? await client.group.findMany({ where: { organizationId, deletedAt: null, searchName: { in: named } }, select: { searchName: true } })
    : [];
  const matched = planned.filter((plan) => plan.id !== null && plan.joins !== null).map((plan) => plan.id!);
  const memberships = new Set<string>();
  if (matched.length > 0) {
    const rowsIn = await client.groupMember.findMany({
      where: {
        ...(kind === "students" ? { studentId: { in: matched } } : { candidateId: { in: matched } }),
        group: { organizationId, deletedAt: null, searchName: { in: named } },
      },
      select: { studentId: true, candidateId: true, group: { select: { searchName: true } } },
    });
    for (const member of rowsIn) memberships.add(`${member.studentId ?? member.candidateId}\u0000${member.group.searchName}`);
  }
  for (const plan of planned) {
    if (plan.id === null) continue;
    if (plan.joins !== null && memberships.has(`${plan.id}\u0000${plan.joins}`)) plan.joins = null;
    if (Object.keys(plan.changes).length > 0 || plan.joins !== null) plan.action = "updated";
  }
  const existingGroups = new Set(groups.map((group) => group.searchName));
  return { planned, problems, missingGroups: new Set(named.filter((name) => !existingGroups.has(name))) };
}

/** The columns of the file whose values differ from the person's, with the new values. */
function changesOf(kind: Kind, columns: RosterColumn[], row: Row, person: Existing): PlannedRow["changes"] {
  const changes: PlannedRow["changes"] = {};
  for (const column of PROFILE_COLUMNS) {
    if (!columns.includes(column)) continue;
    // Kept when blank: the status has no "none", and the external id is what the row was matched on.
    if ((column === "status" || column === "externalId") && row.blank.has(column)) continue;
    // A promoted candidate stays promoted, whatever the other system says (its status is this service's).
    if (column === "status" && kind === "candidates" && person.status === "PROMOTED") continue;
    const value = (row.input[column] ?? null) as string | number | null;
    if (value !== person[column]) changes[column] = value;
  }
  return changes;
}

const asResponse = (problem: FieldProblem) => ({ row: problem.row!, field: problem.field!, message: problem.message });

/** The groups that `planned` would create: those its rows join that do not exist yet. */
const groupsToCreate = (planned: PlannedRow[], missing: ReadonlySet<string>) =>
  new Set(planned.flatMap((plan) => (plan.joins && missing.has(plan.joins) ? [plan.joins] : []))).size;

/** The rows read and planned, every problem sorted by line and column; the rows with a problem are left out of `planned`. */
async function checkRoster(client: Prisma.TransactionClient, actor: Actor, kind: Kind, mode: ImportMode, read: ReturnType<typeof readRoster>) {
  if (read.rows.length === 0) return { total: read.total, planned: [], problems: read.problems, groupsCreated: 0 };
  const plan = await planRoster(client, actor, kind, mode, read.columns, read.rows);
  const problems = [...read.problems, ...plan.problems].sort((a, b) => a.row! - b.row! || a.field!.localeCompare(b.field!));
  const badLines = new Set(problems.map((problem) => problem.row));
  const planned = plan.planned.filter((row) => !badLines.has(row.row.line));
  return { total: read.total, planned, problems, groupsCreated: groupsToCreate(planned, plan.missingGroups) };
}

const counts = (planned: PlannedRow[]) => ({
  created: planned.filter((plan) => plan.action === "created").length,
  updated: planned.filter((plan) => plan.action === "updated").length,
  unchanged: planned.filter((plan) => plan.action === "unchanged").length,
});

/**
 * `?dryRun=true`: what the import would do, and every problem. `create` answers how many rows there
 * are and how many would be imported (docs/api-contract.md §11); `upsert` also what each row would do (no id for
 * a new person). `planned` is for the page's preview.
 */
export async function previewRoster(actor: Actor, kind: Kind, source: RosterSource, mode: ImportMode = "create") {
  const { total, planned, problems, groupsCreated } = await checkRoster(
    db,
    actor,
    kind,
    mode,
    readRoster(kind, source.text, dayIn(new Date(), actor.timeZone)),
  );
  const errors = problems.map(asResponse);
  const answer =
    mode === "create"
      ? { rows: total, valid: planned.length, errors, encoding: source.encoding }
      : {
          ...counts(planned),
          groupsCreated,
          rows: planned.map((plan) => ({ row: plan.row.line, ...(plan.id ? { id: plan.id } : {}), action: plan.action })),
          valid: planned.length,
          errors,
          encoding: source.encoding,
        };
  return { answer, total, planned, problems, groupsCreated };
}

const refused = (problems: FieldProblem[]) => badRequest("Some rows of the file need attention; nothing was imported.", problems);

/**
 * Every row in one transaction, with the groups the file names and that do not exist yet; any
 * problem writes nothing (400). The people created and changed are told to the webhooks that want
 * it, in the same transaction (`student.created`, `candidate.created`, `student.updated`).
 */
export async function importRoster(actor: Actor, kind: Kind, source: RosterSource, mode: ImportMode = "create") {
  // Checked first outside the transaction: a file with problems (the same file sent again in
  // create mode, say) is refused without waiting for the organization's roster or the write lock.
  const read = readRoster(kind, source.text, dayIn(new Date(), actor.timeZone));
  const checked = await checkRoster(db, actor, kind, mode, read);
  if (checked.problems.length > 0) throw refused(checked.problems);
  const createdEvent = kind === "students" ? "student.created" : "candidate.created";
  const [onCreate, onUpdate] = await Promise.all([
    webhookSubscribers(actor.organizationId, createdEvent),
    kind === "students" ? webhookSubscribers(actor.organizationId, "student.updated") : [],
  ]);
  return db.$transaction(async (tx) => {
    // The same file sent twice at once (a double click, a retried nightly sync): the second import
    // waits for the first, then finds its addresses taken (create) or its people as the first left them (upsert).
    await serializeWrites(tx, "roster", actor.organizationId);
    const { planned, problems } = await planRoster(tx, actor, kind, mode, read.columns, read.rows);
    if (problems.length > 0) throw refused(problems.sort((a, b) => a.row! - b.row! || a.field!.localeCompare(b.field!)));
    const groupIds = await groupsByName(tx, actor, [...new Set(planned.flatMap((plan) => (plan.joins && plan.row.group ? [plan.row.group] : [])))]);
    const now = new Date();
    // Ids made here, so each membership knows its person without relying on the order rows come back in.
    const created = planned.filter((plan) => plan.action === "created");
    for (const plan of created) plan.id = newId();
    await insertRows(
      tx,
      kind === "students" ? "Student" : "Candidate",
      [
        "id",
        "organizationId",
        "createdById",
        "name",
        "searchName",
        "email",
        "externalId",
        "dateOfBirth",
        "phone",
        "age",
        "grade",
        "gender",
        "status",
        "createdAt",
        "updatedAt",
      ],
      created.map(({ id, row: { input } }) => [
        id,
        actor.organizationId,
        actor.userId,
        input.name,
        foldForSearch(input.name),
        input.email ?? null,
        input.externalId ?? null,
        input.dateOfBirth ?? null,
        input.phone ?? null,
        input.age ?? null,
        input.grade ?? null,
        input.gender ?? null,
        input.status ?? (kind === "students" ? "ACTIVE" : "NEW"),
        now,
        now,
      ]),
      { enumTypes: { status: kind === "students" ? "StudentStatus" : "CandidateStatus" } },
    );
    const updated = planned.filter((plan) => plan.action === "updated");
    const updatedPeople = [];
    for (const plan of updated) {
      const { name, ...rest } = plan.changes;
      const data = { ...rest, ...(typeof name === "string" ? { name, searchName: foldForSearch(name) } : {}), updatedAt: now };
      const select = { id: true, name: true, externalId: true } as const;
      updatedPeople.push(
        kind === "students"
          ? await tx.student.update({ where: { id: plan.id! }, data: data as Prisma.StudentUpdateInput, select })
          : await tx.candidate.update({ where: { id: plan.id! }, data: data as Prisma.CandidateUpdateInput, select }),
      );
      if (typeof name === "string") await refreshRespondentSearchText(tx, kind === "students" ? { studentId: plan.id! } : { candidateId: plan.id! }, name);
    }
    const memberships = planned.flatMap((plan) => {
      const groupId = plan.joins ? groupIds.ids.get(plan.joins) : undefined;
      return groupId ? [[newId(), groupId, kind === "students" ? plan.id : null, kind === "candidates" ? plan.id : null, now]] : [];
    });
    await insertRows(tx, "GroupMember", ["id", "groupId", "studentId", "candidateId", "createdAt"], memberships);
    // The groups that were there already have new members: a change for the lists read with updatedSince (ADR 52).
    // (A person who joins one is an "updated" row, whose updatedAt is set above.)
    const joined = [...new Set(memberships.map((membership) => membership[1] as string))];
    if (joined.length > 0) await tx.group.updateMany({ where: { id: { in: joined } }, data: { updatedAt: now } });
    await emitWebhookEvents(
      tx,
      onCreate,
      createdEvent,
      created.map(({ id, row: { input } }) => ({ id: id!, name: input.name, externalId: input.externalId ?? null, createdAt: now.toISOString() })),
    );
    await emitWebhookEvents(
      tx,
      onUpdate,
      "student.updated",
      updatedPeople.map((student) => ({ ...student, updatedAt: now.toISOString() })),
    );
    // One event for the file, with its counts: the people themselves are named by no event (§20).
    await recordAudit(tx, {
      by: actor,
      action: kind === "students" ? "students.imported" : "candidates.imported",
      targetId: actor.organizationId,
      details: { mode, rows: read.total, ...counts(planned), groupsCreated: groupIds.created },
    });
    if (mode === "create") return { created: created.length, groupsCreated: groupIds.created, encoding: source.encoding };
    return {
      ...counts(planned),
      groupsCreated: groupIds.created,
      rows: planned.map((plan) => ({ row: plan.row.line, id: plan.id!, action: plan.action })),
      encoding: source.encoding,
    };
  }, LONG_WRITE);
}

/** The ids of the groups named (matched without case or accents), creating the missing ones. */
async function groupsByName(tx: Prisma.TransactionClient, actor: Actor, names: string[]) {
  const ids = new Map<string, string>();
  if (names.length === 0) return { ids, created: 0 };
  const existing = await tx.group.findMany({
    where: { organizationId: actor.organizationId, deletedAt: null, searchName: { in: names.map(foldForSearch) } },
    select: { id: true, searchName: true },
  });
  for (const group of existing) ids.set(group.searchName, group.id);
  // The missing ones in one statement, with ids made here (names that fold alike are one group).
  const missing = new Map<string, { id: string; name: string }>();
  for (const name of names) {
    const key = foldForSearch(name);
    if (!ids.has(key) && !missing.has(key)) missing.set(key, { id: newId(), name: name.slice(0, 200) });
  }
  const now = new Date();
  await insertRows(
    tx,
    "Group",
    ["id", "organizationId", "createdById", "name", "searchName", "createdAt", "updatedAt"],
    [...missing].map(([searchName, group]) => [group.id, actor.organizationId, actor.userId, group.name, searchName, now, now]),
  );
  for (const [key, group] of missing) ids.set(key, group.id);
  const created = missing.size;
  return { ids, created };
}
