import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { ReportTotalFilter } from "../../app/features/reports/report-totals-cache.ts";
import type { Actor } from "../../app/lib/auth/actor.server.ts";
import { api, unique } from "../support/api.ts";
import { assign, completeMedium, createForm, mediumAnswers } from "../support/assessment.ts";
import { createDatabase } from "../../app/lib/db.server.ts";
import { testDatabase } from "../support/database.ts";
import { newOrganization, resultData, type World } from "../support/result-rows.ts";
import { waitFor } from "../support/wait.ts";

/**
 * The versions of the organizations' submissions ("SubmissionsVersion", kept by triggers on
 * "Submission") and the cache of exact report totals that trusts them
 * (docs/decisions/0013-report-totals.md). Everything here happens in organizations this file
 * creates, so the tests running alongside cannot change a version or a total between two reads.
 * The cache under test is this test process's own: the server is another instance with another
 * cache, and both must follow the same database.
 */
async function modules() {
  process.env.DATABASE_URL = inject("databaseUrl");
  process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "report-totals-"));
  const [totals, reports, { db }] = await Promise.all([
    import("../../app/features/reports/report-totals.server.ts"),
    import("../../app/features/reports/reports.server.ts"),
    import("../../app/lib/db.server.ts"),
  ]);
  return { ...totals, ...reports, db };
}

const version = async (organizationId: string) => (await testDatabase().submissionsVersion.findUnique({ where: { organizationId } }))?.version ?? null;

function actorOf(world: World & { teacherId: string }, role: Actor["role"]): Actor {
  return {
    userId: role === "TEACHER" ? world.teacherId : world.userId,
    sessionId: "test",
    via: "session",
    role,
    organizationId: world.organizationId,
    name: "Test",
    email: "test@totals.test",
    image: null,
    locale: "en",
    timeZone: "UTC",
    organizationKind: "SCHOOL",
    sessionExpiresAt: new Date(Date.now() + 3_600_000),
    staffOf: [],
    origin: { ip: null, requestId: null },
  };
}

describe("the SubmissionsVersion triggers", () => {
  it("given inserts, updates and deletes of submissions, should change their organization's version, and only when a row changed", async () => {
    const db = testDatabase();
    const a = await newOrganization("va");
    const b = await newOrganization("vb");
    // Created after the migration, without a submission: no row yet.
    expect(await version(a.organizationId)).toBeNull();

    const first = await db.submission.create({ data: resultData(a) });
    const afterInsert = await version(a.organizationId);
    expect(afterInsert).toMatch(/^[0-9a-f]{32}$/);
    expect(await version(b.organizationId)).toBeNull();

    // Any update, even of a column no list reads.
    await db.submission.update({ where: { id: first.id }, data: { expiresAt: new Date(Date.now() + 86_400_000) } });
    const afterUpdate = await version(a.organizationId);
    expect(afterUpdate).not.toBe(afterInsert);

    // A statement that changes no row changes no version.
    await db.submission.updateMany({ where: { id: "no-such-submission" }, data: { deletedAt: new Date() } });
    await db.submission.deleteMany({ where: { id: "no-such-submission" } });
    expect(await version(a.organizationId)).toBe(afterUpdate);

    // Several rows in one statement.
    await db.submission.createMany({ data: [resultData(a), resultData(a)] });
    const afterCreateMany = await version(a.organizationId);
    expect(afterCreateMany).not.toBe(afterUpdate);
    await db.submission.updateMany({ where: { organizationId: a.organizationId }, data: { searchText: "renamed form" } });
    const afterUpdateMany = await version(a.organizationId);
    expect(afterUpdateMany).not.toBe(afterCreateMany);

    // A rolled back write leaves the version as it was.
    await expect(
      db.$transaction(async (tx) => {
        await tx.submission.update({ where: { id: first.id }, data: { deletedAt: new Date() } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await version(a.organizationId)).toBe(afterUpdateMany);

    // Moving a submission to another organization (the application never does) changes both.
    await db.submission.update({ where: { id: first.id }, data: { organizationId: b.organizationId } });
    const movedA = await version(a.organizationId);
    const movedB = await version(b.organizationId);
    expect(movedA).not.toBe(afterUpdateMany);
    expect(movedB).toMatch(/^[0-9a-f]{32}$/);

    // A delete changes the version of the organization the row was in.
    await db.submission.delete({ where: { id: first.id } });
    expect(await version(b.organizationId)).not.toBe(movedB);
    expect(await version(a.organizationId)).toBe(movedA);
  });

  // The writer has a connection of its own, so the test database's client reads as another instance would.
  it("given a write in an open transaction, should show the new version to that transaction and the old one to others until it commits", async () => {
    const db = createDatabase(inject("databaseUrl"));
    const world = await newOrganization("vt");
    const submission = await db.submission.create({ data: resultData(world) });
    const before = await version(world.organizationId);
    let inside: string | null = null;
    let outside: string | null = null;
    await db.$transaction(async (tx) => {
      await tx.submission.update({ where: { id: submission.id }, data: { deletedAt: new Date() } });
      inside = (await tx.submissionsVersion.findUnique({ where: { organizationId: world.organizationId } }))?.version ?? null;
      outside = await version(world.organizationId);
    });
    expect(inside).not.toBe(before);
    expect(outside).toBe(before);
    expect(await version(world.organizationId)).toBe(inside);
    await db.$disconnect();
  });
});

// PostgreSQL only: SQLite has one writer at a time, so a rename and a completion never hold locks
// at once there and cannot deadlock.
if (!inject("databaseUrl").startsWith("file:"))
  describe("completing while the respondent is renamed (PostgreSQL)", () => {
    // The claim of a completion locks the organization's version row until commit (a trigger); a
    // rename locks the respondent, then that row. The completion must lock the respondent first too,
    // or the two deadlock. Here a rename holds the respondent while a completion of the same
    // respondent starts, and only goes on to its results once the completion waits for it.
    it("given a rename in progress, should wait for it, then complete with the new name", async () => {
      const tag = unique("lock").replaceAll("-", "");
      const { student } = await completeMedium("teacher@demo.test", `Lock ${tag}`);
      const form = await createForm("teacher@demo.test");
      const link = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });

      const rename = new pg.Client({ connectionString: inject("databaseUrl") });
      await rename.connect();
      try {
        const pid = (await rename.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
        await rename.query("BEGIN");
        await rename.query(`UPDATE "Student" SET "name" = $1, "searchName" = $2 WHERE "id" = $3`, [`Renamed ${tag}`, `renamed ${tag}`, student.id]);

        const submit = api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form) });
        await waitFor(
          () => testDatabase().$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${pid}::int = ANY(pg_blocking_pids(pid))`,
          (waiting) => waiting[0]!.n > 0,
          "the completion to wait for the rename",
          { timeoutMs: 20_000, everyMs: 20 },
        );
        // The rename goes on to the respondent's results, which changes the version row.
        await rename.query(`UPDATE "Submission" SET "searchText" = $1 WHERE "studentId" = $2 AND "isCompleted" = TRUE`, [`renamed ${tag}`, student.id]);
        await rename.query("COMMIT");

        const response = await submit;
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        const completed = await testDatabase().submission.findUniqueOrThrow({ where: { id: link.id }, select: { searchText: true } });
        expect(completed.searchText).toContain(`renamed ${tag}`);
      } finally {
        await rename.query("ROLLBACK").catch(() => {});
        await rename.end();
      }
    });
  });

describe("exactReportTotal", () => {
  let world: World & { teacherId: string };
  beforeAll(async () => {
    world = await newOrganization("cache");
    await testDatabase().submission.create({ data: resultData(world) });
  });

  /** A count that says how often it ran. */
  function counter(value = 7) {
    const count = async () => {
      count.calls += 1;
      return value;
    };
    count.calls = 0;
    return count;
  }
  const unfiltered: ReportTotalFilter = { search: undefined, from: undefined, to: undefined, formId: undefined, groupId: undefined, flagged: undefined };
  const filter = (term: string): ReportTotalFilter => ({ ...unfiltered, search: term });

  it("given an unchanged organization, should count once and answer the same total from the cache", async () => {
    const { exactReportTotal } = await modules();
    const admin = actorOf(world, "ADMIN");
    const count = counter(7);
    expect(await exactReportTotal(admin, filter("once"), count)).toBe(7);
    expect(await exactReportTotal(admin, filter("once"), count)).toBe(7);
    expect(count.calls).toBe(1);

    // Another term, another scope (a teacher), other bounds: other totals.
    expect(await exactReportTotal(admin, filter("other"), count)).toBe(7);
    expect(await exactReportTotal(actorOf(world, "TEACHER"), filter("once"), count)).toBe(7);
    expect(await exactReportTotal(admin, { ...filter("once"), from: new Date(Date.UTC(2001, 0, 1)) }, count)).toBe(7);
    expect(count.calls).toBe(4);
  });

  it("given a write to any of the organization's submissions, should count again", async () => {
    const { exactReportTotal } = await modules();
    const admin = actorOf(world, "ADMIN");
    const count = counter();
    await exactReportTotal(admin, filter("write"), count);
    await exactReportTotal(admin, filter("write"), count);
    expect(count.calls).toBe(1);
    await testDatabase().submission.create({ data: resultData(world) });
    await exactReportTotal(admin, filter("write"), count);
    expect(count.calls).toBe(2);
    await exactReportTotal(admin, filter("write"), count);
    expect(count.calls).toBe(2);
  });

  it("given a write committed while counting, should count again next time rather than keep that total", async () => {
    const { exactReportTotal } = await modules();
    const admin = actorOf(world, "ADMIN");
    const db = testDatabase();
    const window = { ...unfiltered, from: new Date(Date.UTC(1999, 2, 1)), to: new Date(Date.UTC(1999, 2, 2)) };
    const inWindow = () =>
      db.submission.count({
        where: { organizationId: world.organizationId, isCompleted: true, deletedAt: null, completedAt: { gte: window.from, lte: window.to } },
      });
    await db.submission.create({ data: resultData(world, { completedAt: new Date(Date.UTC(1999, 2, 1, 12)) }) });

    // The count sees one result; a second one commits right after it, before the total is stored.
    let calls = 0;
    const countThenWrite = async () => {
      calls += 1;
      const counted = await inWindow();
      if (calls === 1) await db.submission.create({ data: resultData(world, { completedAt: new Date(Date.UTC(1999, 2, 1, 13)) }) });
      return counted;
    };
    expect(await exactReportTotal(admin, window, countThenWrite)).toBe(1);
    // Stored with the version read before counting, so the write is noticed.
    expect(await exactReportTotal(admin, window, countThenWrite)).toBe(2);
    expect(calls).toBe(2);
  });

  it("given callers whose scope no version covers, or an organization without a version yet, should always count", async () => {
    const { exactReportTotal } = await modules();
    for (const role of ["SUPER_ADMIN", "STUDENT"] as const) {
      const count = counter();
      await exactReportTotal(actorOf(world, role), filter("uncached"), count);
      await exactReportTotal(actorOf(world, role), filter("uncached"), count);
      expect(count.calls, role).toBe(2);
    }
    const empty = await newOrganization("empty");
    const count = counter(0);
    await exactReportTotal(actorOf(empty, "ADMIN"), filter("uncached"), count);
    await exactReportTotal(actorOf(empty, "ADMIN"), filter("uncached"), count);
    expect(count.calls).toBe(2);
  });

  it("given simultaneous misses, should count once for all; given a failed count, should keep nothing", async () => {
    const { exactReportTotal } = await modules();
    const admin = actorOf(world, "ADMIN");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const slow = async () => {
      calls += 1;
      await gate;
      return 5;
    };
    const answers = Promise.all([1, 2, 3].map(() => exactReportTotal(admin, filter("together"), slow)));
    // The three read the version in one query (Prisma batches the lookups made in one tick), so by
    // the time the first has begun to count, the other two are waiting for that count, not for
    // a version: a cache that did not share it would have begun three.
    await expect.poll(() => calls).toBeGreaterThan(0);
    release();
    expect(await answers).toEqual([5, 5, 5]);
    expect(calls).toBe(1);

    const failing = async () => {
      throw new Error("count failed");
    };
    await expect(exactReportTotal(admin, filter("failing"), failing)).rejects.toThrow("count failed");
    const count = counter(3);
    expect(await exactReportTotal(admin, filter("failing"), count)).toBe(3);
    expect(count.calls).toBe(1);
  });

  it("given more keys than it holds, should keep at most REPORT_TOTALS_CACHE_SIZE totals", async () => {
    const { exactReportTotal, cachedReportTotals, REPORT_TOTALS_CACHE_SIZE } = await modules();
    const admin = actorOf(world, "ADMIN");
    const count = counter();
    for (let i = 0; i < REPORT_TOTALS_CACHE_SIZE + 20; i += 1) await exactReportTotal(admin, filter(`key ${i}`), count);
    expect(cachedReportTotals()).toBe(REPORT_TOTALS_CACHE_SIZE);
    // The most recent keys stayed, the oldest went.
    await exactReportTotal(admin, filter(`key ${REPORT_TOTALS_CACHE_SIZE + 19}`), count);
    expect(count.calls).toBe(REPORT_TOTALS_CACHE_SIZE + 20);
    await exactReportTotal(admin, filter("key 0"), count);
    expect(count.calls).toBe(REPORT_TOTALS_CACHE_SIZE + 21);
  });
});

describe("listReports totals", () => {
  it("given results added, deleted, completed and renamed between two identical lists, should answer the exact total each time", async () => {
    const { listReports } = await modules();
    const db = testDatabase();
    const world = await newOrganization("list");
    const admin = actorOf(world, "ADMIN");
    const teacher = actorOf(world, "TEACHER");
    const day = new Date(Date.UTC(1998, 5, 1, 12));
    const list = (actor: Actor, search?: string) =>
      listReports(actor, { page: 1, limit: 2, from: "1998-06-01", to: "1998-06-01", ...(search ? { search } : {}) });

    // Respondents named as their results' search text says (the name, then the title "Form").
    const person = (name: string) =>
      db.student.create({ data: { organizationId: world.organizationId, name, searchName: name.toLowerCase() }, select: { id: true } });
    const [ana, bruno, carla] = await Promise.all([person("Ana"), person("Bruno"), person("Carla")]);
    const made = await Promise.all([
      db.submission.create({ data: resultData(world, { completedAt: day, searchText: "ana form", studentId: ana.id }) }),
      db.submission.create({ data: resultData(world, { completedAt: day, searchText: "bruno form", assignedById: world.teacherId, studentId: bruno.id }) }),
    ]);
    for (let i = 0; i < 2; i += 1) {
      expect((await list(admin)).total).toBe(2);
      expect((await list(teacher)).total).toBe(1);
      expect((await list(admin, "form")).total).toBe(2);
      expect((await list(admin, "bruno")).total).toBe(1);
    }

    // A pending assignment is no report; its completion makes one.
    const pending = await db.submission.create({
      data: { ...resultData(world, { assignedById: world.teacherId, studentId: carla.id }), isCompleted: false, completedAt: null, searchText: null },
    });
    expect((await list(admin)).total).toBe(2);
    await db.submission.update({ where: { id: pending.id }, data: { isCompleted: true, completedAt: day, searchText: "carla form" } });
    expect((await list(admin)).total).toBe(3);
    expect((await list(teacher)).total).toBe(2);
    expect((await list(admin, "form")).total).toBe(3);

    // A soft delete.
    await db.submission.update({ where: { id: made[0].id }, data: { deletedAt: new Date() } });
    expect((await list(admin)).total).toBe(2);
    expect((await list(admin, "form")).total).toBe(2);
    expect((await list(teacher)).total).toBe(2);

    // A rename (the name and, in the same transaction, the search text rewritten, as the app does).
    await db.$transaction([
      db.student.update({ where: { id: bruno.id }, data: { name: "Bruna", searchName: "bruna" } }),
      db.submission.update({ where: { id: made[1].id }, data: { searchText: "bruna form" } }),
    ]);
    expect((await list(admin, "bruno")).total).toBe(0);
    expect((await list(admin, "bruna")).total).toBe(1);
    const page = await list(admin, "bruna");
    expect(page.reports.map((report) => report.id)).toEqual([made[1].id]);
  });

  // The list reads through the driver (ADR 97). On SQLite a read of the Prisma client runs on its one
  // connection even inside another request's open transaction, and sees its writes: a total counted
  // there and stored under the version read through the driver would outlive the rollback.
  it("given a result written in a transaction of this process that is rolled back while the list is read, should count committed results only, then and after", async () => {
    const { listReports, db } = await modules();
    const world = await newOrganization("rollback");
    const admin = actorOf(world, "ADMIN");
    const day = new Date(Date.UTC(1998, 5, 1, 12));
    const list = () => listReports(admin, { page: 1, limit: 2, from: "1998-06-01", to: "1998-06-01" });
    await testDatabase().submission.create({ data: resultData(world, { completedAt: day }) });

    let during: number | undefined;
    await expect(
      db.$transaction(async (tx) => {
        await tx.submission.create({ data: resultData(world, { completedAt: day }) });
        during = (await list()).total;
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(during).toBe(1);
    expect((await list()).total).toBe(1);
  });
});
