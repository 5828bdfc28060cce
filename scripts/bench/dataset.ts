import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { hashPassword } from "../../app/lib/auth/password.server.ts";
import { foldForSearch } from "../../app/lib/search.ts";
import { applyPendingMigrations } from "../../server/database/migrations.ts";
import { COMMON_FRAGMENT, FIRST_NAMES, FORM_TOPICS, LAST_NAMES, RARE_RESPONDENT, seededRandom } from "./names.ts";
import { dialectOf, openSqlClient, type SqlClient } from "../../app/lib/sql-client.server.ts";

/**
 * The benchmark's world: a school network with 20 organizations and `rows` completed submissions
 * (1,000,000 by default) spread over five years, written straight through the driver because
 * going through the app would take hours. The world is described by a row in "BenchWorld", so a
 * later run finds the same database and reuses it instead of seeding again.
 */
export const WORLD_VERSION = 1;
export const BENCH_PASSWORD = "bench-password-2026";

const ORGANIZATIONS = 20;
const TEACHERS_PER_ORGANIZATION = 12;
const FORMS_PER_ORGANIZATION = 24;
/** The first organization is the big one whose administrator the benchmark signs in as. */
const BIG_ORGANIZATION_SHARE = 0.25;
/** Every Nth submission keeps its answer rows (see docs/benchmarking.md: the answer table's size). */
const ANSWERS_EVERY = 25;
const QUESTION_COUNTS = [5, 6, 8, 8, 10, 10, 12, 15];
const BANDS = [
  { label: "Low", color: "#16a34a", from: 0, to: 0.4 },
  { label: "Moderate", color: "#d97706", from: 0.4, to: 0.7 },
  { label: "High", color: "#dc2626", from: 0.7, to: 1 },
];

export type BenchQuestion = { id: string; optionIds: string[] };
export type BenchWorld = {
  version: number;
  rows: number;
  organizationId: string;
  adminEmail: string;
  teacherId: string;
  /** Forms of the big organization used by the write and export scenarios. */
  submitForm: { id: string; questions: BenchQuestion[] };
  exportSubmissionIds: string[];
  studentIds: string[];
  search: { selective: string; common: string };
  /** The form summary scenario's organization (addSummaryWorld); a world without it stopped half way through seeding. */
  summary?: SummaryWorld;
};

/** The form summary scenario's organization: one form answered `rows / 4` times (250,000 at 1,000,000), every answer kept. */
export type SummaryWorld = { organizationId: string; adminEmail: string; formId: string; completed: number; open: number };

type Row = Record<string, unknown>;

let idCounter = 0;
const idPrefix = randomBytes(4).toString("hex");
/** cuid-shaped ids (25 characters, starting with c), unique within and across runs. */
function newId(): string {
  idCounter += 1;
  return `c${idPrefix}${idCounter.toString(36).padStart(8, "0")}${randomBytes(6).toString("hex").slice(0, 8)}`;
}

const tokenPool = { buffer: Buffer.alloc(0), offset: 0 };
function newToken(): string {
  if (tokenPool.offset + 32 > tokenPool.buffer.length) {
    tokenPool.buffer = randomBytes(32 * 4096);
    tokenPool.offset = 0;
  }
  const token = tokenPool.buffer.subarray(tokenPool.offset, tokenPool.offset + 32).toString("base64url");
  tokenPool.offset += 32;
  return token;
}

const BATCH_ROWS = 500;

/**
 * Batched multi-row inserts: one prepared statement per batch size on SQLite, 500-row statements
 * on PostgreSQL. Each table's rows go out as soon as it has 500 waiting, or, made with
 * `{ held: true }`, only when `flush` is called (a chunk of ChunkedWriter).
 */
class BulkInserter {
  private pending = new Map<string, Row[]>();
  constructor(
    private client: SqlClient,
    private options: { held?: boolean } = {},
  ) {}

  async add(table: string, row: Row) {
    let rows = this.pending.get(table);
    if (!rows) this.pending.set(table, (rows = []));
    rows.push(row);
    // Flushing every table, parents first, keeps foreign keys satisfied on both databases.
    if (rows.length >= BATCH_ROWS && !this.options.held) await this.flush();
  }

  private async flushTable(table: string, client: SqlClient) {
    const rows = this.pending.get(table);
    if (!rows || rows.length === 0) return;
    this.pending.set(table, []);
    const columns = Object.keys(rows[0]!);
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    for (let from = 0; from < rows.length; from += BATCH_ROWS) {
      const batch = rows.slice(from, from + BATCH_ROWS);
      const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${batch.map(() => tuple).join(", ")}`;
      await runRetryingDeadlocks(
        client,
        sql,
        batch.flatMap((row) => columns.map((column) => row[column])),
      );
    }
  }

  /** Writes what is waiting, through `client` (by default the inserter's own). */
  async flush(client: SqlClient = this.client) {
    // Parents before children: the order tables were first written in.
    for (const table of this.pending.keys()) await this.flushTable(table, client);
  }
}

/**
 * A statement that commits on its own, run again if PostgreSQL ended it to break a deadlock (it
 * wrote nothing then). Two of ChunkedWriter's connections can deadlock while both write a form
 * title new to the organization (SubmissionFormTitle's ON CONFLICT DO NOTHING waits for the
 * other's uncommitted row), in opposite orders.
 */
async function runRetryingDeadlocks(client: SqlClient, sql: string, params: unknown[]): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.run(sql, params);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01" || attempt === 5) throw error;
    }
  }
}

/**
 * Where the seed's long runs of rows go (the results, the summary form's), a chunk at a time:
 * `fill` adds one chunk's rows, parents first.
 *
 * SQLite: one transaction per chunk on the seed's connection (its writers take turns anyway).
 * PostgreSQL: the chunks go out over two connections, one chunk in flight on each, while this
 * process makes the next. On one connection the server's backend was the seed's bottleneck (a
 * million results in 373 s, the backend 87 % busy, the seed's JavaScript 20 %) and the second
 * core idle once the build and the smaller data set were done. Each 500-row statement commits on
 * its own, as it did on one connection (the pool's), so the statement triggers' locks (the counts',
 * the versions', the tallies') are held for one statement. A chunk's rows stay on one connection,
 * in the order they were written, so an answer's result has committed before the answer's tally
 * trigger looks it up. The rows, and the order `fill` makes them in, are the same on both
 * databases: the same seed, the same world.
 */
class ChunkedWriter {
  private connections: SqlClient[];
  private inFlight: (Promise<void> | undefined)[];
  private next = 0;

  constructor(
    databaseUrl: string,
    private client: SqlClient,
  ) {
    this.connections = client.dialect === "postgresql" ? [0, 1].map(() => openSqlClient(databaseUrl, { poolSize: 1 })) : [];
    this.inFlight = this.connections.map(() => undefined);
  }

  async write(fill: (insert: BulkInserter) => Promise<void>): Promise<void> {
    if (this.connections.length === 0) {
      await this.client.transaction(async () => {
        const insert = new BulkInserter(this.client);
        await fill(insert);
        await insert.flush();
      });
      return;
    }
    const chunk = new BulkInserter(this.client, { held: true });
    await fill(chunk);
    const lane = this.next;
    this.next = (lane + 1) % this.connections.length;
    await this.inFlight[lane];
    const written = chunk.flush(this.connections[lane]);
    // Awaited when the connection is next needed, or by `close`; until then a failure must not go unhandled.
    written.catch(() => {});
    this.inFlight[lane] = written;
  }

  /** Waits for every chunk to be written and closes the connections. */
  async close(): Promise<void> {
    try {
      await Promise.all(this.inFlight);
    } finally {
      await Promise.all(this.connections.map((connection) => connection.close()));
    }
  }
}

async function readWorld(client: SqlClient): Promise<BenchWorld | null> {
  try {
    const rows = await client.all<{ world: string }>(`SELECT "world" FROM "BenchWorld" WHERE "id" = 1`);
    return rows[0] ? (JSON.parse(rows[0].world) as BenchWorld) : null;
  } catch {
    return null;
  }
}

async function recreatePostgresDatabase(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
}

async function postgresDatabaseExists(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const result = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [url.pathname.slice(1)]);
  await client.end();
  return result.rowCount === 1;
}

/** Reuses the database when it holds this version of the world with as many rows; seeds it otherwise. */
export async function ensureBenchDatabase(databaseUrl: string, rows: number, log: (message: string) => void): Promise<BenchWorld> {
  const dialect = dialectOf(databaseUrl);
  const exists = dialect === "sqlite" ? existsSync(databaseUrl.replace(/^file:/, "")) : await postgresDatabaseExists(databaseUrl);
  if (exists) {
    const client = openSqlClient(databaseUrl);
    const world = await readWorld(client);
    await client.close();
    // A world without its summary stopped half way through seeding it (withAnswerTalliesCountedAfter): seeded again.
    if (world && world.version === WORLD_VERSION && world.rows === rows && world.summary) {
      const applied = await applyPendingMigrations(databaseUrl, { log: () => {} });
      if (applied.length > 0) log(`applied ${applied.length} new migration(s) to the existing data set: ${applied.join(", ")}`);
      log(`reusing the data set with ${rows.toLocaleString("en")} submissions`);
      return world;
    }
  }
  if (dialect === "sqlite") {
    const file = databaseUrl.replace(/^file:/, "");
    mkdirSync(path.dirname(file), { recursive: true });
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${file}${suffix}`, { force: true });
  } else {
    await recreatePostgresDatabase(databaseUrl);
  }
  await applyPendingMigrations(databaseUrl, { log: () => {} });
  const started = Date.now();
  const seeded = await withIndexesBuiltAfter(databaseUrl, ["Submission", "Answer"], log, async () => {
    const world = await seedWorld(databaseUrl, rows, log);
    log(`seeded ${rows.toLocaleString("en")} submissions in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return addSummaryWorld(databaseUrl, world, log);
  });
  await vacuumAnalyze(databaseUrl);
  log(`data set ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return seeded;
}

/**
 * Runs a bulk load with the tables' secondary indexes dropped, then builds them again. Keeping
 * their ten or eleven indexes (a trigram index among them on PostgreSQL) up to date row by row is most of a
 * seed's time, and it grows faster than the rows: on PostgreSQL, 100,000 results took 59 s and
 * 1,000,000 took 16.6 min. One sorted build per index at the end is the way databases are loaded.
 * The triggers stay: the counts, versions, tallies and the search table are filled as the app
 * fills them. Primary keys stay too (PostgreSQL's foreign keys need them).
 */
async function withIndexesBuiltAfter<T>(databaseUrl: string, tables: string[], log: (message: string) => void, load: () => Promise<T>): Promise<T> {
  const client = openSqlClient(databaseUrl);
  const names = tables.map((table) => `'${table}'`).join(", ");
  const indexes =
    client.dialect === "sqlite"
      ? await client.all<{ name: string; definition: string }>(
          `SELECT "name", "sql" AS "definition" FROM sqlite_master WHERE "type" = 'index' AND "tbl_name" IN (${names}) AND "sql" IS NOT NULL`,
        )
      : await client.all<{ name: string; definition: string }>(
          `SELECT "indexname" AS "name", "indexdef" AS "definition" FROM pg_indexes
           WHERE "schemaname" = current_schema() AND "tablename" IN (${names})
             AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE "conname" = "indexname")`,
        );
  // PostgreSQL checks a foreign key with a query per row (five per result); added back after the
  // load, each is checked once over the whole table, as pg_restore does.
  const foreignKeys =
    client.dialect === "postgresql"
      ? await client.all<{ table: string; name: string; definition: string }>(
          `SELECT conrelid::regclass::text AS "table", "conname" AS "name", pg_get_constraintdef(oid) AS "definition" FROM pg_constraint
           WHERE "contype" = 'f' AND conrelid::regclass::text IN (${tables.map((table) => `'"${table}"'`).join(", ")})`,
        )
      : [];
  for (const key of foreignKeys) await client.run(`ALTER TABLE ${key.table} DROP CONSTRAINT "${key.name}"`);
  for (const index of indexes) await client.run(`DROP INDEX "${index.name}"`);
  await client.close();
  const result = await load();
  const started = Date.now();
  // One connection, so that the memory setting applies to every build.
  const builder = openSqlClient(databaseUrl, { poolSize: 1 });
  if (builder.dialect === "postgresql") await builder.run("SET maintenance_work_mem = '512MB'");
  for (const index of indexes) await builder.run(index.definition);
  for (const key of foreignKeys) await builder.run(`ALTER TABLE ${key.table} ADD CONSTRAINT "${key.name}" ${key.definition}`);
  await builder.close();
  log(
    `built ${indexes.length} indexes${foreignKeys.length > 0 ? ` and ${foreignKeys.length} foreign keys` : ""} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return result;
}

/** Fresh planner statistics; on PostgreSQL the deleted rows' space reclaimed too (VACUUM). */
export async function vacuumAnalyze(databaseUrl: string) {
  const client = openSqlClient(databaseUrl);
  await client.run(client.dialect === "postgresql" ? "VACUUM ANALYZE" : "ANALYZE");
  await client.close();
}

export const SUMMARY_ADMIN_EMAIL = "admin@summary.bench.test";

/** An organization's administrator (admin@domain) and `teachers` teachers (teacherN@domain), each teacher with its Teacher row. */
async function insertStaff(
  insert: BulkInserter,
  organizationId: string,
  domain: string,
  teachers: number,
  options: { name: () => string; passwordHash: string; now: Date },
): Promise<{ adminEmail: string; teachers: string[] }> {
  const { now } = options;
  const teacherIds: string[] = [];
  for (let u = 0; u <= teachers; u += 1) {
    const userId = newId();
    const isAdmin = u === 0;
    const email = isAdmin ? `admin@${domain}` : `teacher${u}@${domain}`;
    const name = options.name();
    await insert.add("User", {
      id: userId,
      organizationId,
      email,
      name,
      searchName: foldForSearch(`${name} ${email}`),
      role: isAdmin ? "ADMIN" : "TEACHER",
      passwordHash: options.passwordHash,
      locale: "en",
      isActive: true,
      createdAt: now,
      updatedAt: now,
    });
    if (!isAdmin) {
      await insert.add("Teacher", { id: newId(), organizationId, userId, createdAt: now, updatedAt: now });
      teacherIds.push(userId);
    }
  }
  return { adminEmail: `admin@${domain}`, teachers: teacherIds };
}

/**
 * The form summary scenario's world, seeded after the rest of the data set: an organization of
 * its own, so the other scenarios' organizations, their counts and their plans stay as they were,
 * with one 10-question form completed `rows / 4` times (every answer row kept, as the app writes
 * them), and links still waiting, expired and withdrawn (2 %, 1 % and 0.5 % as many). Its people's names share no fragment with the searches' terms, so the
 * search scenarios' matches are the same too; only the tables are bigger.
 */
async function addSummaryWorld(databaseUrl: string, world: BenchWorld, log: (message: string) => void): Promise<BenchWorld> {
  const started = Date.now();
  const client = openSqlClient(databaseUrl);
  if (client.dialect === "sqlite") await client.run("PRAGMA synchronous = OFF");
  const random = seededRandom(2027);
  const insert = new BulkInserter(client);
  const now = new Date();
  const columns = await submissionColumns(client);
  const organizationId = newId();
  const teachers: string[] = [];
  const people: SeedPerson[] = [];
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const searched = [
    COMMON_FRAGMENT,
    ...foldForSearch(RARE_RESPONDENT)
      .split(/[^a-z]+/)
      .filter(Boolean),
  ];
  const unsearched = (names: readonly string[]) => names.filter((name) => !searched.some((term) => foldForSearch(name).includes(term)));
  const [firstNames, lastNames] = [unsearched(FIRST_NAMES), unsearched(LAST_NAMES)];
  let form: SeedForm | undefined;
  await client.transaction(async () => {
    await insert.add("Organization", { id: organizationId, name: "Summary school", createdAt: now, updatedAt: now });
    teachers.push(
      ...(
        await insertStaff(insert, organizationId, "summary.bench.test", 3, {
          name: () => `${random.pick(firstNames)} ${random.pick(lastNames)}`,
          passwordHash,
          now,
        })
      ).teachers,
    );
    await insert.flush();
    form = await insertForm(insert, organizationId, teachers[0]!, "Benchmark summary (10 questions)", 10, now);
    for (let p = 0; p < 3500; p += 1) {
      const kind = p < 3000 ? "student" : "candidate";
      const name = `${random.pick(firstNames)} ${random.pick(lastNames)}`;
      const age = random.int(6, 18);
      const person: SeedPerson = { id: newId(), name, kind, age, grade: `Grade ${Math.max(1, age - 5)}`, search: foldForSearch(name) };
      await insert.add(kind === "student" ? "Student" : "Candidate", {
        id: person.id,
        organizationId,
        name,
        searchName: person.search,
        email: `${person.search.replace(/[^a-z]+/g, ".")}.${p}@summary.bench.test`,
        age,
        grade: person.grade,
        status: kind === "student" ? "ACTIVE" : "IN_EVALUATION",
        createdAt: now,
        updatedAt: now,
      });
      people.push(person);
    }
    await insert.flush();
  });
  const summaryForm = form!;
  const completed = Math.round(world.rows / 4);
  const open = Math.round(completed * 0.035);
  const fiveYears = 5 * 365 * 86_400_000;
  // Each respondent leans towards some answers, so the bands and options are not all alike.
  const leaning = new Map(people.map((person) => [person.id, random.next()]));
  const statistics = new GrowingTableStatistics(client);
  await withAnswerTalliesCountedAfter(client, summaryForm.id, async () => {
    const writer = new ChunkedWriter(databaseUrl, client);
    try {
      for (let written = 0; written < completed + open; ) {
        await statistics.refresh(written);
        await writer.write(async (insert) => {
          for (let i = 0; i < 20_000 && written < completed + open; i += 1, written += 1) {
            const person = random.pick(people);
            const assignedById = random.pick(teachers);
            if (written >= completed) {
              // Waiting (2 %), expired (1 %) or withdrawn (0.5 %).
              const share = (written - completed) / open;
              const createdAt = new Date(now.getTime() - random.int(2, 60) * 86_400_000);
              const afterADay = new Date(createdAt.getTime() + 86_400_000);
              await insert.add("Submission", {
                id: newId(),
                organizationId,
                formId: summaryForm.id,
                studentId: person.kind === "student" ? person.id : null,
                candidateId: person.kind === "candidate" ? person.id : null,
                assignedById,
                token: newToken(),
                isCompleted: false,
                expiresAt: share >= 2 / 3.5 && share < 3 / 3.5 ? afterADay : null,
                revokedAt: share >= 3 / 3.5 ? afterADay : null,
                createdAt,
                updatedAt: createdAt,
              });
              continue;
            }
            const completedAt = new Date(now.getTime() - Math.floor(random.next() * fiveYears));
            const createdAt = new Date(completedAt.getTime() - random.int(10, 14 * 86_400) * 1000);
            const lean = leaning.get(person.id)!;
            const answers = summaryForm.questions.map((question) => question.options[Math.min(3, Math.floor((random.next() + lean) * 2))]!);
            const id = newId();
            await insert.add(
              "Submission",
              completedSubmissionRow({ id, organizationId, assignedById, form: summaryForm, person, answers, createdAt, completedAt, columns }),
            );
            await insertAnswers(insert, id, summaryForm, answers, completedAt);
          }
        });
      }
    } finally {
      await writer.close();
    }
  });
  const summary: SummaryWorld = { organizationId, adminEmail: SUMMARY_ADMIN_EMAIL, formId: summaryForm.id, completed, open };
  const extended = { ...world, summary };
  await client.run(`UPDATE "BenchWorld" SET "world" = ? WHERE "id" = 1`, [JSON.stringify(extended)]);
  await client.close();
  log(
    `added the summary form: ${completed.toLocaleString("en")} completed results in an organization of its own, in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return extended;
}

/**
 * Writes the summary form's answers with the summary tallies' answer trigger off, then counts them
 * the way that trigger does, in one statement over the whole form (it is new: nothing else has
 * counted it). The trigger's work per answer (two upserts on SQLite, one statement per 500 answers
 * on PostgreSQL) was about a fifth of the summary form's seed: at 200,000 rows 26 → 21 s on SQLite,
 * 56 → 49 s on PostgreSQL; the rest is writing the answer rows.
 * Every other answer of the world, and every result (the results' trigger stays on), is counted by
 * the triggers as the app's are. Should the process stop half way, the world was never marked as
 * having a summary and ensureBenchDatabase seeds the whole data set again (a trigger left off
 * would otherwise stay off in a reused one).
 */
async function withAnswerTalliesCountedAfter(client: SqlClient, formId: string, load: () => Promise<void>) {
  const trigger = "Answer_summary_insert";
  if (client.dialect === "sqlite") {
    const [definition] = await client.all<{ sql: string }>(`SELECT "sql" FROM sqlite_master WHERE "type" = 'trigger' AND "name" = ?`, [trigger]);
    if (!definition) throw new Error(`the trigger ${trigger} is missing: delete data/bench and run again`);
    await client.run(`DROP TRIGGER "${trigger}"`);
    try {
      await load();
    } finally {
      await client.run(definition.sql);
    }
  } else {
    await client.run(`ALTER TABLE "Answer" DISABLE TRIGGER "${trigger}"`);
    try {
      await load();
    } finally {
      await client.run(`ALTER TABLE "Answer" ENABLE TRIGGER "${trigger}"`);
    }
  }
  // The trigger's statement (prisma/migrations/*/…_summary_tallies), over all of the form's answers at once.
  const [optionCount, optionElements] =
    client.dialect === "sqlite"
      ? ['json_array_length(a."optionIds")', 'json_each(a."optionIds") AS o']
      : ['jsonb_array_length(a."optionIds")', 'LATERAL jsonb_array_elements_text(a."optionIds") AS o(value)'];
  const counted = 's."formId" = ? AND s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL';
  await client.run(
    `INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
     SELECT "formId", "assignedById", "questionId", "optionId", SUM("answers"), SUM("scoreSum") FROM (
       SELECT s."formId", s."assignedById", a."questionId", '' AS "optionId", 1 AS "answers", a."score" AS "scoreSum"
       FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId"
       WHERE ${counted} AND (${optionCount} > 0 OR a."text" IS NOT NULL)
       UNION ALL
       SELECT s."formId", s."assignedById", a."questionId", o.value, 1, 0
       FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId" CROSS JOIN ${optionElements}
       WHERE ${counted}
     ) AS "answers"
     GROUP BY 1, 2, 3, 4`,
    [formId, formId],
  );
}

/**
 * PostgreSQL plans the summary tallies' trigger (answers joined to their results) from the
 * results table's statistics. Left at an empty table's, it hashes the whole results table for
 * every 500 answers written, and the seed grows with the square of the rows. ANALYZE each time
 * the rows have doubled keeps the plan an index lookup, as it is in a running service, where
 * autovacuum keeps the statistics.
 */
class GrowingTableStatistics {
  private next = 20_000;
  constructor(private client: SqlClient) {}

  async refresh(written: number) {
    if (this.client.dialect !== "postgresql" || written < this.next) return;
    await this.client.run(`ANALYZE "Submission"`);
    this.next = written * 2;
  }
}

type SeedForm = {
  id: string;
  organizationId: string;
  title: string;
  questions: { id: string; text: string; type: string; required: boolean; options: { id: string; text: string; score: number }[] }[];
  maxScore: number;
  /** The JSON of questions and bands as a completed submission keeps them (see ScoredAgainst). */
  questionsJson: string;
  bandsJson: string;
  bands: { min: number; max: number; label: string; color: string }[];
};
type SeedPerson = { id: string; name: string; kind: "student" | "candidate"; grade: string; age: number; search: string };

async function seedWorld(databaseUrl: string, rows: number, log: (message: string) => void): Promise<BenchWorld> {
  const client = openSqlClient(databaseUrl);
  const dialect = client.dialect;
  if (dialect === "sqlite") {
    // Seeding only: the file is thrown away if the process dies half way.
    await client.run("PRAGMA synchronous = OFF");
  }
  const random = seededRandom(2026);
  const insert = new BulkInserter(client);
  const now = new Date();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const columns = await submissionColumns(client);

  const organizations: { id: string; teachers: string[]; forms: SeedForm[]; people: SeedPerson[] }[] = [];
  let adminEmail = "";
  let submitForm: SeedForm | undefined;
  let exportForm: SeedForm | undefined;

  await client.transaction(async () => {
    for (let o = 0; o < ORGANIZATIONS; o += 1) {
      const organizationId = newId();
      await insert.add("Organization", { id: organizationId, name: `School ${o + 1}`, createdAt: now, updatedAt: now });
      const staff = await insertStaff(insert, organizationId, `school${o + 1}.bench.test`, TEACHERS_PER_ORGANIZATION, {
        name: () => `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`,
        passwordHash,
        now,
      });
      if (o === 0) adminEmail = staff.adminEmail;
      const teachers = staff.teachers;
      await insert.flush();

      const forms: SeedForm[] = [];
      const formSpecs = FORM_TOPICS.slice(0, FORMS_PER_ORGANIZATION).map((topic) => ({ title: topic, questions: random.pick(QUESTION_COUNTS) }));
      if (o === 0)
        formSpecs.push({ title: "Benchmark intake (20 questions)", questions: 20 }, { title: "Benchmark full battery (30 questions)", questions: 30 });
      for (const spec of formSpecs) {
        const form = await insertForm(insert, organizationId, teachers[0]!, spec.title, spec.questions, now);
        forms.push(form);
        if (spec.questions === 20) submitForm = form;
        if (spec.questions === 30) exportForm = form;
      }
      await insert.flush();

      const people: SeedPerson[] = [];
      const studentCount = o === 0 ? 6000 : 2500;
      const candidateCount = o === 0 ? 1200 : 600;
      for (let p = 0; p < studentCount + candidateCount; p += 1) {
        const kind = p < studentCount ? "student" : "candidate";
        const name =
          o === 0 && p === 0
            ? RARE_RESPONDENT
            : `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}${random.next() < 0.3 ? ` ${random.pick(LAST_NAMES)}` : ""}`;
        const age = random.int(6, 18);
        const person: SeedPerson = { id: newId(), name, kind, age, grade: `Grade ${Math.max(1, age - 5)}`, search: foldForSearch(name) };
        const createdAt = new Date(now.getTime() - random.int(0, 5 * 365) * 86_400_000);
        await insert.add(kind === "student" ? "Student" : "Candidate", {
          id: person.id,
          organizationId,
          name,
          searchName: person.search,
          email: `${person.search.replace(/[^a-z]+/g, ".")}.${p}@school${o + 1}.bench.test`,
          age,
          grade: person.grade,
          status: kind === "student" ? "ACTIVE" : "IN_EVALUATION",
          createdAt,
          updatedAt: createdAt,
        });
        people.push(person);
      }
      await insert.flush();
      organizations.push({ id: organizationId, teachers, forms, people });
    }
  });
  if (!submitForm || !exportForm) throw new Error("the benchmark forms were not created");
  log(`organizations, users, forms and ${organizations.reduce((n, o) => n + o.people.length, 0).toLocaleString("en")} people written`);

  const exportSubmissionIds: string[] = [];
  const fiveYears = 5 * 365 * 86_400_000;
  let written = 0;
  const chunk = 20_000;
  const statistics = new GrowingTableStatistics(client);
  const writer = new ChunkedWriter(databaseUrl, client);
  try {
    while (written < rows) {
      await statistics.refresh(written);
      await writer.write(async (insert) => {
        for (let i = 0; i < chunk && written < rows; i += 1, written += 1) {
          const organization = random.next() < BIG_ORGANIZATION_SHARE ? organizations[0]! : organizations[1 + Math.floor(random.next() * (ORGANIZATIONS - 1))]!;
          // The rare respondent answers a dozen tests; everyone else is drawn at random.
          const person = written % 80_000 === 0 ? organizations[0]!.people[0]! : random.pick(organization.people);
          const specialPick = organization === organizations[0] && random.next() < 0.04;
          const form = specialPick ? (random.next() < 0.5 ? submitForm! : exportForm!) : random.pick(organization.forms.slice(0, FORMS_PER_ORGANIZATION));
          const completedAt = new Date(now.getTime() - Math.floor(random.next() * fiveYears));
          const createdAt = new Date(completedAt.getTime() - random.int(10, 14 * 86_400) * 1000);
          const answers = form.questions.map((question) => question.options[random.int(0, question.options.length - 1)]!);
          const id = newId();
          const assignedById = random.pick(organization.teachers);
          await insert.add(
            "Submission",
            completedSubmissionRow({ id, organizationId: organization.id, assignedById, form, person, answers, createdAt, completedAt, columns }),
          );
          const keepAnswers = written % ANSWERS_EVERY === 0 || (form === exportForm && exportSubmissionIds.length < 200);
          if (keepAnswers) {
            if (form === exportForm && exportSubmissionIds.length < 200) exportSubmissionIds.push(id);
            await insertAnswers(insert, id, form, answers, completedAt);
          }
        }
      });
      if (written % 100_000 === 0 || written === rows) log(`  ${written.toLocaleString("en")} submissions`);
    }
  } finally {
    await writer.close();
  }

  const big = organizations[0]!;
  const world: BenchWorld = {
    version: WORLD_VERSION,
    rows,
    organizationId: big.id,
    adminEmail,
    teacherId: big.teachers[0]!,
    submitForm: { id: submitForm.id, questions: submitForm.questions.map((q) => ({ id: q.id, optionIds: q.options.map((o) => o.id) })) },
    exportSubmissionIds,
    studentIds: big.people
      .filter((p) => p.kind === "student")
      .slice(1, 2001)
      .map((p) => p.id),
    search: { selective: RARE_RESPONDENT, common: COMMON_FRAGMENT },
  };
  await client.run(`CREATE TABLE IF NOT EXISTS "BenchWorld" ("id" INTEGER PRIMARY KEY, "world" TEXT NOT NULL)`);
  await client.run(`DELETE FROM "BenchWorld"`);
  await client.run(`INSERT INTO "BenchWorld" ("id", "world") VALUES (1, ?)`, [JSON.stringify(world)]);
  await client.close();
  return world;
}

type Option = SeedForm["questions"][number]["options"][number];

/** A completed submission as the app writes it: scores, band, search text, the captured form title and snapshot. */
function completedSubmissionRow(input: {
  id: string;
  organizationId: string;
  assignedById: string;
  form: SeedForm;
  person: SeedPerson;
  answers: Option[];
  createdAt: Date;
  completedAt: Date;
  columns: Set<string>;
}): Row {
  const { form, person, answers } = input;
  const totalScore = answers.reduce((sum, option) => sum + option.score, 0);
  const percentage = Math.round((totalScore / form.maxScore) * 10000) / 100;
  const band = form.bands.find((b) => totalScore >= b.min && totalScore <= b.max) ?? null;
  const respondent = JSON.stringify({ kind: person.kind, id: person.id, name: person.name, grade: person.grade, age: person.age });
  const row: Row = {
    id: input.id,
    organizationId: input.organizationId,
    formId: form.id,
    studentId: person.kind === "student" ? person.id : null,
    candidateId: person.kind === "candidate" ? person.id : null,
    assignedById: input.assignedById,
    token: newToken(),
    isCompleted: true,
    completedAt: input.completedAt,
    totalScore,
    maxScore: form.maxScore,
    percentage,
    scoreLabel: band?.label ?? null,
    scoreColor: band?.color ?? null,
    searchText: `${person.search} ${foldForSearch(form.title)}`,
    scoredAgainst: `{"form":${JSON.stringify({ id: form.id, title: form.title, category: null, type: null })},"respondent":${respondent},"questions":${form.questionsJson},"scoreRanges":${form.bandsJson}}`,
    createdAt: input.createdAt,
    updatedAt: input.completedAt,
  };
  if (input.columns.has("formTitle")) row.formTitle = form.title;
  return row;
}

/** One answer row per question, the chosen option's text and score as the app captures them. */
async function insertAnswers(insert: BulkInserter, submissionId: string, form: SeedForm, answers: Option[], completedAt: Date) {
  for (const [position, question] of form.questions.entries()) {
    const option = answers[position]!;
    await insert.add("Answer", {
      id: newId(),
      submissionId,
      questionId: question.id,
      position,
      questionText: question.text,
      questionType: question.type,
      optionIds: JSON.stringify([option.id]),
      optionTexts: JSON.stringify([option.text]),
      score: option.score,
      maxScore: 3,
      createdAt: completedAt,
    });
  }
}

async function submissionColumns(client: SqlClient): Promise<Set<string>> {
  const rows =
    client.dialect === "sqlite"
      ? await client.all<{ name: string }>(`SELECT "name" FROM pragma_table_info('Submission')`)
      : await client.all<{ name: string }>(`SELECT column_name AS "name" FROM information_schema.columns WHERE table_name = 'Submission'`);
  return new Set(rows.map((row) => row.name));
}

async function insertForm(
  insert: BulkInserter,
  organizationId: string,
  createdById: string,
  title: string,
  questionCount: number,
  now: Date,
): Promise<SeedForm> {
  const id = newId();
  await insert.add("Form", {
    id,
    organizationId,
    createdById,
    title,
    searchTitle: foldForSearch(title),
    description: `${title}: a ${questionCount}-question screening used across the network.`,
    category: "Screening",
    isPublished: true,
    isTemplate: false,
    createdAt: now,
    updatedAt: now,
  });
  const questions: SeedForm["questions"] = [];
  const scale = ["Never", "Sometimes", "Often", "Almost always"];
  for (let q = 0; q < questionCount; q += 1) {
    const questionId = newId();
    const text = `${title}: statement ${q + 1}`;
    await insert.add("Question", { id: questionId, formId: id, position: q, text, type: "SCALE", required: true, createdAt: now, updatedAt: now });
    const options = scale.map((optionText, score) => ({ id: newId(), text: optionText, score }));
    for (const [position, option] of options.entries()) {
      await insert.add("Option", { id: option.id, questionId, position, text: option.text, score: option.score, createdAt: now, updatedAt: now });
    }
    questions.push({ id: questionId, text, type: "SCALE", required: true, options });
  }
  const maxScore = questionCount * 3;
  const bands = BANDS.map((band, position) => ({
    min: position === 0 ? 0 : Math.floor(band.from * maxScore) + 1,
    max: Math.floor(band.to * maxScore),
    label: band.label,
    color: band.color,
  }));
  for (const [position, band] of bands.entries()) {
    await insert.add("ScoreRange", { id: newId(), formId: id, position, ...band, createdAt: now, updatedAt: now });
  }
  return { id, organizationId, title, questions, maxScore, questionsJson: JSON.stringify(questions), bandsJson: JSON.stringify(bands), bands };
}

/** Fresh assignments for the write scenario: each submit consumes one, so every run makes its own. */
export async function createPendingAssignments(databaseUrl: string, world: BenchWorld, count: number): Promise<string[]> {
  const client = openSqlClient(databaseUrl);
  const insert = new BulkInserter(client);
  const now = new Date();
  const tokens: string[] = [];
  await client.transaction(async () => {
    for (let i = 0; i < count; i += 1) {
      const token = newToken();
      tokens.push(token);
      await insert.add("Submission", {
        id: newId(),
        organizationId: world.organizationId,
        formId: world.submitForm.id,
        studentId: world.studentIds[i % world.studentIds.length],
        assignedById: world.teacherId,
        token,
        isCompleted: false,
        createdAt: now,
        updatedAt: now,
      });
    }
    await insert.flush();
  });
  await client.close();
  return tokens;
}

/**
 * Removes the links createPendingAssignments made that no submit consumed, an earlier run's
 * included: every run used to leave ≈30,000 of them in the big organization (390,000 after a
 * dozen `--quick` runs), which slowed what reads its pending links (the reports page's form
 * choices, the forms list's counts) from one run to the next.
 */
export async function removePendingAssignments(databaseUrl: string, world: BenchWorld): Promise<number> {
  const client = openSqlClient(databaseUrl);
  try {
    return await client.transaction((tx) =>
      tx.run(`DELETE FROM "Submission" WHERE "formId" = ? AND "organizationId" = ? AND "assignedById" = ? AND "isCompleted" = false`, [
        world.submitForm.id,
        world.organizationId,
        world.teacherId,
      ]),
    );
  } finally {
    await client.close();
  }
}

const BULK_FORM_TITLE = "Benchmark bulk assignment";

/**
 * Fresh published forms for the bulk assignment scenario, one per call: a respondent with a link
 * still waiting is skipped, so every measured call needs a form none of its 1,000 has a link to.
 * Forms (and their links) left by an earlier run that stopped half way are removed first.
 */
export async function createBulkAssignmentForms(databaseUrl: string, world: BenchWorld, count: number): Promise<string[]> {
  await removeBulkAssignmentForms(databaseUrl, world);
  const client = openSqlClient(databaseUrl);
  const insert = new BulkInserter(client);
  const now = new Date();
  const ids: string[] = [];
  await client.transaction(async () => {
    for (let i = 0; i < count; i += 1) {
      ids.push((await insertForm(insert, world.organizationId, world.teacherId, `${BULK_FORM_TITLE} ${i + 1}`, 5, now)).id);
    }
    await insert.flush();
  });
  await client.close();
  return ids;
}

/** Removes the bulk assignment scenario's forms and every link made to them. */
export async function removeBulkAssignmentForms(databaseUrl: string, world: BenchWorld): Promise<void> {
  const client = openSqlClient(databaseUrl);
  const forms = `SELECT "id" FROM "Form" WHERE "organizationId" = ? AND "title" LIKE ?`;
  const params = [world.organizationId, `${BULK_FORM_TITLE} %`];
  await client.transaction(async (tx) => {
    await tx.run(`DELETE FROM "Submission" WHERE "formId" IN (${forms})`, params);
    // Questions, their options and the score bands go with the form (ON DELETE CASCADE).
    await tx.run(`DELETE FROM "Option" WHERE "questionId" IN (SELECT "id" FROM "Question" WHERE "formId" IN (${forms}))`, params);
    await tx.run(`DELETE FROM "Question" WHERE "formId" IN (${forms})`, params);
    await tx.run(`DELETE FROM "ScoreRange" WHERE "formId" IN (${forms})`, params);
    await tx.run(`DELETE FROM "Form" WHERE "id" IN (${forms})`, params);
  });
  await client.close();
}

/**
 * The moment from which `changed` results of the big organization have changed: the updatedAt of
 * its `changed`-th most recently changed result, read from the data set as it is. The seed gives
 * each result the updatedAt of its completion, spread over five years, so at 1,000,000 results the
 * newest 1,000 of the big organization's 250,000 changed in the last week; a run's submits only
 * add newer ones, and the moment moves with them. Null when the organization has fewer results.
 */
export async function changedResultsSince(databaseUrl: string, world: BenchWorld, changed: number): Promise<Date | null> {
  const client = openSqlClient(databaseUrl);
  try {
    const [row] = await client.all<{ updatedAt: unknown }>(
      `SELECT "updatedAt" FROM "Submission" WHERE "organizationId" = ? AND "isCompleted" = TRUE AND "deletedAt" IS NULL
        ORDER BY "updatedAt" DESC, "id" DESC LIMIT 1 OFFSET ?`,
      [world.organizationId, changed - 1],
    );
    if (!row) return null;
    return row.updatedAt instanceof Date ? row.updatedAt : new Date(String(row.updatedAt));
  } finally {
    await client.close();
  }
}

/** The roster import scenario's people are told apart by this e-mail domain, its groups by this prefix. */
export const ROSTER_EMAIL_DOMAIN = "roster.bench.test";
export const ROSTER_GROUP_PREFIX = "Bench import class";

/**
 * A class list of `rows` students as a school's spreadsheet has it: accented names, an e-mail
 * address each (unique to `tag`, and in no organization of the data set), ages, grades and classes
 * of 25. `semicolon`: as Excel writes it where the decimal mark is a comma, with a byte order mark.
 */
export function rosterCsv(rows: number, tag: string, options: { semicolon?: boolean } = {}): string {
  const random = seededRandom(rows);
  const separator = options.semicolon ? ";" : ",";
  const lines = [["name", "email", "age", "grade", "group"].join(separator)];
  for (let i = 0; i < rows; i += 1) {
    const name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}${random.next() < 0.3 ? ` ${random.pick(LAST_NAMES)}` : ""}`;
    const age = random.int(6, 18);
    const local = foldForSearch(name)
      .replace(/[^a-z]+/g, ".")
      .replace(/^\.|\.$/g, "");
    const email = `${local}.${tag}.${i}@${ROSTER_EMAIL_DOMAIN}`;
    lines.push(
      [name, email, age, `Grade ${Math.max(1, age - 5)}`, `${ROSTER_GROUP_PREFIX} ${String(Math.floor(i / 25) + 1).padStart(3, "0")}`].join(separator),
    );
  }
  return `${options.semicolon ? "\uFEFF" : ""}${lines.join("\r\n")}\r\n`;
}

/** Removes what the roster import scenario wrote: its students, their memberships and its groups. */
export async function removeRosterImports(databaseUrl: string, world: BenchWorld): Promise<void> {
  const client = openSqlClient(databaseUrl);
  const students = `SELECT "id" FROM "Student" WHERE "organizationId" = ? AND "email" LIKE ?`;
  const groups = `SELECT "id" FROM "Group" WHERE "organizationId" = ? AND "name" LIKE ?`;
  await client.transaction(async (tx) => {
    await tx.run(`DELETE FROM "GroupMember" WHERE "studentId" IN (${students})`, [world.organizationId, `%@${ROSTER_EMAIL_DOMAIN}`]);
    await tx.run(`DELETE FROM "GroupMember" WHERE "groupId" IN (${groups})`, [world.organizationId, `${ROSTER_GROUP_PREFIX} %`]);
    await tx.run(`DELETE FROM "Student" WHERE "id" IN (${students})`, [world.organizationId, `%@${ROSTER_EMAIL_DOMAIN}`]);
    await tx.run(`DELETE FROM "Group" WHERE "id" IN (${groups})`, [world.organizationId, `${ROSTER_GROUP_PREFIX} %`]);
  });
  await client.close();
}

/**
 * What a submit stored of a result, leaving out what is each link's own (ids, times, the
 * respondent's identity): the bench checks that the app and the baseline store the same for the
 * same answers. JSON columns are parsed (text on SQLite, jsonb on PostgreSQL).
 */
export async function storedResult(databaseUrl: string, submissionId: string) {
  const client = openSqlClient(databaseUrl);
  const parsed = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
  try {
    const [row] = await client.all<Record<string, unknown>>(
      `SELECT "isCompleted", "totalScore", "maxScore", "percentage", "scoreLabel", "scoreColor", "formTitle", "searchText", "scoredAgainst",
              "subscales", "flags", "flaggedAt" IS NOT NULL AS "flagged", "criticalMessage" FROM "Submission" WHERE "id" = ?`,
      [submissionId],
    );
    if (!row) throw new Error(`no submission ${submissionId}`);
    const answers = await client.all<Record<string, unknown>>(
      `SELECT "questionId", "position", "questionText", "questionType", "optionIds", "optionTexts", "text", "score", "maxScore" FROM "Answer" WHERE "submissionId" = ? ORDER BY "position"`,
      [submissionId],
    );
    const { scoredAgainst, searchText, subscales, flags, flagged, ...result } = row;
    const { respondent, ...snapshot } = parsed(scoredAgainst) as { respondent: { name: string } & Record<string, unknown> };
    return {
      ...result,
      // The search text is the respondent's name and the form's title, folded.
      searchText: searchText === foldForSearch(`${respondent.name} ${String(row.formTitle)}`),
      respondentFields: Object.keys(respondent),
      subscales: parsed(subscales),
      flags: parsed(flags),
      flagged: Boolean(flagged),
      snapshot,
      answers: answers.map((answer) => ({ ...answer, optionIds: parsed(answer.optionIds), optionTexts: parsed(answer.optionTexts) })),
    };
  } finally {
    await client.close();
  }
}
