import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, type DemoUser, sessionOf, unique } from "../support/api.ts";
import { assign, type CreatedForm, createForm, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

/**
 * The respondent-visibility rule (docs/decisions/0042-results-the-respondent-reads.md) over real
 * HTTP: a student's own login reads the score and band of a completed test only when its form has
 * `showResultToRespondent: true`, on every read path the student can reach (the API with the
 * session or a personal token, the home page and its data request, the test's link); the staff's
 * views of results stay closed to the student (403); the teacher who assigned the tests sees
 * every result. student@demo.test is Mateo García's login.
 */

type Case = { shows: boolean; form: CreatedForm; band: string; submissionId: string; token: string };

const cases: Case[] = [];
const caseOf = (shows: boolean) => cases.find((c) => c.shows === shows)!;
const MATRIX = [true, false] as const;
const RESULT_FIELDS = ["totalScore", "maxScore", "percentage", "scoreLabel", "scoreColor"] as const;

/** The medium answers' result on the mixed form: 1 of 9.5, the middle band. */
const shownResult = (band: string) => ({ totalScore: 1, maxScore: 9.5, percentage: 10.53, scoreLabel: band, scoreColor: "#B54708" });
const withheldResult = { totalScore: null, maxScore: null, percentage: null, scoreLabel: null, scoreColor: null };

/** The mixed form with a band label no other test uses, so that its absence from a page means something. */
function formWithBand(shows: boolean, band: string) {
  const body = mixedForm(unique(shows ? "Result shown" : "Result hidden"));
  return {
    ...body,
    showResultToRespondent: shows,
    scoreRanges: body.scoreRanges.map((range) => (range.label === "Medium" ? { ...range, label: band } : range)),
  };
}

async function page(path: string, as: DemoUser) {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie: sessionOf(as) }, redirect: "manual" });
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  const { id: studentId } = await testDatabase().student.findFirstOrThrow({ where: { user: { email: "student@demo.test" } }, select: { id: true } });
  for (const shows of MATRIX) {
    const band = unique(shows ? "ShownBand" : "HiddenBand");
    const form = await createForm("teacher@demo.test", formWithBand(shows, band));
    expect(form).toMatchObject({ showResultToRespondent: shows });
    const link = await assign("teacher@demo.test", { formId: form.id, studentId });
    const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form) });
    expect(submit.status, JSON.stringify(submit.body)).toBe(200);
    cases.push({ shows, form, band, submissionId: link.id, token: link.token });
  }
});

describe.each(MATRIX)("a student's own completed test whose form has showResultToRespondent %s", (shows) => {
  const expectedResult = () => (shows ? shownResult(caseOf(shows).band) : withheldResult);
  /** The band's label is in the text exactly when the form shows the result. */
  const expectBand = (text: string) => {
    if (shows) expect(text).toContain(caseOf(shows).band);
    else expect(text).not.toContain(caseOf(shows).band);
  };

  it("GET /api/submissions (and filtered to completed ones): the result fields only when shown", async () => {
    const { submissionId } = caseOf(shows);
    for (const query of ["", "?isCompleted=true", "?status=COMPLETED&limit=100"]) {
      const list = await api("GET", `/api/submissions${query}`, { as: "student@demo.test" });
      expect(list.status).toBe(200);
      const item = list.body.submissions.find((s: { id: string }) => s.id === submissionId);
      expect(item, `listed by ${query || "no filter"}`).toBeDefined();
      expect(item).toMatchObject({ isCompleted: true, status: "COMPLETED", ...expectedResult() });
      expect(Object.keys(item)).toEqual(expect.arrayContaining([...RESULT_FIELDS]));
      expect(item.form).toEqual({ id: caseOf(shows).form.id, title: caseOf(shows).form.title });
      expectBand(list.text);
    }
  });

  it("GET /api/submissions/:id: the result and each answer's score only when shown; the answers themselves always", async () => {
    const { submissionId, form } = caseOf(shows);
    const detail = await api("GET", `/api/submissions/${submissionId}`, { as: "student@demo.test" });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: submissionId, isCompleted: true, ...expectedResult() });
    expect(detail.body.answers.map((a: { questionId: string }) => a.questionId)).toEqual(form.questions.map((q) => q.id));
    expect(detail.body.answers[0]).toMatchObject({ optionTexts: ["B"] });
    expect(detail.body.answers.map((a: { score: number | null }) => a.score)).toEqual(shows ? [-2, 1, 2, 0] : [null, null, null, null]);
    expect(detail.body).not.toHaveProperty("token");
    expectBand(detail.text);
  });

  it("GET /api/submissions with the student's personal API token: the same as with the session", async () => {
    const created = await api("POST", "/api/user/tokens", { as: "student@demo.test", json: { name: unique("Visibility") } });
    expect(created.status).toBe(201);
    try {
      const bearer = { authorization: `Bearer ${created.body.token}` };
      const list = await api("GET", "/api/submissions?isCompleted=true&limit=100", { headers: bearer });
      expect(list.status).toBe(200);
      expect(list.body.submissions.find((s: { id: string }) => s.id === caseOf(shows).submissionId)).toMatchObject(expectedResult());
      const detail = await api("GET", `/api/submissions/${caseOf(shows).submissionId}`, { headers: bearer });
      expect(detail.body).toMatchObject(expectedResult());
      expectBand(list.text + detail.text);
    } finally {
      expect((await api("DELETE", `/api/user/tokens/${created.body.id}`, { as: "student@demo.test" })).status).toBe(200);
    }
  });

  it("GET /api/user/assignments: the result only when shown", async () => {
    const response = await api("GET", "/api/user/assignments", { as: "student@demo.test" });
    expect(response.status).toBe(200);
    const item = response.body.assignments.find((a: { id: string }) => a.id === caseOf(shows).submissionId);
    expect(item).toMatchObject({ status: "COMPLETED", url: null });
    if (shows) expect(item.result).toMatchObject({ totalScore: 1, maxScore: 9.5, percentage: 10.53, scoreLabel: caseOf(shows).band });
    else expect(item.result).toBeNull();
    expectBand(response.text);
  });

  it("the home page and its data request: the band and score only when shown", async () => {
    const home = await page("/en/home", "student@demo.test");
    expect(home.status).toBe(200);
    expect(home.text).toContain(caseOf(shows).form.title);
    expectBand(home.text);
    if (shows) expect(home.text).toContain("1 of 9.5");
    const data = await page("/en/home.data", "student@demo.test");
    expect(data.status).toBe(200);
    expect(data.text).toContain(caseOf(shows).form.title);
    expectBand(data.text);
  });

  it("the test's link once answered: the thank-you page and the API's 409, never the result (either way)", async () => {
    const { token, band } = caseOf(shows);
    const link = await page(`/en/test/${token}`, "student@demo.test");
    expect(link.status).toBe(200);
    expect(link.text).toContain("Your answers have been received.");
    expect(link.text).not.toContain(band);
    const read = await api("GET", `/api/test-link/${token}`, { as: "student@demo.test" });
    expect(read.status).toBe(409);
    expect(read.text).not.toContain(band);
  });

  it("the staff's views of results (reports, PDFs, exports, summaries, histories): 403, without the result", async () => {
    const { submissionId, form, band } = caseOf(shows);
    const { id: studentId } = await testDatabase().student.findFirstOrThrow({ where: { user: { email: "student@demo.test" } }, select: { id: true } });
    const apiReads: [string, string, unknown?][] = [
      ["GET", "/api/reports"],
      ["GET", `/api/reports/${submissionId}`],
      ["POST", "/api/reports/export", { submissionId }],
      ["GET", `/api/reports/export?format=csv&formId=${form.id}`],
      ["GET", `/api/forms/${form.id}/summary`],
      ["GET", `/api/students/${studentId}`],
    ];
    for (const [method, path, json] of apiReads) {
      const response = await api(method, path, { as: "student@demo.test", ...(json ? { json } : {}) });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(response.text).not.toContain(band);
    }
    for (const path of [
      "/en/reports",
      `/en/reports/${submissionId}`,
      `/en/reports/${submissionId}/pdf`,
      `/en/students/${studentId}`,
      `/en/forms/${form.id}/summary`,
      `/en/assignments/${submissionId}`,
    ]) {
      const response = await page(path, "student@demo.test");
      expect(response.status, path).toBe(403);
      expect(response.text).not.toContain(band);
    }
  });

  it("the teacher who assigned it: the whole result, whatever the form shows its respondent", async () => {
    const { submissionId, band } = caseOf(shows);
    const list = await api("GET", "/api/submissions?isCompleted=true&limit=100", { as: "teacher@demo.test" });
    expect(list.body.submissions.find((s: { id: string }) => s.id === submissionId)).toMatchObject(shownResult(band));
    const detail = await api("GET", `/api/submissions/${submissionId}`, { as: "teacher@demo.test" });
    expect(detail.body).toMatchObject(shownResult(band));
    expect(detail.body.answers.map((a: { score: number | null }) => a.score)).toEqual([-2, 1, 2, 0]);
    const report = await api("GET", `/api/reports/${submissionId}`, { as: "teacher@demo.test" });
    expect(report.body).toMatchObject({ totalScore: 1, scoreLabel: band });
    const reportPage = await page(`/en/reports/${submissionId}`, "teacher@demo.test");
    expect(reportPage.status).toBe(200);
    expect(reportPage.text).toContain(band);
    const admin = await api("GET", `/api/submissions/${submissionId}`, { as: "admin@demo.test" });
    expect(admin.body).toMatchObject(shownResult(band));
  });
});
