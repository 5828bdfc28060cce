import { beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "../../app/lib/db.server.ts";
import { api, unique } from "../support/api.ts";
import { completeQuiz, type KeyedQuizForm, keyedQuiz, type QuizPicks, rekeyedQuiz } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createOrganization, createSignedInUser, expectProblem, type OwnOrganization } from "../support/fixtures.ts";
import { summaryRecount, summaryTallies } from "../support/recount.ts";

/**
 * A form's versions and the rescore of its results (docs/api-contract.md §22, ADR 94) over real
 * HTTP: GET /api/forms/:id/versions counts the results of each version; POST /api/forms/:id/rescore
 * lists (dry run) or rescores exactly the results whose scores the change of key changes, records
 * every result as scored against the current version and one audit event, and leaves the summary's
 * tallies equal to a recount, over 1,000 results as over four.
 */

let org: OwnOrganization;
const teacher = () => ({ cookie: org.teacher });
const admin = () => ({ cookie: org.admin });

beforeAll(async () => {
  org = await createOrganization("Rescore");
});

async function createQuiz(title = unique("Rescored quiz"), extra: Record<string, unknown> = {}): Promise<KeyedQuizForm> {
  const response = await api("POST", "/api/forms", { ...teacher(), json: { ...keyedQuiz(title), ...extra } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Changes the quiz by `change` (a PUT keeping every question and option by id): the form as it is then. */
async function changeQuiz(form: KeyedQuizForm, change: Parameters<typeof rekeyedQuiz>[1]): Promise<KeyedQuizForm> {
  const response = await api("PUT", `/api/forms/${form.id}`, { ...teacher(), json: rekeyedQuiz(form, change) });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** The key moves from Paris to Lyon, and the prime numbers earn partial credit. */
const lyonAndPartial = (question: KeyedQuizForm["questions"][number], index: number) =>
  index === 0
    ? { options: question.options.map(({ id, text, score }) => ({ id, text, score, correct: text === "Lyon" })) }
    : index === 1
      ? { scoringRule: "PARTIAL" }
      : {};

const rescore = (formId: string, body: { dryRun?: boolean }, caller: { cookie?: string; as?: "admin@other.test" } = teacher()) =>
  api("POST", `/api/forms/${formId}/rescore`, { ...caller, json: body });

const round2 = (value: number) => Math.round(value * 100) / 100;

/** A keyed question's score for the chosen option ids, as the contract states the rules. */
function keyScore(question: KeyedQuizForm["questions"][number], chosen: readonly string[]): number {
  const correct = new Set(question.options.filter((option) => option.correct).map((option) => option.id));
  const points = question.points ?? 0;
  if (chosen.length === 0) return 0;
  const right = chosen.filter((id) => correct.has(id)).length;
  const wrong = chosen.length - right;
  if (question.type === "SINGLE_CHOICE") return right > 0 ? points : 0;
  if (question.scoringRule === "PARTIAL") return Math.max(0, round2((points * (right - wrong)) / correct.size));
  return right === correct.size && wrong === 0 ? points : 0;
}

const bandOf = (total: number) => (total <= 2.5 ? "Needs work" : "Secure");

/** Each completed result of the form with its answers, as stored. */
const storedResults = (formId: string) =>
  testDatabase().submission.findMany({
    where: { formId, isCompleted: true, deletedAt: null },
    include: { answers: { orderBy: { position: "asc" } } },
    orderBy: { id: "asc" },
  });

/** What a recount from the stored answers says each result scores against the form as it is now. */
function recounted(form: KeyedQuizForm, results: Awaited<ReturnType<typeof storedResults>>) {
  const byId = new Map(form.questions.map((question) => [question.id, question]));
  return new Map(
    results.map((result) => {
      const answers = result.answers.map((answer) => {
        const question = byId.get(answer.questionId);
        return { id: answer.id, before: answer.score, after: question ? keyScore(question, answer.optionIds as string[]) : 0 };
      });
      const total = answers.reduce((sum, answer) => sum + answer.after, 0);
      return [result.id, { total, answers, changed: total !== result.totalScore || answers.some((answer) => answer.after !== answer.before) }] as const;
    }),
  );
}

const eventsFor = (formId: string) => testDatabase().auditEvent.findMany({ where: { action: "submission.rescored", targetId: formId } });

describe("GET /api/forms/:id/versions and POST /api/forms/:id/rescore", () => {
  let form: KeyedQuizForm;
  /** A teacher of the organization who is not the author: the form is a template they may assign. */
  let colleague: { cookie: string };
  /**
   * Five results at version 1: Paris, Lyon, Nice and no answer to the first question, assigned by
   * the author, and Paris assigned by the colleague.
   */
  const ids: Record<"paris" | "lyon" | "nice" | "none" | "colleagues", string> = { paris: "", lyon: "", nice: "", none: "", colleagues: "" };

  beforeAll(async () => {
    colleague = { cookie: (await createSignedInUser("TEACHER", { as: "superadmin@demo.test", organizationId: org.id })).cookie };
    form = await createQuiz(unique("Rescored template"), { isTemplate: true });
    ids.paris = await completeQuiz(teacher(), form, [0, [0, 1], 0], unique("Ana"));
    ids.lyon = await completeQuiz(teacher(), form, [1, [0, 1], 0], unique("Bea"));
    ids.nice = await completeQuiz(teacher(), form, [2, [0, 1], 1], unique("Caio"));
    ids.none = await completeQuiz(teacher(), form, [null, [], null], unique("Dora"));
    ids.colleagues = await completeQuiz(colleague, form, [0, [], null], unique("Fia"));
  });

  it("given a form whose key changed after four results, should list its versions with their dates and result counts", async () => {
    const before = await api("GET", `/api/forms/${form.id}/versions`, teacher());
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({ version: 1, versions: [{ version: 1, createdAt: expect.any(String), results: 5 }] });
    // The colleague reads the template, so its versions too.
    expect((await api("GET", `/api/forms/${form.id}/versions`, colleague)).body).toEqual(before.body);

    form = await changeQuiz(form, (question, index) => (index === 0 ? lyonAndPartial(question, index) : {}));
    expect(form.version).toBe(2);
    const after = await api("GET", `/api/forms/${form.id}/versions`, admin());
    expect(after.body.version).toBe(2);
    expect(after.body.versions.map(({ version, results }: { version: number; results: number }) => [version, results])).toEqual([
      [1, 5],
      [2, 0],
    ]);
    expect(Date.parse(after.body.versions[1].createdAt)).toBeGreaterThanOrEqual(Date.parse(after.body.versions[0].createdAt));
  });

  it("given a dry run, should list exactly the results whose scores change, before and after, and change nothing", async () => {
    const stored = await storedResults(form.id);
    const dry = await rescore(form.id, { dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, version: 2, results: 5 });
    const byId = Object.fromEntries(dry.body.changed.map((change: { submissionId: string }) => [change.submissionId, change]));
    expect(Object.keys(byId).sort()).toEqual([ids.paris, ids.lyon, ids.colleagues].sort());
    // The colleague's result is listed without its respondent's name to the author; an administrator sees it.
    expect(byId[ids.colleagues]).toMatchObject({ respondentName: null, before: { totalScore: 2 }, after: { totalScore: 0, scoreLabel: "Needs work" } });
    const asAdmin = await rescore(form.id, { dryRun: true }, admin());
    expect(asAdmin.body.changed.find((change: { submissionId: string }) => change.submissionId === ids.colleagues).respondentName).toMatch(/^Fia-/);
    expect(byId[ids.paris]).toEqual({
      submissionId: ids.paris,
      respondentName: expect.stringMatching(/^Ana-/),
      before: { totalScore: 6, maxScore: 6, percentage: 100, scoreLabel: "Secure", scoreColor: "#1A7F37" },
      after: { totalScore: 4, maxScore: 6, percentage: 66.67, scoreLabel: "Secure", scoreColor: "#1A7F37" },
    });
    expect(byId[ids.lyon].before).toMatchObject({ totalScore: 4 });
    expect(byId[ids.lyon].after).toMatchObject({ totalScore: 6, percentage: 100 });

    expect(await storedResults(form.id)).toEqual(stored);
    expect(await eventsFor(form.id)).toEqual([]);
  });

  it("given a teacher who is not the author, should answer 403; another organization, 404 (both operations); a bad body, 400", async () => {
    expectProblem(await rescore(form.id, {}, colleague), 403, "FORBIDDEN");
    expectProblem(await rescore(form.id, { dryRun: true }, colleague), 403, "FORBIDDEN");
    expectProblem(await rescore(form.id, { dryRun: true }, { as: "admin@other.test" }), 404, "NOT_FOUND");
    expectProblem(await api("GET", `/api/forms/${form.id}/versions`, { as: "admin@other.test" }), 404, "NOT_FOUND");
    expectProblem(await rescore(form.id, { dryRun: "yes" } as never), 400, "VALIDATION_FAILED");
    expect((await storedResults(form.id)).map((result) => result.formVersion)).toEqual([1, 1, 1, 1, 1]);
  });

  it("given the rescore, should change those results' scores and answers, record every result at the current version, keep the flags and the respondent, and record one event", async () => {
    const before = await storedResults(form.id);
    // A result completed after the change is scored against version 2 already: not rescored.
    const later = await completeQuiz(teacher(), form, [0, [0], 0], unique("Eli"));

    const done = await rescore(form.id, {});
    expect(done.status, done.text).toBe(200);
    expect(done.body.dryRun).toBe(false);
    expect(done.body.results).toBe(5);
    expect(done.body.changed.map((change: { submissionId: string }) => change.submissionId).sort()).toEqual([ids.paris, ids.lyon, ids.colleagues].sort());

    const after = await storedResults(form.id);
    expect(after.map((result) => result.formVersion)).toEqual(after.map(() => 2));
    const expected = recounted(form, before);
    for (const result of after.filter((row) => row.id !== later)) {
      const recount = expected.get(result.id)!;
      const old = before.find((row) => row.id === result.id)!;
      expect(result.totalScore, result.id).toBe(recount.total);
      expect(result.scoreLabel).toBe(bandOf(recount.total));
      expect(result.answers.map((answer) => answer.score)).toEqual(recount.answers.map((answer) => answer.after));
      expect(result.flags).toEqual(old.flags);
      expect(result.flaggedAt).toEqual(old.flaggedAt);
      // The snapshot holds the key scored with now, and the respondent captured at completion.
      const snapshot = result.scoredAgainst as { respondent: unknown; form: unknown; questions: { options: { text: string; correct: boolean }[] }[] };
      const captured = old.scoredAgainst as typeof snapshot;
      expect(snapshot.respondent).toEqual(captured.respondent);
      expect(snapshot.form).toEqual(captured.form);
      expect(snapshot.questions[0]!.options.filter((option) => option.correct).map((option) => option.text)).toEqual(["Lyon"]);
      // Only the changed results were written with a new date.
      expect(result.updatedAt.getTime() === old.updatedAt.getTime(), result.id).toBe(!recount.changed);
    }

    const events = await eventsFor(form.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ targetType: "form", actorId: org.teacherId, organizationId: org.id, details: { version: 2, results: 5, changed: 3 } });
    expect(await summaryTallies(form.id)).toEqual(await summaryRecount(form.id));

    // Nothing left to rescore: nothing written, no second event.
    const again = await rescore(form.id, {});
    expect(again.body).toEqual({ dryRun: false, version: 2, results: 0, changed: [] });
    expect(await eventsFor(form.id)).toHaveLength(1);
    const versions = (await api("GET", `/api/forms/${form.id}/versions`, teacher())).body.versions;
    expect(versions.map(({ results }: { results: number }) => results)).toEqual([0, 6]);
  });

  it("given an option and a question removed, should count the option as not chosen and keep the removed question's answer scored 0", async () => {
    let quiz = await createQuiz();
    const niceAndMars = await completeQuiz(teacher(), quiz, [2, [0, 1], 1]);
    const parisAndJupiter = await completeQuiz(teacher(), quiz, [0, [0, 1], 0]);
    const removed = quiz.questions[2]!.id;
    const nice = quiz.questions[0]!.options[2]!.id;
    // Nice is no longer an option of the first question, and the third question is gone.
    const response = await api("PUT", `/api/forms/${quiz.id}`, {
      ...teacher(),
      json: { questions: rekeyedQuiz(quiz, (question, index) => (index === 0 ? { options: question.options.slice(0, 2) } : {})).questions.slice(0, 2) },
    });
    expect(response.status, response.text).toBe(200);
    quiz = response.body;
    expect(quiz.version).toBe(2);

    const done = await rescore(quiz.id, {});
    expect(done.status, done.text).toBe(200);
    const changes = Object.fromEntries(done.body.changed.map((change: { submissionId: string }) => [change.submissionId, change]));
    // The maximum falls from 6 to 5 for both; Jupiter's point goes with its question.
    expect(changes[niceAndMars].after).toMatchObject({ totalScore: 3, maxScore: 5, percentage: 60 });
    expect(changes[parisAndJupiter].after).toMatchObject({ totalScore: 5, maxScore: 5, percentage: 100 });

    const answers = await testDatabase().answer.findMany({ where: { submissionId: niceAndMars }, orderBy: { position: "asc" } });
    // Each answer keeps what was chosen; Nice scores nothing, and Mars keeps its row, scored 0 of 0.
    expect(answers.map((answer) => [answer.score, answer.maxScore])).toEqual([
      [0, 2],
      [3, 3],
      [0, 0],
    ]);
    expect(answers[0]!.optionIds).toEqual([nice]);
    expect(answers[2]!.questionId).toBe(removed);
    expect(await summaryTallies(quiz.id)).toEqual(await summaryRecount(quiz.id));
  });
});

describe("a rescore of 1,000 results", () => {
  it("given a change of key, should change exactly the results whose answers it affects, and leave the summary and its tallies equal to a recount", async () => {
    let form = await createQuiz(unique("Thousand"));
    // One real result for every combination of answers (3 × 5 × 2), then copies of them up to
    // 1,000, written straight to the database: the same rows a submit writes, without 1,000 submits.
    const combinations: QuizPicks[] = [0, 1, 2].flatMap((q1) =>
      [[], [0], [0, 1], [1, 2], [0, 1, 2]].flatMap((q2) => [0, 1].map((q3): QuizPicks => [q1, q2, q3])),
    );
    for (const picks of combinations) await completeQuiz(teacher(), form, picks);
    await copyResults(form.id, 1000);

    const summaryBefore = (await api("GET", `/api/forms/${form.id}/summary`, admin())).body;
    expect(summaryBefore.completed).toBe(1000);
    expect(summaryBefore.versions).toEqual([{ version: 1, results: 1000 }]);

    form = await changeQuiz(form, lyonAndPartial);
    const before = await storedResults(form.id);
    const expected = recounted(form, before);
    const changedIds = [...expected].filter(([, recount]) => recount.changed).map(([id]) => id);
    // Unchanged: Nice with no primes, both right ones, or 3 and 4.
    expect(changedIds.length).toBeGreaterThan(700);
    expect(changedIds.length).toBeLessThan(1000);

    const dry = await rescore(form.id, { dryRun: true });
    expect(dry.body.results).toBe(1000);
    expect(dry.body.changed.map((change: { submissionId: string }) => change.submissionId).sort()).toEqual([...changedIds].sort());

    const started = performance.now();
    const done = await rescore(form.id, {});
    const took = performance.now() - started;
    expect(done.status, done.text).toBe(200);
    expect(done.body.changed).toEqual(dry.body.changed.map((change: object) => ({ ...change })));
    // ≈0.25 s on SQLite and ≈1.7 s on PostgreSQL on an idle machine; generous here, as the suite shares its cores.
    expect(took).toBeLessThan(10_000);

    const after = await storedResults(form.id);
    expect(after).toHaveLength(1000);
    for (const result of after) {
      const recount = expected.get(result.id)!;
      expect(result.formVersion).toBe(2);
      expect(result.totalScore, result.id).toBe(recount.total);
      expect(result.scoreLabel).toBe(bandOf(recount.total));
      expect(result.answers.map((answer) => answer.score)).toEqual(recount.answers.map((answer) => answer.after));
    }
    expect(await summaryTallies(form.id)).toEqual(await summaryRecount(form.id));

    // The summary from the tallies is the one counted from the rows (a date range, a version).
    const tallied = (await api("GET", `/api/forms/${form.id}/summary`, admin())).body;
    const counted = (await api("GET", `/api/forms/${form.id}/summary?from=2000-01-01`, admin())).body;
    const ofVersion = (await api("GET", `/api/forms/${form.id}/summary?version=2`, admin())).body;
    expect(counted).toEqual(tallied);
    expect(ofVersion).toEqual(tallied);
    expect(tallied.versions).toEqual([
      { version: 1, results: 0 },
      { version: 2, results: 1000 },
    ]);
    const lyon = form.questions[0]!.options[1]!.id;
    const choseLyon = after.filter((result) => (result.answers[0]!.optionIds as string[]).includes(lyon)).length;
    expect(tallied.questions[0].correctRate).toBe(Math.round((choseLyon / 1000) * 10_000) / 10_000);
    expect((await eventsFor(form.id)).map((event) => event.details)).toEqual([{ version: 2, results: 1000, changed: changedIds.length }]);
  });
});

/** Copies of the form's completed results and their answers, up to `total`, as new rows. */
async function copyResults(formId: string, total: number) {
  const db = testDatabase();
  const originals = await storedResults(formId);
  const tag = unique("copy").replace(/\W/g, "");
  const submissions: Prisma.SubmissionCreateManyInput[] = [];
  const answers: Prisma.AnswerCreateManyInput[] = [];
  for (let i = originals.length; i < total; i++) {
    const { answers: originalAnswers, id: _id, token: _token, ...row } = originals[i % originals.length]!;
    const id = `${tag}r${String(i).padStart(4, "0")}`;
    submissions.push({ ...row, id, token: `${tag}-${i}-${"x".repeat(24)}` } as Prisma.SubmissionCreateManyInput);
    for (const { id: _answerId, submissionId: _submissionId, ...answer } of originalAnswers) {
      answers.push({ ...answer, id: `${id}a${answer.position}`, submissionId: id } as Prisma.AnswerCreateManyInput);
    }
  }
  await db.submission.createMany({ data: submissions });
  await db.answer.createMany({ data: answers });
}
