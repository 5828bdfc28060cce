import { describe, expect, inject, it } from "vitest";
import { randomBytes } from "node:crypto";
import { api, baseUrl, sessionOf, unique, type DemoUser } from "../support/api.ts";
import { answersBySubscale, assign, completeSeries, createForm, createStudent, installDass21, installPhq9, totalAnswers } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

/**
 * The students and candidates pages over plain HTTP, as a browser without JavaScript sends them:
 * who may open and post what, and what an invalid form answers.
 */
function postForm(user: DemoUser, pathname: string, fields: Record<string, string>) {
  const session = sessionOf(user);
  const csrf = inject("csrf")[session]!;
  return api("POST", pathname, {
    cookie: `${session}; ${csrf.cookie}`,
    body: new URLSearchParams({ ...fields, csrfToken: csrf.token }),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
  });
}

describe("the students and candidates pages", () => {
  it("given a student's login, should answer the friendly 403 page", async () => {
    for (const pathname of ["/en/students", "/en/candidates/new"]) {
      const response = await api("GET", pathname, { as: "student@demo.test" });
      expect(response.status, pathname).toBe(403);
      expect(response.text).toContain("Not allowed");
    }
  });

  it("given an unknown or another organization's student, should answer the friendly 404 page", async () => {
    const other = await api("POST", "/api/students", { as: "admin@other.test", json: { name: unique("Other") } });
    for (const id of ["does-not-exist", other.body.id as string]) {
      const response = await api("GET", `/en/students/${id}`, { as: "teacher@demo.test" });
      expect(response.status).toBe(404);
      expect(response.text).toContain("Page not found");
    }
  });

  it("given an invalid form, should answer 400 with the errors by their fields and the values kept", async () => {
    const response = await postForm("teacher@demo.test", "/en/students/new", { name: " ", age: "-3", email: "not-an-address", grade: "5th", status: "ACTIVE" });
    expect(response.status).toBe(400);
    expect(response.text).toContain("Enter a name.");
    expect(response.text).toContain("Enter an age from 0 to 150.");
    expect(response.text).toContain("Enter an e-mail address, such as name@school.org.");
    expect(response.text).toContain('value="not-an-address"');
    expect(response.text).toContain('value="5th"');
  });

  it("given a valid form, should create the student and redirect to its page with a message", async () => {
    const name = `Ünal Şahin ${unique("p")}`;
    const response = await postForm("teacher@demo.test", "/es/students/new", { name, age: "9", email: "", status: "ACTIVE" });
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location).toMatch(/^\/es\/students\/[^/]+$/);
    expect(response.headers.get("set-cookie")).toContain("flash=");
    const created = await api("GET", `/api/students/${location.split("/")[3]}`, { as: "teacher@demo.test" });
    expect(created.body).toMatchObject({ name, age: 9, email: null });
  });

  it("given a record number, should save it from the edit page, show it on the person's page, and say when another person has it", async () => {
    const externalId = unique("SIS");
    const taken = await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: unique("Holder"), externalId } });
    const candidate = await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: unique("Edited") } });
    expect([taken.status, candidate.status]).toEqual([201, 201]);
    const editPath = `/es/candidates/${candidate.body.id}/edit`;
    const form = await api("GET", editPath, { as: "teacher@demo.test" });
    expect(form.text).toContain("Número de expediente");

    const refused = await postForm("teacher@demo.test", editPath, { name: candidate.body.name, externalId, status: "NEW" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Otra persona ya tiene este número de expediente.");
    expect(refused.text).toContain(`value="${externalId}"`);

    const own = `${externalId}-2`;
    const saved = await postForm("teacher@demo.test", editPath, { name: candidate.body.name, externalId: own, status: "NEW" });
    expect(saved.status).toBe(302);
    expect((await api("GET", `/api/candidates/${candidate.body.id}`, { as: "teacher@demo.test" })).body.externalId).toBe(own);
    const page = await api("GET", `/en/candidates/${candidate.body.id}`, { as: "teacher@demo.test" });
    expect(page.text).toMatch(new RegExp(`Record number</dt><dd[^>]*>${own}</dd>`));
  });

  it("given a date of birth, should take it on the new and edit pages, show it as a date on the person's page, and refuse a day after today by its field", async () => {
    const name = unique("Born on a page");
    const created = await postForm("teacher@demo.test", "/en/students/new", { name, externalId: unique("REC"), dateOfBirth: "2014-03-09", status: "ACTIVE" });
    expect(created.status).toBe(302);
    const id = created.headers.get("location")!.split("/")[3]!;
    expect((await api("GET", `/api/students/${id}`, { as: "teacher@demo.test" })).body.dateOfBirth).toBe("2014-03-09");
    const view = await api("GET", `/pt-BR/students/${id}`, { as: "teacher@demo.test" });
    expect(view.text).toMatch(/Data de nascimento<\/dt><dd[^>]*>9 de mar\. de 2014<\/dd>/);

    const editPath = `/en/students/${id}/edit`;
    const form = await api("GET", editPath, { as: "teacher@demo.test" });
    expect(form.text).toMatch(/type="date"[^>]*value="2014-03-09"|value="2014-03-09"[^>]*type="date"/);
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const refused = await postForm("teacher@demo.test", editPath, { name, dateOfBirth: later, status: "ACTIVE" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("A date of birth cannot be later than today.");
    expect(refused.text).toContain(`value="${later}"`);
    const malformed = await postForm("teacher@demo.test", editPath, { name, dateOfBirth: "2014-02-30", status: "ACTIVE" });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain("Enter a date of birth as a date, such as 2014-03-09.");
    // An emptied field clears it.
    expect((await postForm("teacher@demo.test", editPath, { name, dateOfBirth: "", status: "ACTIVE" })).status).toBe(302);
    expect((await api("GET", `/api/students/${id}`, { as: "teacher@demo.test" })).body.dateOfBirth).toBeNull();
  });

  it("given a record number or its start in the list's search box, should list the person with the number in its column", async () => {
    const tag = unique("LST").toUpperCase();
    const listed = await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: unique("Numbered"), externalId: `${tag}-0042` } });
    const list = await api("GET", `/en/candidates?search=${encodeURIComponent(`${tag}-00`)}`, { as: "teacher@demo.test" });
    expect(list.status).toBe(200);
    expect(list.text).toContain(listed.body.name);
    expect(list.text).toMatch(/<th scope="col"[^>]*>Record number<\/th>/);
    expect(list.text).toContain(`>${tag}-0042</td>`);
    expect(list.text).toContain("Search by name or record number");
    // The file of what the list shows carries the search.
    expect(list.text).toContain(`href="/api/candidates/export?search=${encodeURIComponent(`${tag}-00`)}"`);
  });

  it("given a teacher posting delete or promote directly, should refuse with 403 and change nothing", async () => {
    const student = await api("POST", "/api/students", { as: "admin@demo.test", json: { name: unique("Keep") } });
    const candidate = await api("POST", "/api/candidates", { as: "admin@demo.test", json: { name: unique("Keep") } });
    const deleting = await postForm("teacher@demo.test", `/en/students/${student.body.id}`, { intent: "delete" });
    expect(deleting.status).toBe(403);
    const promoting = await postForm("teacher@demo.test", `/en/candidates/${candidate.body.id}`, { intent: "promote" });
    expect(promoting.status).toBe(403);
    expect((await api("GET", `/api/students/${student.body.id}`, { as: "admin@demo.test" })).status).toBe(200);
    expect((await api("GET", `/api/candidates/${candidate.body.id}`, { as: "admin@demo.test" })).body.status).toBe("NEW");
  });

  it("given a form without the CSRF token, should refuse it", async () => {
    const session = sessionOf("admin@demo.test");
    const response = await api("POST", "/en/students/new", {
      cookie: `${session}; ${inject("csrf")[session]!.cookie}`,
      body: new URLSearchParams({ name: unique("NoToken") }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
    });
    expect(response.status).toBe(403);
  });

  it("given an admin promoting twice, should say it is already promoted instead of failing", async () => {
    const candidate = await api("POST", "/api/candidates", { as: "admin@demo.test", json: { name: unique("Twice") } });
    const first = await postForm("admin@demo.test", `/en/candidates/${candidate.body.id}`, { intent: "promote" });
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toMatch(/^\/en\/students\//);
    const second = await postForm("admin@demo.test", `/en/candidates/${candidate.body.id}`, { intent: "promote" });
    expect(second.status).toBe(302);
    expect(second.headers.get("location")).toBe(`/en/candidates/${candidate.body.id}`);
  });
});

describe("a long history", () => {
  it("given a student with 500 results on one form and 3 on another, should chart and table the latest 50 per form, over the bands each was scored against, and say how many there are", async () => {
    const form = await createForm("teacher@demo.test");
    const other = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test", unique("Long history"));
    const db = testDatabase();
    const teacher = await db.user.findFirstOrThrow({ where: { email: "teacher@demo.test" } });
    const start = Date.UTC(2025, 0, 1);
    const oldBands = [{ min: 0, max: 9.5, label: "Old band", color: "#475569" }];
    const newBands = [
      { min: -5, max: 4, label: "New low", color: "#B42318" },
      { min: 4.5, max: 9.5, label: "New high", color: "#1A7F37" },
    ];
    const row = (formId: string, title: string, i: number, bands: typeof newBands) => ({
      organizationId: teacher.organizationId,
      formId,
      studentId: student.id,
      assignedById: teacher.id,
      token: randomBytes(24).toString("base64url"),
      isCompleted: true,
      completedAt: new Date(start + i * 86_400_000),
      createdAt: new Date(start + i * 86_400_000),
      totalScore: (i % 10) - 1,
      maxScore: 9.5,
      percentage: (((i % 10) - 1) / 9.5) * 100,
      scoreLabel: `Result number ${i + 1}`,
      scoreColor: "#1A7F37",
      formTitle: title,
      // The page reads only the bands back from the snapshot (in the database), but other tests
      // read these results as any report, so the snapshot is whole (ScoredAgainst).
      scoredAgainst: {
        form: { id: formId, title, category: null, type: null },
        respondent: { kind: "student", id: student.id, name: student.name, grade: null, age: null },
        questions: [],
        scoreRanges: bands,
      },
    });
    // Stored directly: 500 assignments and submits over HTTP would only slow the test down. The
    // form's bands changed before its 481st result.
    await db.submission.createMany({
      data: [
        ...Array.from({ length: 500 }, (_, i) => row(form.id, form.title, i, i < 480 ? oldBands : newBands)),
        ...Array.from({ length: 3 }, (_, i) => row(other.id, other.title, 1000 + i, newBands)),
      ],
    });

    const page = await api("GET", `/en/students/${student.id}`, { as: "teacher@demo.test" });
    expect(page.status).toBe(200);
    expect(page.text.length).toBeLessThan(200_000);
    // The latest 50 of the form, and where the rest are.
    expect(page.text).toContain("Result number 500<");
    expect(page.text).toContain("Result number 451<");
    expect(page.text).not.toContain("Result number 450<");
    expect(page.text).toContain("The latest 50 of 500 results are shown.");
    expect(page.text).toContain(`/en/reports?formId=${form.id}&amp;search=`);
    // Drawn over the bands each result was scored against: the old ones, then the new.
    expect(page.text).toMatch(/data-band="Old band"/);
    expect(page.text).toMatch(/data-band="New high"/);
    expect(page.text).toContain("The bands changed between these results");
    // The other form has its own chart and table, all of its results, no "latest of".
    expect(page.text).toContain(`Scores on ${other.title} over time: 3 results`);
    expect(page.text).toContain("Result number 1003<");
    expect(page.text.match(/The latest 50 of/g)).toHaveLength(1);
    // A hand-edited page number of the old paginated table changes nothing.
    expect((await api("GET", `/en/students/${student.id}?page=abc`, { as: "teacher@demo.test" })).status).toBe(200);
  });
});

describe("a history with subscales", () => {
  /** The page's words as a person reads them: the markup gone, the spaces collapsed. */
  const words = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

  it("given DASS-21 results, should headline each total as a score of its maximum, and on request draw a named line and a column per subscale", async () => {
    const form = await installDass21("teacher@demo.test");
    const student = await createStudent("teacher@demo.test", unique("Subscales history"));
    // Depression, anxiety and stress items answered 2, 1, 0 (28, 14, 0 of 42 once doubled), then 1, 1, 1 (14 each).
    for (const itemScore of [
      { depression: 2, anxiety: 1, stress: 0 },
      { depression: 1, anxiety: 1, stress: 1 },
    ]) {
      const link = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
      const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: answersBySubscale(form, itemScore) });
      expect(submit.status, submit.text).toBe(200);
    }

    const plain = await api("GET", `/en/students/${student.id}`, { as: "teacher@demo.test" });
    expect(plain.status).toBe(200);
    const plainText = words(plain.text);
    // The totals, 21 / 63 and 21 / 63, as the DASS-21 shows them: no percentage, no "No band".
    expect(plainText).toContain("21 / 63");
    expect(plainText).not.toContain("33.3%");
    expect(plainText).not.toContain("No band");
    expect(plain.text).toContain(`href="/en/students/${student.id}?subscales=1#history"`);
    expect(plain.text).not.toContain('data-testid="history-subscales"');
    expect(plainText).not.toContain("28 of 42");

    const shown = await api("GET", `/en/students/${student.id}?subscales=1`, { as: "teacher@demo.test" });
    expect(shown.status).toBe(200);
    const shownText = words(shown.text);
    expect(shown.text).toContain('data-testid="history-subscales"');
    for (const key of ["depression", "anxiety", "stress"]) expect(shown.text).toContain(`data-subscale="${key}"`);
    // Each line named in text, not by colour alone: at its end, in the list under it, in the caption.
    expect(shownText).toContain("One line per subscale (Depression, Anxiety, and Stress)");
    expect(shownText).toMatch(/Completed Score Band Since previous Since first Depression Anxiety Stress/);
    // The table, newest first: 14, 14, 14, each with its change since the first; then 28, 14, 0, the baseline.
    expect(shownText).toContain("0 0 14 of 42 -14 since first 14 of 42 0 since first 14 of 42 +14 since first");
    expect(shownText).toContain("— Baseline 28 of 42 14 of 42 0 of 42");
    expect(shown.text).toContain(`href="/en/students/${student.id}#history"`);
    expect(words((await api("GET", `/es/students/${student.id}?subscales=1`, { as: "teacher@demo.test" })).text)).toContain("Ocultar subescalas");
  });
});

describe("a history's change over time", () => {
  /** The page's words as a person reads them: the markup gone, the spaces collapsed. */
  const words = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

  it("given five PHQ-9 results, should table and chart each one's change in words, and the group's results its latest", async () => {
    const form = await installPhq9("teacher@demo.test");
    const student = await createStudent("teacher@demo.test", unique("Change history"));
    const ids = await completeSeries(
      "teacher@demo.test",
      form.id,
      student.id,
      [18, 24, 15, 8, 4].map((total) => totalAnswers(form, total)),
    );

    const page = await api("GET", `/en/students/${student.id}`, { as: "teacher@demo.test" });
    expect(page.status).toBe(200);
    const text = words(page.text);
    // The table, newest first: each result against the one before and the first, the category in words.
    expect(text).toMatch(/Completed Score Band Since previous Since first Reliable change Response Remission/);
    const rows = [
      "4 / 27 Minimal -4 -14 Reliably improved Yes Yes",
      "8 / 27 Mild -7 -10 Reliably improved Yes No",
      "15 / 27 Moderately severe -9 -3 No reliable change No No",
      "24 / 27 Severe \\+6 \\+6 Reliably deteriorated No No",
      "18 / 27 Moderately severe — Baseline — — —",
    ];
    expect(text).toMatch(new RegExp(rows.join(" Jan \\d+, 2026 ")));
    // The chart: the baseline's and the remission's lines, and a mark on each reliable change, said in words under it.
    expect(page.text).toMatch(/data-line="baseline" data-score="18"/);
    expect(page.text).toMatch(/data-line="remission" data-score="5"/);
    expect(page.text.match(/<path[^>]*data-reliable="IMPROVED"/g)).toHaveLength(2 * 2 + 1);
    expect(page.text.match(/<path[^>]*data-reliable="DETERIORATED"/g)).toHaveLength(1 * 2 + 1);
    expect(text).toContain("Baseline (first result): 18 Remission: below 5 Reliably improved Reliably deteriorated");
    expect(page.text).toContain("(Reliably improved)</title>");

    const spanish = words((await api("GET", `/es/students/${student.id}`, { as: "teacher@demo.test" })).text);
    for (const word of [
      "Desde el anterior",
      "Desde el primero",
      "Cambio fiable",
      "Respuesta",
      "Remisión",
      "Mejoría fiable",
      "Empeoramiento fiable",
      "Sin cambio fiable",
      "Línea base",
    ]) {
      expect(spanish).toContain(word);
    }
    const portuguese = words((await api("GET", `/pt-BR/students/${student.id}`, { as: "teacher@demo.test" })).text);
    for (const word of ["Desde o anterior", "Mudança confiável", "Melhora confiável", "Piora confiável", "Sem mudança confiável", "Remissão: abaixo de 5"]) {
      expect(portuguese).toContain(word);
    }

    // A report's page says its change as the table does, and the baseline's that it is one.
    const report = words((await api("GET", `/en/reports/${ids[3]}`, { as: "teacher@demo.test" })).text);
    expect(report).toContain("Since previous -7 Since first -10 Reliable change Reliably improved Response Yes Remission No");
    const baseline = words((await api("GET", `/pt-BR/reports/${ids[0]}`, { as: "teacher@demo.test" })).text);
    expect(baseline).toContain("Desde o primeiro Linha de base");

    // The group's results: the member's latest, its change since the first and its category.
    const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Caseload") } });
    expect((await api("POST", `/api/groups/${group.body.id}/members`, { as: "teacher@demo.test", json: { studentIds: [student.id] } })).status).toBe(200);
    const results = words((await api("GET", `/en/groups/${group.body.id}`, { as: "teacher@demo.test" })).text);
    expect(results).toMatch(new RegExp(`${student.name} Minimal 4 / 27 -14 since first Reliably improved Remission`));
    const resultados = words((await api("GET", `/es/groups/${group.body.id}`, { as: "teacher@demo.test" })).text);
    expect(resultados).toContain("-14 desde el primero Mejoría fiable Remisión");
  });
});
