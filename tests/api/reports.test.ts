import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, baseUrl, sessionOf, unique, withCsrf, type DemoUser } from "../support/api.ts";
import { assign, completeMedium, createForm, createStudent, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

const ids = (body: { reports: { id: string }[] }) => body.reports.map((r) => r.id);

describe("GET /api/reports", () => {
  it("given two teachers, should show each only their own results while an admin sees both", async () => {
    const a = await completeMedium("teacher@demo.test");
    const b = await completeMedium("teacher2@demo.test");
    const teacherA = ids((await api("GET", "/api/reports?limit=100", { as: "teacher@demo.test" })).body);
    const teacherB = ids((await api("GET", "/api/reports?limit=100", { as: "teacher2@demo.test" })).body);
    expect(teacherA).toContain(a.assignment.id);
    expect(teacherA).not.toContain(b.assignment.id);
    expect(teacherB).toContain(b.assignment.id);
    expect(teacherB).not.toContain(a.assignment.id);
    const admin = await api("GET", `/api/reports?search=${encodeURIComponent(a.form.title)}`, { as: "admin@demo.test" });
    expect(ids(admin.body)).toEqual([a.assignment.id]);
    const adminB = await api("GET", `/api/reports?search=${encodeURIComponent(b.form.title)}`, { as: "admin@demo.test" });
    expect(ids(adminB.body)).toEqual([b.assignment.id]);
    expect(ids((await api("GET", "/api/reports?limit=100", { as: "admin@other.test" })).body)).not.toContain(a.assignment.id);
    expect((await api("GET", `/api/reports/${a.assignment.id}`, { as: "teacher2@demo.test" })).status).toBe(404);
    expect((await api("GET", `/api/reports/${a.assignment.id}`, { as: "admin@other.test" })).status).toBe(404);
    expect((await api("GET", "/api/reports", { as: "student@demo.test" })).status).toBe(403);
  });

  it("given accent- and case-free searches, should find the respondent and part of the form title", async () => {
    const tag = unique("r").replaceAll("-", "");
    const { assignment } = await completeMedium("teacher@demo.test", `José Muñoz ${tag}`, mixedForm(`Évaluation lecture ${tag}`));
    for (const term of [`jose munoz ${tag}`, `MUNOZ ${tag}`, `evaluation LECTURE ${tag}`, `ture ${tag}`]) {
      const response = await api("GET", `/api/reports?search=${encodeURIComponent(term)}`, { as: "teacher@demo.test" });
      expect(ids(response.body), term).toEqual([assignment.id]);
    }
    const jose = await api("GET", "/api/reports?search=jose&limit=100", { as: "teacher@demo.test" });
    expect(ids(jose.body)).toContain(assignment.id);
  });

  it("given from and to, should include both ends and answer 400 for bad or reversed dates", async () => {
    const { assignment, submit, form } = await completeMedium("teacher@demo.test");
    const at: string = submit.completedAt;
    const day = at.slice(0, 10);
    const search = `search=${encodeURIComponent(form.title)}`;
    const query = async (q: string) => api("GET", `/api/reports?${search}&${q}`, { as: "teacher@demo.test" });
    expect(ids((await query(`from=${at}&to=${at}`)).body)).toEqual([assignment.id]);
    expect(ids((await query(`from=${day}&to=${day}`)).body)).toEqual([assignment.id]);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const previous = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(ids((await query(`from=${next}`)).body)).toEqual([]);
    expect(ids((await query(`to=${previous}`)).body)).toEqual([]);
    expect(ids((await query(`from=${previous}`)).body)).toEqual([assignment.id]);
    const justAfter = new Date(Date.parse(at) + 1).toISOString();
    expect(ids((await query(`from=${justAfter}`)).body)).toEqual([]);
    for (const bad of [`from=${next}&to=${previous}`, "from=2026-02-30", "to=yesterday", "from=2026-13-01"]) {
      const response = await query(bad);
      expect(response.status, bad).toBe(400);
    }
  });

  it("given a pending submission, should leave it out of the list and answer 409 for its report", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const pending = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    expect(ids((await api("GET", `/api/reports?search=${encodeURIComponent(form.title)}`, { as: "teacher@demo.test" })).body)).toEqual([]);
    const report = await api("GET", `/api/reports/${pending.id}`, { as: "teacher@demo.test" });
    expect(report.status).toBe(409);
  });
});

describe("POST /api/reports/export", () => {
  it("given a completed submission, should answer the PDF as a download with a clean file name", async () => {
    const tag = unique("p").replaceAll("-", "").slice(-6);
    const { assignment, submit } = await completeMedium("teacher@demo.test", `Łukasz Wójcik ${tag}`);
    const response = await fetch(`${baseUrl()}/api/reports/export`, {
      method: "POST",
      headers: { "content-type": "application/json", ...withCsrf(sessionOf("teacher@demo.test")) },
      body: JSON.stringify({ submissionId: assignment.id }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const day = submit.completedAt.slice(0, 10);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="report-lukasz-wojcik-${tag.toLowerCase()}-${day}.pdf"; filename*=UTF-8''report-%C5%82ukasz-w%C3%B3jcik-${tag.toLowerCase()}-${day}.pdf`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.length).toBeGreaterThan(5000);
  });

  it("given an Arabic respondent, should name the file after them (transliterated, and in Arabic in filename*) and print the name", async () => {
    const tag = unique("p").replaceAll("-", "").slice(-6).toLowerCase();
    const name = `محمد الأحمد ${tag}`;
    const { assignment, submit } = await completeMedium("teacher@demo.test", name);
    const response = await fetch(`${baseUrl()}/api/reports/export`, {
      method: "POST",
      headers: { "content-type": "application/json", ...withCsrf(sessionOf("teacher@demo.test")) },
      body: JSON.stringify({ submissionId: assignment.id }),
    });
    expect(response.status).toBe(200);
    const day = submit.completedAt.slice(0, 10);
    const disposition = response.headers.get("content-disposition")!;
    expect(disposition).toContain(`attachment; filename="report-mhmd-lhmd-${tag}-${day}.pdf"`);
    expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)![1]!)).toBe(`report-محمد-الأحمد-${tag}-${day}.pdf`);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "assessment-pdfs-")), "arabic.pdf");
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    expect(execFileSync("qpdf", ["--check", file], { encoding: "utf8" })).toContain("No syntax or stream encoding errors");
    // NFKC as in ADR 23; poppler wraps right-to-left text in embedding marks.
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" })
      .normalize("NFKC")
      .replace(/[\u202a-\u202e]/g, "");
    expect(text).toContain("محمد الأحمد");
  });

  it("given 12 exports at once, should render every one (in the worker pool) as a valid PDF of its own report", async () => {
    const tag = unique("p").replaceAll("-", "").slice(-6);
    const done = await Promise.all(Array.from({ length: 4 }, (_, i) => completeMedium("teacher@demo.test", `Paralela ${i} ${tag}`)));
    const folder = mkdtempSync(path.join(tmpdir(), "assessment-pdfs-"));
    const exports = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const { assignment, student } = done[i % done.length]!;
        const response = await fetch(`${baseUrl()}/api/reports/export`, {
          method: "POST",
          headers: { "content-type": "application/json", ...withCsrf(sessionOf("teacher@demo.test")) },
          body: JSON.stringify({ submissionId: assignment.id }),
        });
        const file = path.join(folder, `${i}.pdf`);
        writeFileSync(file, Buffer.from(await response.arrayBuffer()));
        return { status: response.status, file, name: student.name };
      }),
    );
    for (const { status, file, name } of exports) {
      expect(status).toBe(200);
      expect(execFileSync("qpdf", ["--check", file], { encoding: "utf8" })).toContain("No syntax or stream encoding errors");
      expect(execFileSync("pdftotext", [file, "-"], { encoding: "utf8" })).toContain(name);
    }
  });

  it("given another organization's, a colleague's or a pending submission, should refuse it", async () => {
    const { assignment } = await completeMedium("teacher@demo.test");
    const exportAs = (as: DemoUser, submissionId: string) => api("POST", "/api/reports/export", { as, json: { submissionId } });
    expect((await exportAs("admin@other.test", assignment.id)).status).toBe(404);
    expect((await exportAs("teacher2@demo.test", assignment.id)).status).toBe(404);
    expect((await exportAs("student@demo.test", assignment.id)).status).toBe(403);
    expect((await exportAs("admin@demo.test", assignment.id)).status).toBe(200);
    expect((await exportAs("teacher@demo.test", "does-not-exist")).status).toBe(404);
    expect((await api("POST", "/api/reports/export", { as: "teacher@demo.test", json: {} })).status).toBe(400);
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const pending = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
    expect((await exportAs("teacher@demo.test", pending.id)).status).toBe(409);
  });
});

describe("GET /api/reports?search=", () => {
  const search = (term: string, as: DemoUser = "teacher@demo.test") => api("GET", `/api/reports?limit=100&search=${encodeURIComponent(term)}`, { as });

  /** Completes the mixed form for a new candidate of the teacher. */
  async function completeForCandidate(name: string) {
    const form = await createForm("teacher@demo.test");
    const candidate = await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name } });
    expect(candidate.status).toBe(201);
    const assignment = await assign("teacher@demo.test", { formId: form.id, candidateId: candidate.body.id });
    const submit = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) });
    expect(submit.status).toBe(200);
    return { form, candidate: candidate.body as { id: string }, assignment };
  }

  it("given a renamed student, should find their report by the new name and no longer by the old one", async () => {
    const tag = unique("n").replaceAll("-", "");
    const { assignment, student, form } = await completeMedium("teacher@demo.test", `Before ${tag}`);
    expect(ids((await search(`before ${tag}`)).body)).toEqual([assignment.id]);

    const renamed = await api("PUT", `/api/students/${student.id}`, { as: "teacher@demo.test", json: { name: `Renée Après ${tag}` } });
    expect(renamed.status).toBe(200);

    for (const term of [`renee apres ${tag}`, `RENÉE APRÈS ${tag}`, `apres ${tag}`]) {
      const response = await search(term);
      expect(ids(response.body), term).toEqual([assignment.id]);
      expect(response.body.reports[0].studentName).toBe(`Renée Après ${tag}`);
    }
    expect(ids((await search(`before ${tag}`)).body)).toEqual([]);
    // The form title stays searchable next to the new name.
    expect(ids((await search(`${tag} ${form.title}`)).body)).toEqual([assignment.id]);
  });

  it("given a renamed candidate, should find the evaluation by the new name, and after a promotion by the student's name", async () => {
    const tag = unique("c").replaceAll("-", "");
    const { assignment, candidate } = await completeForCandidate(`Cand ${tag}`);
    expect((await api("PUT", `/api/candidates/${candidate.id}`, { as: "teacher@demo.test", json: { name: `Zoë ${tag}` } })).status).toBe(200);
    expect(ids((await search(`zoe ${tag}`)).body)).toEqual([assignment.id]);
    expect(ids((await search(`cand ${tag}`)).body)).toEqual([]);

    const promoted = await api("POST", `/api/candidates/${candidate.id}/promote`, { as: "admin@demo.test" });
    expect(promoted.status).toBe(201);
    // The student is now the respondent: renaming the candidate no longer changes the report...
    expect((await api("PUT", `/api/candidates/${candidate.id}`, { as: "teacher@demo.test", json: { name: `Old ${tag}` } })).status).toBe(200);
    expect(ids((await search(`old ${tag}`)).body)).toEqual([]);
    expect(ids((await search(`zoe ${tag}`)).body)).toEqual([assignment.id]);
    // ...renaming the student does.
    const student = promoted.body.student as { id: string };
    expect((await api("PUT", `/api/students/${student.id}`, { as: "admin@demo.test", json: { name: `Student ${tag}` } })).status).toBe(200);
    const found = await search(`student ${tag}`);
    expect(ids(found.body)).toEqual([assignment.id]);
    expect(found.body.reports[0].studentName).toBe(`Student ${tag}`);
  });

  it("given a term of one or two characters, should still find the reports that contain it", async () => {
    // Cyrillic letters appear in no other test's names, so these short terms are rare.
    const tag = unique("s").replaceAll("-", "");
    const { assignment } = await completeMedium("teacher@demo.test", `Жюль ${tag}`);
    for (const term of ["жю", "ЖЮ", "ю"]) {
      const response = await search(term);
      expect(response.status, term).toBe(200);
      expect(ids(response.body), term).toContain(assignment.id);
      expect(response.body.total, term).toBeGreaterThanOrEqual(1);
      for (const report of response.body.reports as { studentName: string; formTitle: string }[]) {
        expect(`${report.studentName} ${report.formTitle}`.toLowerCase(), term).toContain(term.toLowerCase());
      }
    }
    expect(ids((await search("юж")).body)).not.toContain(assignment.id);
  });

  it("given accents and capitals on either side, should match them folded", async () => {
    const tag = unique("a").replaceAll("-", "");
    const { assignment } = await completeMedium("teacher@demo.test", `ŁUKASZ Ørsted-Großmann ${tag}`, mixedForm(`Compréhension ÉCRITE ${tag}`));
    for (const term of [`lukasz orsted-grossmann ${tag}`, `Łukasz ØRSTED`, `comprehension ecrite ${tag}`, `COMPRÉHENSION écrite`, `mann ${tag} compr`]) {
      expect(ids((await search(term)).body), term).toContain(assignment.id);
    }
    expect(ids((await search(`lukasz ${tag}`)).body)).toEqual([]);
  });

  it("given quotes, percent signs and other specials in the term, should match them literally and never fail", async () => {
    const tag = unique("q").replaceAll("-", "");
    const title = `Score 50% "quoted" a_b \\ ${tag}`;
    const { assignment } = await completeMedium("teacher@demo.test", `O'Brien ${tag}`, mixedForm(title));
    for (const term of [`50% "quoted" a_b \\ ${tag}`, `"quoted" a_b`, `0% "q`, `o'brien ${tag}`]) {
      const response = await search(term);
      expect(response.status, term).toBe(200);
      expect(ids(response.body), term).toEqual([assignment.id]);
    }
    for (const term of [`%`, `"`, `""`, `%%`, `_`, `\\`, `" OR "`, `${tag}*`, `NEAR(${tag})`, `quoted" OR "x`, `a%b ${tag}`]) {
      const response = await search(term);
      expect(response.status, term).toBe(200);
      expect(typeof response.body.total, term).toBe("number");
      // Whatever the term, a report is found only when its text really contains it.
      for (const report of response.body.reports as { studentName: string; formTitle: string }[]) {
        expect(`${report.studentName} ${report.formTitle}`.toLowerCase(), term).toContain(term.toLowerCase());
      }
    }
    // A % in the term is a percent sign, not a wildcard.
    expect(ids((await search(`score 5%${tag}`)).body)).toEqual([]);
    expect(ids((await search(`score %quoted`)).body)).not.toContain(assignment.id);
  });
});

describe("GET /api/reports totals", () => {
  /** The total the server answers for a search by the teacher (one row per page: only the total matters). */
  const total = async (term: string, as: DemoUser = "teacher@demo.test") => {
    const response = await api("GET", `/api/reports?limit=1&search=${encodeURIComponent(term)}`, { as });
    expect(response.status, term).toBe(200);
    return response.body.total as number;
  };

  it("given a completion, a soft delete, a rename and a promotion, should answer the exact total right after each", async () => {
    process.env.DATABASE_URL = inject("databaseUrl");
    process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "reports-totals-"));
    const { FTS_DRIVEN_MAX_MATCHES } = await import("../../app/features/reports/reports.server.ts");
    const tag = unique("tot").replaceAll("-", "");
    const db = testDatabase();

    const seed = await completeMedium("teacher@demo.test", `Seed ${tag}`);
    // On SQLite a term with at most FTS_DRIVEN_MAX_MATCHES matches in the whole table is counted
    // from its matches, without the cache of totals. These deleted rows contain every term searched
    // below, so each one has more matches than that and its total is the cached count, as on
    // PostgreSQL; being deleted, they are in no one's list.
    const teacher = await db.user.findFirstOrThrow({ where: { email: "teacher@demo.test" } });
    const everyTerm = ["seed", "alba", "bruno", "bruna", "cand", "old", "student"].map((name) => `${name} ${tag}`).join(" ");
    await db.submission.createMany({
      data: Array.from({ length: FTS_DRIVEN_MAX_MATCHES + 1 }, (_, i) => ({
        organizationId: teacher.organizationId,
        formId: seed.form.id,
        studentId: seed.student.id,
        assignedById: teacher.id,
        token: `${tag}-deleted-${i}-${"x".repeat(24)}`,
        isCompleted: true,
        completedAt: new Date(Date.UTC(2020, 0, 1)),
        totalScore: 1,
        maxScore: 2,
        percentage: 50,
        formTitle: "Deleted",
        searchText: everyTerm,
        deletedAt: new Date(),
      })),
    });

    // The same search twice: the second answer may come from the cache.
    expect(await total(tag)).toBe(1);
    expect(await total(tag)).toBe(1);

    // A completion.
    const alba = await completeMedium("teacher@demo.test", `Alba ${tag}`);
    expect(await total(tag)).toBe(2);
    expect(await total(`alba ${tag}`)).toBe(1);
    expect(await total(`alba ${tag}`)).toBe(1);

    // A soft delete, written straight to the database: no instance of the app saw it happen, only
    // the database can tell the caches.
    await db.submission.update({ where: { id: alba.assignment.id }, data: { deletedAt: new Date() } });
    expect(await total(tag)).toBe(1);
    expect(await total(`alba ${tag}`)).toBe(0);

    // A rename rewrites the search text of the respondent's results.
    const bruno = await completeMedium("teacher@demo.test", `Bruno ${tag}`);
    expect(await total(`bruno ${tag}`)).toBe(1);
    expect(await total(`bruna ${tag}`)).toBe(0);
    expect((await api("PUT", `/api/students/${bruno.student.id}`, { as: "teacher@demo.test", json: { name: `Bruna ${tag}` } })).status).toBe(200);
    expect(await total(`bruno ${tag}`)).toBe(0);
    expect(await total(`bruna ${tag}`)).toBe(1);
    expect(await total(tag)).toBe(2);

    // A promotion makes the new student the respondent: from then on the candidate's name no
    // longer counts, the student's does.
    const form = await createForm("teacher@demo.test");
    const candidate = await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: `Cand ${tag}` } });
    expect(candidate.status).toBe(201);
    const evaluation = await assign("teacher@demo.test", { formId: form.id, candidateId: candidate.body.id });
    expect((await api("POST", `/api/test-link/${evaluation.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
    expect(await total(`cand ${tag}`)).toBe(1);
    expect(await total(tag)).toBe(3);
    const promoted = await api("POST", `/api/candidates/${candidate.body.id}/promote`, { as: "admin@demo.test" });
    expect(promoted.status).toBe(201);
    expect(await total(`cand ${tag}`)).toBe(1);
    expect((await api("PUT", `/api/candidates/${candidate.body.id}`, { as: "teacher@demo.test", json: { name: `Old ${tag}` } })).status).toBe(200);
    expect(await total(`old ${tag}`)).toBe(0);
    expect(await total(`cand ${tag}`)).toBe(1);
    const student = promoted.body.student as { id: string };
    expect((await api("PUT", `/api/students/${student.id}`, { as: "admin@demo.test", json: { name: `Student ${tag}` } })).status).toBe(200);
    expect(await total(`cand ${tag}`)).toBe(0);
    expect(await total(`student ${tag}`)).toBe(1);
    expect(await total(tag)).toBe(3);

    // Each caller's scope has its own total.
    expect(await total(tag, "admin@demo.test")).toBe(3);
    expect(await total(tag, "teacher2@demo.test")).toBe(0);
    expect(await total(tag, "admin@other.test")).toBe(0);
    expect(await total(tag, "superadmin@demo.test")).toBe(3);
  });
});
