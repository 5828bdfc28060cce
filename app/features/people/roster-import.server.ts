import { randomUUID } from "node:crypto";
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

/**
 * A class list from a spreadsheet (contract §11): a CSV file, comma or semicolon separated (what
 * Excel writes depends on the locale), UTF-8 with or without a byte order mark, one person a row,
 * a header naming the columns. Every row is checked with the same schema as one created by hand;
 * a dry run answers what the import would do, and the import itself writes every row or none.
 */
export const IMPORT_ROW_LIMIT = 5000;
const PROFILE_COLUMNS = ["name", "email", "phone", "age", "grade", "gender", "status"] as const;
const COLUMNS = new Set<string>([...PROFILE_COLUMNS, "group"]);

type Kind = "students" | "candidates";
const SCHEMAS = { students: createStudentBody, candidates: createCandidateBody } as const;
type Input = z.output<(typeof SCHEMAS)[Kind]>;
type Row = { line: number; input: Input; group: string | null };

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

/** The rows of the file, checked; problems by line and column, every one of them. */
async function checkRoster(actor: Actor, kind: Kind, text: string) {
  let records: string[][];
  try {
    records = parse(text, { bom: true, delimiter: separatorOf(text.replace(/^\uFEFF/, "")), relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { rows: [], total: 0, problems: [problemAt(line, "file", "unreadableRow")] };
  }
  const [header = [], ...body] = records;
  const columns = header.map((name) => name.trim().toLowerCase());
  const problems: FieldProblem[] = [];
  columns.forEach((column, index) => {
    if (!COLUMNS.has(column)) problems.push(problemAt(1, header[index]!.trim() || `#${index + 1}`, "unknownColumn"));
  });
  if (!columns.includes("name")) problems.push(problemAt(1, "name", "nameColumn"));
  if (body.length === 0) problems.push(problemAt(1, "file", "noRows"));
  if (body.length > IMPORT_ROW_LIMIT) problems.push(problemAt(1, "file", "tooManyRows", "5,000"));
  if (problems.length > 0) return { rows: [], total: body.length, problems };

  const schema = coerceFormValue(SCHEMAS[kind]);
  const rows: Row[] = [];
  body.forEach((cells, index) => {
    const line = index + 2;
    const value: Record<string, string> = {};
    columns.forEach((column, position) => {
      const cell = (cells[position] ?? "").trim();
      if (column !== "group") value[column] = column === "status" ? cell.toUpperCase() : cell;
    });
    const group = cells[columns.indexOf("group")]?.trim() || null;
    const parsed = schema.safeParse(value);
    if (parsed.success) rows.push({ line, input: parsed.data as Input, group });
    else
      for (const issue of parsed.error.issues)
        problems.push(problemAt(line, String(issue.path[0] ?? "file"), issueMessage(issue).key, ...issueMessage(issue).params));
  });

  // An e-mail address is one person's: not twice in the file, not already in the organization.
  const seen = new Map<string, number>();
  for (const row of rows) {
    const email = row.input.email;
    if (!email) continue;
    if (seen.has(email)) problems.push(problemAt(row.line, "email", "emailTwice"));
    else seen.set(email, row.line);
  }
  problems.push(...(await emailsTaken(db, actor, kind, seen)));
  problems.sort((a, b) => a.row! - b.row! || a.field!.localeCompare(b.field!));
  return { rows, total: body.length, problems };
}

/** A problem for each address of `lines` (address → line of the file) already used in the organization. */
async function emailsTaken(client: Prisma.TransactionClient, actor: Actor, kind: Kind, lines: Map<string, number>): Promise<FieldProblem[]> {
  if (lines.size === 0) return [];
  const where = { organizationId: actor.organizationId, deletedAt: null, email: { in: [...lines.keys()] } };
  const taken =
    kind === "students"
      ? await client.student.findMany({ where, select: { email: true } })
      : await client.candidate.findMany({ where, select: { email: true } });
  return taken.map(({ email }) => problemAt(lines.get(email!)!, "email", "emailTaken"));
}

const asResponse = (problem: FieldProblem) => ({ row: problem.row!, field: problem.field!, message: problem.message });

/** `?dryRun=true`: how many rows there are, how many would be imported, and every problem. */
export async function previewRoster(actor: Actor, kind: Kind, text: string) {
  const { rows, total, problems } = await checkRoster(actor, kind, text);
  const badLines = new Set(problems.map((problem) => problem.row));
  return { rows: total, valid: rows.filter((row) => !badLines.has(row.line)).length, errors: problems.map(asResponse), problems };
}

/** Every row in one transaction, with the groups the file names and that do not exist yet; any problem writes nothing (400). */
export async function importRoster(actor: Actor, kind: Kind, text: string) {
  const { rows, problems } = await checkRoster(actor, kind, text);
  if (problems.length > 0) throw badRequest("Some rows of the file need attention; nothing was imported.", problems);
  return db.$transaction(async (tx) => {
    // The same file sent twice at once (a double click, a retried nightly sync): the second import
    // waits for the first, then finds its addresses taken and its groups there.
    await serializeWrites(tx, "roster", actor.organizationId);
    const lines = new Map(rows.flatMap((row) => (row.input.email ? [[row.input.email, row.line] as const] : [])));
    const taken = await emailsTaken(tx, actor, kind, lines);
    if (taken.length > 0) throw badRequest("Some rows of the file need attention; nothing was imported.", taken);
    const groupIds = await groupsByName(tx, actor, [...new Set(rows.flatMap((row) => (row.group ? [row.group] : [])))]);
    // Ids made here, so each membership knows its person without relying on the order rows come back in.
    const now = new Date();
    const ids = rows.map(() => randomUUID());
    await insertRows(
      tx,
      kind === "students" ? "Student" : "Candidate",
      ["id", "organizationId", "createdById", "name", "searchName", "email", "phone", "age", "grade", "gender", "status", "createdAt", "updatedAt"],
      rows.map(({ input }, index) => [
        ids[index],
        actor.organizationId,
        actor.userId,
        input.name,
        foldForSearch(input.name),
        input.email ?? null,
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
    const memberships = rows.flatMap((row, index) => {
      const groupId = row.group ? groupIds.ids.get(foldForSearch(row.group)) : undefined;
      return groupId ? [[randomUUID(), groupId, kind === "students" ? ids[index] : null, kind === "candidates" ? ids[index] : null, now]] : [];
    });
    await insertRows(tx, "GroupMember", ["id", "groupId", "studentId", "candidateId", "createdAt"], memberships);
    // The groups that were there already have new members: a change for the lists read with updatedSince (ADR 52).
    const joined = [...new Set(memberships.map((membership) => membership[1] as string))];
    if (joined.length > 0) await tx.group.updateMany({ where: { id: { in: joined } }, data: { updatedAt: now } });
    return { created: rows.length, groupsCreated: groupIds.created };
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
    if (!ids.has(key) && !missing.has(key)) missing.set(key, { id: randomUUID(), name: name.slice(0, 200) });
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
