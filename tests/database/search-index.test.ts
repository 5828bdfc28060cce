import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { missingHandWrittenObjects, providerOf } from "../../server/database/migrations.ts";
import { refreshStaleSearchText } from "../../server/database/search-text.ts";
import { api, unique, type DemoUser } from "../support/api.ts";
import { assign, completeMedium, createForm, createStudent, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { actorFor, testDatabase } from "../support/database.ts";

/**
 * The raw SQL behind the reports search, on the test server's database: the caller's scope as an
 * SQL fragment selects what the Prisma filter selects, and the substring index finds what a plain
 * LIKE scan finds. Both are compared on this file's own rows, so the tests running alongside
 * cannot change the answer between the two queries.
 */
async function modules() {
  process.env.DATABASE_URL = inject("databaseUrl");
  process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "search-index-"));
  const [scope, reports, { Prisma }] = await Promise.all([
    import("../../app/features/submissions/submission-scope.server.ts"),
    import("../../app/features/reports/reports.server.ts"),
    import("../../app/lib/db.server.ts"),
  ]);
  return { ...scope, ...reports, Prisma };
}

const provider = () => providerOf(inject("databaseUrl"));

describe("visibleSubmissionsSql", () => {
  const rows: Record<string, string> = {};

  beforeAll(async () => {
    rows.teacher = (await completeMedium("teacher@demo.test")).assignment.id;
    rows.teacher2 = (await completeMedium("teacher2@demo.test")).assignment.id;
    rows.other = (await completeMedium("teacher@other.test")).assignment.id;
    // Answered by the demo student's own login (a pending assignment is enough for the scope).
    const ownStudent = await testDatabase().student.findFirstOrThrow({ where: { user: { email: "student@demo.test" } } });
    const form = await createForm("teacher2@demo.test");
    rows.student = (await assign("teacher2@demo.test", { formId: form.id, studentId: ownStudent.id })).id;
    rows.deleted = (await completeMedium("teacher@demo.test")).assignment.id;
    await testDatabase().submission.update({ where: { id: rows.deleted }, data: { deletedAt: new Date() } });
  });

  const expected: Record<DemoUser, string[]> = {
    "superadmin@demo.test": ["teacher", "teacher2", "other", "student"],
    "admin@demo.test": ["teacher", "teacher2", "student"],
    "teacher@demo.test": ["teacher"],
    "teacher2@demo.test": ["teacher2", "student"],
    "student@demo.test": ["student"],
    "admin@other.test": ["other"],
    "teacher@other.test": ["other"],
  };

  it.each(Object.keys(expected) as DemoUser[])("given %s, should select the same submissions as visibleSubmissionsWhere", async (email) => {
    const { visibleSubmissionsSql, visibleSubmissionsWhere, Prisma } = await modules();
    const actor = await actorFor(email);
    const fixture = Object.values(rows);
    const viaPrisma = await testDatabase().submission.findMany({
      where: { AND: [visibleSubmissionsWhere(actor), { id: { in: fixture } }] },
      select: { id: true },
    });
    const viaSql = await testDatabase().$queryRaw<{ id: string }[]>`
      SELECT s."id" FROM "Submission" s WHERE ${visibleSubmissionsSql(actor, "s")} AND s."id" IN (${Prisma.join(fixture)})`;
    const sorted = (list: { id: string }[]) => list.map((row) => row.id).sort();
    expect(sorted(viaSql)).toEqual(sorted(viaPrisma));
    expect(sorted(viaSql)).toEqual(expected[email].map((name) => rows[name]!).sort());
  });
});

describe("the substring search index", () => {
  it("given the migrated test database, should have every hand-written search object", async () => {
    expect(await missingHandWrittenObjects(inject("databaseUrl"))).toEqual([]);
    if (provider() === "postgresql") {
      // ADR 39: the people's name indexes keep no pending list for every search to read.
      const options = await testDatabase().$queryRaw<{ relname: string; reloptions: string[] | null }[]>`
        SELECT relname, reloptions FROM pg_class WHERE relname IN ('Student_searchName_trgm_idx', 'Candidate_searchName_trgm_idx') ORDER BY relname`;
      expect(options).toEqual([
        { relname: "Candidate_searchName_trgm_idx", reloptions: ["fastupdate=off"] },
        { relname: "Student_searchName_trgm_idx", reloptions: ["fastupdate=off"] },
      ]);
    }
  });

  it("given completions, renames and deletions, should find through the index exactly what a LIKE scan finds", async () => {
    const { searchTextContains, Prisma } = await modules();
    const tag = unique("ix").replaceAll("-", "");
    const made = await Promise.all([
      completeMedium("teacher@demo.test", `Ana Lúcia ${tag}`, mixedForm(`Leitura ${tag}`)),
      completeMedium("teacher@demo.test", `Anabela ${tag}`, mixedForm(`Escrita "50%" ${tag}`)),
      completeMedium("teacher@demo.test", `Bruno ${tag}`, mixedForm(`Leitura ${tag}`)),
    ]);
    // The index must follow a rename (an UPDATE of searchText) and a row removed for good.
    const rename = await api("PUT", `/api/students/${made[2].student.id}`, { as: "teacher@demo.test", json: { name: `Bruna ${tag}` } });
    expect(rename.status).toBe(200);
    const gone = await completeMedium("teacher@demo.test", `Analia ${tag}`);
    await testDatabase().submission.delete({ where: { id: gone.assignment.id } });

    const fixture = [...made.map((m) => m.assignment.id), gone.assignment.id];
    const db = testDatabase();
    // Every way the search may be planned: from the scope indexes or from the matches (SQLite's
    // NOT INDEXED), and on PostgreSQL with the planner made to use the trigram index.
    const froms = provider() === "sqlite" ? [Prisma.sql`"Submission" AS s`, Prisma.sql`"Submission" AS s NOT INDEXED`] : [Prisma.sql`"Submission" AS s`];
    const find = async (condition: ReturnType<typeof searchTextContains>) => {
      const answers = await Promise.all(
        froms.map((from) =>
          db.$transaction(async (tx) => {
            // On PostgreSQL the planner would scan so few rows; make it use the trigram index.
            if (provider() === "postgresql") await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
            const found = await tx.$queryRaw<{ id: string }[]>`
              SELECT s."id" FROM ${from} WHERE ${condition} AND s."id" IN (${Prisma.join(fixture)})`;
            return found.map((row) => row.id).sort();
          }),
        ),
      );
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      return answers[0]!;
    };
    const like = (term: string) => Prisma.sql`s."searchText" LIKE '%' || ${term} || '%'`;
    const byName = (...names: number[]) => names.map((n) => made[n]!.assignment.id).sort();

    const cases: [string, string[]][] = [
      ["ana ", byName(0)],
      [`a ${tag}`, byName(0, 1, 2)],
      [`leitura ${tag}`, byName(0, 2)],
      [`bruna ${tag}`, byName(2)],
      [`bruno ${tag}`, []],
      [`analia ${tag}`, []],
      ['"50‰"', byName(1)],
      // Too short for a trigram: the LIKE fallback.
      ['"5', byName(1)],
      ["a ", byName(0, 1, 2)],
    ];
    for (const [term, ids] of cases) {
      expect(await find(searchTextContains(provider(), term)), term).toEqual(ids);
      expect(await find(like(term)), term).toEqual(ids);
    }

    if (provider() === "sqlite") {
      // FTS5 compares the whole index with the "Submission" rows it was built from; it fails on
      // any difference a missed trigger would have left.
      await expect(db.$executeRawUnsafe(`INSERT INTO "Submission_search" ("Submission_search", rank) VALUES ('integrity-check', 1)`)).resolves.toBeDefined();
    }
  });
});

describe("listReports with a search", () => {
  it("given more matches than the FTS-driven plan takes, and fewer, should page and count them exactly", async () => {
    const { listReports, FTS_DRIVEN_MAX_MATCHES } = await modules();
    const tag = unique("bulk").replaceAll("-", "");
    const form = await createForm("teacher@demo.test", mixedForm("Bulk"));
    // Two respondents: the "rare" one answers one result in a hundred. searchText is what the app
    // writes, the folded name and title, so each database may take any of its plans.
    const student = await createStudent("teacher@demo.test", `Bulk ${tag}`);
    const rare = await createStudent("teacher@demo.test", `Bulk ${tag} rare`);
    const teacher = await actorFor("teacher@demo.test");
    const colleague = await actorFor("teacher2@demo.test");
    const many = FTS_DRIVEN_MAX_MATCHES + 40;
    const base = Date.UTC(2024, 0, 1);
    // Written directly: hundreds of completions through the API would take too long. Every fifth
    // one is the colleague's, every seventh deleted, and five of them are "rare".
    const rows = Array.from({ length: many }, (_, i) => ({
      id: `${tag}${String(i).padStart(4, "0")}`,
      organizationId: teacher.organizationId,
      formId: form.id,
      studentId: i % 100 === 7 ? rare.id : student.id,
      assignedById: i % 5 === 0 ? colleague.userId : teacher.userId,
      token: `${tag}-token-${i}-${"x".repeat(24)}`,
      isCompleted: true,
      completedAt: new Date(base + (i % 50) * 60_000),
      totalScore: 1,
      maxScore: 2,
      percentage: 50,
      formTitle: "Bulk",
      searchText: `bulk ${tag}${i % 100 === 7 ? " rare" : ""} bulk`,
      deletedAt: i % 7 === 0 ? new Date() : null,
    }));
    await testDatabase().submission.createMany({ data: rows });
    const visible = rows.filter((row) => row.assignedById === teacher.userId && !row.deletedAt);
    const newestFirst = (list: typeof rows) =>
      [...list].sort((a, b) => b.completedAt.getTime() - a.completedAt.getTime() || (a.id < b.id ? 1 : -1)).map((row) => row.id);

    for (const [term, expected] of [
      [`bulk ${tag}`, newestFirst(visible)],
      [`${tag} rare`, newestFirst(visible.filter((row) => row.studentId === rare.id))],
    ] as const) {
      const first = await listReports(teacher, { page: 1, limit: 20, search: term });
      const third = await listReports(teacher, { page: 3, limit: 20, search: term });
      expect(first.total, term).toBe(expected.length);
      expect(
        first.reports.map((r) => r.id),
        term,
      ).toEqual(expected.slice(0, 20));
      expect(
        third.reports.map((r) => r.id),
        term,
      ).toEqual(expected.slice(40, 60));
      const window = await listReports(teacher, {
        page: 1,
        limit: 100,
        search: term,
        from: new Date(base + 10 * 60_000).toISOString(),
        to: new Date(base + 14 * 60_000).toISOString(),
      });
      const inWindow = expected.filter((id) => {
        const at = rows.find((row) => row.id === id)!.completedAt.getTime();
        return at >= base + 10 * 60_000 && at <= base + 14 * 60_000;
      });
      expect(inWindow.length, term).toBeLessThan(100);
      expect(
        window.reports.map((r) => r.id),
        term,
      ).toEqual(inWindow);
      expect(window.total, term).toBe(inWindow.length);
    }
    expect(visible.length).toBeGreaterThan(20);
    expect(many).toBeGreaterThan(FTS_DRIVEN_MAX_MATCHES);
  });
  it("given names, titles captured before a rename, a promotion and a term across name and title, should find exactly what searchText holds", async () => {
    const { listReports, PEOPLE_FIRST_MAX_PEOPLE, Prisma } = await modules();
    const tag = unique("pf").replaceAll("-", "");
    const admin = await actorFor("admin@demo.test");
    const complete = async (form: { id: string; questions: unknown[] }, respondent: { studentId?: string; candidateId?: string }) => {
      const link = await assign("teacher@demo.test", { formId: form.id, ...respondent });
      const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form as never) });
      expect(submit.status, JSON.stringify(submit.body)).toBe(200);
      return link.id;
    };
    const reading = await createForm("teacher@demo.test", mixedForm(`Leitura ${tag}`));
    const writing = await createForm("teacher@demo.test", mixedForm(`Escrita ${tag}`));
    const ana = await createStudent("teacher@demo.test", `Ana ${tag}`);
    const bruno = await createStudent("teacher@demo.test", `Bruno ${tag}`);
    const carla = (await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: `Carla ${tag}` } })).body;
    const eva = (await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: `Eva ${tag}` } })).body;
    const results = {
      ana: await complete(reading, { studentId: ana.id }),
      bruno: await complete(writing, { studentId: bruno.id }),
      carla: await complete(reading, { candidateId: carla.id }),
      eva: await complete(writing, { candidateId: eva.id }),
    };
    // The form is renamed: the results so far keep the title they were completed with.
    expect((await api("PUT", `/api/forms/${reading.id}`, { as: "teacher@demo.test", json: { title: `Lectura ${tag}` } })).status).toBe(200);
    const dora = await createStudent("teacher@demo.test", `Dora ${tag}`);
    const doraResult = await complete(reading, { studentId: dora.id });
    // Carla is promoted, then her student renamed: her result follows the student's name.
    const promoted = await api("POST", `/api/candidates/${carla.id}/promote`, { as: "admin@demo.test" });
    expect(promoted.status).toBe(201);
    expect((await api("PUT", `/api/students/${promoted.body.student.id}`, { as: "admin@demo.test", json: { name: `Carlota ${tag}` } })).status).toBe(200);
    // More people named alike than the people-first plan reads, one of them with a result.
    const crowd = `Gil ${tag}x`;
    await testDatabase().student.createMany({
      data: Array.from({ length: PEOPLE_FIRST_MAX_PEOPLE + 1 }, (_, n) => ({
        organizationId: admin.organizationId,
        name: `${crowd} ${n}`,
        searchName: `${crowd.toLowerCase()} ${n}`,
      })),
    });
    const gil = await testDatabase().student.findFirstOrThrow({ where: { name: `${crowd} 7` } });
    const gilResult = await complete(writing, { studentId: gil.id });

    // A result whose searchText no longer holds its respondent's name (as one completed before
    // renames were followed): the search answers what searchText holds, whichever plan it takes.
    const hugo = await createStudent("teacher@demo.test", `Hugo ${tag}`);
    const hugoResult = await complete(writing, { studentId: hugo.id });
    await testDatabase().submission.update({ where: { id: hugoResult }, data: { searchText: `hugo-old ${tag} escrita ${tag}` } });

    const fixture = [...Object.values(results), doraResult, gilResult, hugoResult];
    const expected: [string, string[]][] = [
      [`ana ${tag}`, [results.ana]],
      [`eva ${tag}`, [results.eva]],
      [`carlota ${tag}`, [results.carla]],
      [`carla ${tag}`, []],
      [`leitura ${tag}`, [results.carla, results.ana]],
      [`lectura ${tag}`, [doraResult]],
      [`${tag} leit`, [results.carla, results.ana]],
      [`dora ${tag} lec`, [doraResult]],
      [`${tag} escrita ${tag}`, [hugoResult, results.eva, results.bruno]],
      [`hugo ${tag}`, []],
      [`gil ${tag}x`, [gilResult]],
      [`nobody ${tag}`, []],
    ];
    for (const [term, ids] of expected) {
      const found = await listReports(admin, { page: 1, limit: 100, search: term });
      // What a plain scan of searchText finds among this test's results, newest first.
      const scanned = await testDatabase().$queryRaw<{ id: string }[]>`
        SELECT s."id" FROM "Submission" AS s
         WHERE s."id" IN (${Prisma.join(fixture)}) AND s."searchText" LIKE '%' || ${term} || '%'
         ORDER BY s."completedAt" DESC, s."id" DESC`;
      expect(
        found.reports.map((r) => r.id),
        term,
      ).toEqual(scanned.map((row) => row.id));
      expect(new Set(found.reports.map((r) => r.id)), term).toEqual(new Set(ids));
      expect(found.total, term).toBe(ids.length);
    }
  });
});

describe("refreshStaleSearchText", () => {
  it("given a result still holding the name its respondent had before a rename, should rewrite it for the current name", async () => {
    const tag = unique("st").replaceAll("-", "");
    const { assignment } = await completeMedium("teacher@demo.test", `Current ${tag}`, mixedForm(`Título ${tag}`));
    // As a result completed before renames were followed: the name at completion.
    await testDatabase().submission.update({ where: { id: assignment.id }, data: { searchText: `previous ${tag} titulo ${tag}` } });
    const search = (term: string) => api("GET", `/api/reports?search=${encodeURIComponent(term)}`, { as: "teacher@demo.test" });
    // Across the name and the title: only the stale search text can answer it.
    expect((await search(`current ${tag} titulo`)).body.reports).toEqual([]);

    expect(await refreshStaleSearchText(testDatabase())).toBeGreaterThanOrEqual(1);

    const row = await testDatabase().submission.findUniqueOrThrow({ where: { id: assignment.id }, select: { searchText: true } });
    expect(row.searchText).toBe(`current ${tag} titulo ${tag}`);
    expect((await search(`current ${tag} titulo`)).body.reports.map((r: { id: string }) => r.id)).toEqual([assignment.id]);
    expect((await search(`previous ${tag}`)).body.reports).toEqual([]);
  });
});
