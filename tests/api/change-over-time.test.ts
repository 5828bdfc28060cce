import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { pdfText } from "../support/pdf-text.ts";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { completeSeries, installPhq9, totalAnswers } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { errorPaths, expectProblem } from "../support/fixtures.ts";

/**
 * Care over time's change (docs/api-contract.md §18, ADR 80) over real HTTP: a form's
 * reliable-change constants, remission threshold and direction (set, refused, locked on an
 * installed instrument), and the change every completed result carries in the person's history,
 * the report, its PDF and the export, compared with figures worked out by hand from the
 * Jacobson–Truax formula and the PHQ-9's constants (tests/unit/change.test.ts works the same).
 */
const as = "teacher@demo.test" as const;

const figures = (fromPrevious: number | null, fromBaseline: number | null, reliable: string | null, response: boolean | null, remission: boolean | null) => ({
  fromPrevious,
  fromBaseline,
  reliable,
  response,
  remission,
});
const NOTHING = figures(null, null, null, null, null);

/** A form of five 0-to-3 items whose first three are the subscale "cognitive", with its own constants. */
function subscaleForm(constants: Record<string, unknown> = {}) {
  const items = ["q1", "q2", "q3", "q4", "q5"];
  return {
    title: unique("Mood check"),
    isPublished: true,
    questions: items.map((key) => ({
      key,
      text: `Item ${key}`,
      type: "SINGLE_CHOICE",
      required: true,
      options: [0, 1, 2, 3].map((score) => ({ text: `Scores ${score}`, score })),
    })),
    scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "RAW" },
    subscales: [
      { key: "cognitive", name: "Cognitive", items: ["q1", "q2", "q3"], reliableChange: { sd: 2.5, reliability: 0.8 }, remissionBelow: 2 },
      { key: "somatic", name: "Somatic", items: ["q4", "q5"] },
    ],
    ...constants,
  };
}

describe("a form's change constants", () => {
  it("given constants, should keep them and answer them, change them with PUT, and default to none, lower is better", async () => {
    const created = await api("POST", "/api/forms", {
      as,
      json: subscaleForm({ reliableChange: { sd: 4.8, reliability: 0.84 }, remissionBelow: 5, lowerIsBetter: false }),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ reliableChange: { sd: 4.8, reliability: 0.84 }, remissionBelow: 5, lowerIsBetter: false });
    expect(created.body.subscales).toMatchObject([
      { key: "cognitive", reliableChange: { sd: 2.5, reliability: 0.8 }, remissionBelow: 2 },
      { key: "somatic", reliableChange: null, remissionBelow: null },
    ]);

    const changed = await api("PUT", `/api/forms/${created.body.id}`, { as, json: { reliableChange: null, remissionBelow: 4.5 } });
    expect(changed.status, changed.text).toBe(200);
    const read = await api("GET", `/api/forms/${created.body.id}`, { as });
    expect(read.body).toMatchObject({ reliableChange: null, remissionBelow: 4.5, lowerIsBetter: false });

    const plain = await api("POST", "/api/forms", { as, json: { title: unique("No constants") } });
    expect(plain.body).toMatchObject({ reliableChange: null, remissionBelow: null, lowerIsBetter: true });
  });

  it.each([
    { refused: "a standard deviation of 0", body: { reliableChange: { sd: 0, reliability: 0.8 } }, path: "reliableChange.sd" },
    { refused: "a negative standard deviation", body: { reliableChange: { sd: -2, reliability: 0.8 } }, path: "reliableChange.sd" },
    { refused: "a reliability of 1", body: { reliableChange: { sd: 4, reliability: 1 } }, path: "reliableChange.reliability" },
    { refused: "a negative reliability", body: { reliableChange: { sd: 4, reliability: -0.1 } }, path: "reliableChange.reliability" },
    { refused: "half the constants", body: { reliableChange: { sd: 4 } }, path: "reliableChange.reliability" },
    {
      refused: "a subscale's reliability of 1",
      body: { subscales: [{ key: "all", name: "All", items: ["q1"], reliableChange: { sd: 1, reliability: 1 } }] },
      path: "subscales.0.reliableChange.reliability",
    },
  ])("given $refused, should refuse it with 400 naming the field", async ({ body, path: field }) => {
    const base = subscaleForm();
    const response = await api("POST", "/api/forms", { as, json: { ...base, ...body } });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual([field]);
    const form = (await api("POST", "/api/forms", { as, json: base })).body;
    const update = await api("PUT", `/api/forms/${form.id}`, { as, json: body });
    expectProblem(update, 400, "VALIDATION_FAILED");
    expect(errorPaths(update)).toEqual([field]);
  });

  it("given an installed PHQ-9, should answer the library's constants and refuse to change them with 409 INSTRUMENT_LOCKED", async () => {
    const listed = await api("GET", "/api/instruments", { as });
    expect(listed.body.instruments.find((instrument: { key: string }) => instrument.key === "phq-9")).toMatchObject({
      version: "2",
      reliableChange: { sd: 4.8, reliability: 0.84 },
      remissionBelow: 5,
      lowerIsBetter: true,
    });
    const form = await installPhq9(as);
    expect(form).toMatchObject({ reliableChange: { sd: 4.8, reliability: 0.84 }, remissionBelow: 5, lowerIsBetter: true });
    for (const body of [{ reliableChange: { sd: 5, reliability: 0.8 } }, { reliableChange: null }, { remissionBelow: 10 }, { lowerIsBetter: false }]) {
      const refused = await api("PUT", `/api/forms/${form.id}`, { as, json: body });
      expectProblem(refused, 409, "INSTRUMENT_LOCKED");
      expect(errorPaths(refused)).toEqual(Object.keys(body));
    }
    const read = await api("GET", `/api/forms/${form.id}`, { as });
    expect(read.body).toMatchObject({ reliableChange: { sd: 4.8, reliability: 0.84 }, remissionBelow: 5, lowerIsBetter: true });
    // The details its lock leaves open still change.
    expect((await api("PUT", `/api/forms/${form.id}`, { as, json: { title: unique("Renamed PHQ-9") } })).status).toBe(200);
  });
});

describe("the change of every completed result", () => {
  // PHQ-9 totals 18, 24, 15, 8, 4; standard error 4.8 × √2 × √(1 − 0.84) = 2.71529; half of 18 is 9.
  const TOTALS = [18, 24, 15, 8, 4];
  const EXPECTED = [
    NOTHING,
    figures(6, 6, "DETERIORATED", false, false), // +6 / 2.71529 = 2.210
    figures(-9, -3, "NO_CHANGE", false, false), // −1.105
    figures(-7, -10, "IMPROVED", true, false), // −3.683; a fall of 10 ≥ 9
    figures(-4, -14, "IMPROVED", true, true), // −5.156; 4 < 5
  ];

  it("given five PHQ-9 results of a student, should carry the figures worked out by hand in the history, the report, its PDF and the export", async () => {
    const form = await installPhq9(as);
    const student = (await api("POST", "/api/students", { as, json: { name: unique("Series") } })).body;
    // An assignment not completed carries no change.
    const pending = await api("POST", "/api/submissions", { as, json: { formId: form.id, studentId: student.id } });
    const ids = await completeSeries(
      as,
      form.id,
      student.id,
      TOTALS.map((total) => totalAnswers(form, total)),
    );

    const read = await api("GET", `/api/students/${student.id}`, { as });
    expect(read.status).toBe(200);
    const byId = new Map(read.body.submissions.map((item: { id: string }) => [item.id, item]));
    expect(ids.map((id) => (byId.get(id) as { totalScore: number }).totalScore)).toEqual(TOTALS);
    expect(ids.map((id) => (byId.get(id) as { change: unknown }).change)).toEqual(EXPECTED);
    expect(ids.map((id) => (byId.get(id) as { subscales: unknown[] }).subscales)).toEqual([[], [], [], [], []]);
    expect(byId.get(pending.body.id)).toMatchObject({ isCompleted: false, change: null, subscales: [] });

    const first = await api("GET", `/api/reports/${ids[0]}`, { as });
    expect(first.body).toMatchObject({ change: NOTHING, isBaseline: true });
    const fourth = await api("GET", `/api/reports/${ids[3]}`, { as });
    expect(fourth.body).toMatchObject({ change: EXPECTED[3], isBaseline: false });

    const pdf = await api("POST", "/api/reports/export", { as, json: { submissionId: ids[3] } });
    expect(pdf.status).toBe(200);
    const text = pdfText(await (await fetch(`${baseUrl()}/en/reports/${ids[3]}/pdf`, { headers: { cookie: sessionOf(as) } })).arrayBuffer());
    expect(text).toContain("CHANGE OVER TIME");
    expect(text).toContain("Since previous: -7 · Since first: -10 · Reliable change: Reliably improved · Response: Yes · Remission: No");
    const baselinePdf = pdfText(await (await fetch(`${baseUrl()}/es/reports/${ids[0]}/pdf`, { headers: { cookie: sessionOf(as) } })).arrayBuffer());
    expect(baselinePdf).toContain("El primer resultado de la persona en este formulario");

    const csv = await fetch(`${baseUrl()}/api/reports/export?format=csv&formId=${form.id}`, { headers: { cookie: sessionOf(as) } });
    const [header, ...rows] = parse(Buffer.from(await csv.arrayBuffer()), { bom: true }) as string[][];
    const column = (name: string) => header!.indexOf(name);
    const cells = (id: string) => {
      const row = rows.find((cellsOfRow) => cellsOfRow[0] === id)!;
      return ["fromPrevious", "fromBaseline", "reliableChange", "response", "remission"].map((name) => row[column(name)]);
    };
    expect(ids.map(cells)).toEqual([
      ["", "", "", "", ""],
      ["6", "6", "DETERIORATED", "false", "false"],
      ["-9", "-3", "NO_CHANGE", "false", "false"],
      ["-7", "-10", "IMPROVED", "true", "false"],
      ["-4", "-14", "IMPROVED", "true", "true"],
    ]);
  });

  it("given five results of a candidate on a form with a subscale of its own constants, should give the subscale's figures as the total's", async () => {
    const form = (await api("POST", "/api/forms", { as, json: subscaleForm({ reliableChange: { sd: 4.8, reliability: 0.84 }, remissionBelow: 5 }) })).body;
    const candidate = (await api("POST", "/api/candidates", { as, json: { name: unique("Subscale series") } })).body;
    // The cognitive items (q1 to q3) add up to 6, 7, 3, 2, 1; the somatic ones (q4, q5) to 6 each time.
    const cognitive = [6, 7, 3, 2, 1];
    const answers = (score: number) => {
      let left = score;
      return {
        answers: form.questions.map((question: { id: string; key: string; options: { id: string; score: number }[] }) => {
          const item = ["q4", "q5"].includes(question.key) ? 3 : Math.min(3, left);
          if (!["q4", "q5"].includes(question.key)) left -= item;
          return { questionId: question.id, optionIds: [question.options.find((option) => option.score === item)!.id] };
        }),
      };
    };
    const ids: string[] = [];
    for (const [index, score] of cognitive.entries()) {
      const link = (await api("POST", "/api/submissions", { as, json: { formId: form.id, candidateId: candidate.id } })).body;
      expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: answers(score) })).status).toBe(200);
      const moved = await api("GET", `/api/reports/${link.id}`, { as });
      expect(moved.body.totalScore).toBe(score + 6);
      ids.push(link.id);
      // A day apart, in the order given.
      await testDatabase().submission.update({
        where: { id: link.id },
        data: { completedAt: new Date(Date.UTC(2026, 1, 1 + index, 9)) },
      });
    }

    const read = await api("GET", `/api/candidates/${candidate.id}`, { as });
    const byId = new Map(read.body.evaluations.map((item: { id: string }) => [item.id, item]));
    const subscale = (id: string, key: string) => (byId.get(id) as { subscales: { key: string }[] }).subscales.find((entry) => entry.key === key);
    // sd 2.5, reliability 0.8: standard error 2.5 × √2 × √0.2 = 1.58114; half of 6 is 3; remission below 2.
    expect(ids.map((id) => subscale(id, "cognitive"))).toEqual([
      { key: "cognitive", name: "Cognitive", score: 6, maxScore: 9, change: NOTHING },
      { key: "cognitive", name: "Cognitive", score: 7, maxScore: 9, change: figures(1, 1, "NO_CHANGE", false, false) }, // 0.632
      { key: "cognitive", name: "Cognitive", score: 3, maxScore: 9, change: figures(-4, -3, "NO_CHANGE", true, false) }, // −1.897
      { key: "cognitive", name: "Cognitive", score: 2, maxScore: 9, change: figures(-1, -4, "IMPROVED", true, false) }, // −2.530
      { key: "cognitive", name: "Cognitive", score: 1, maxScore: 9, change: figures(-1, -5, "IMPROVED", true, true) }, // −3.162
    ]);
    // The somatic subscale has no constants: its differences alone.
    expect(subscale(ids[4]!, "somatic")).toMatchObject({ score: 6, change: figures(0, 0, null, null, null) });
    // The totals 12, 13, 9, 8, 7 against the form's own constants.
    expect(ids.map((id) => (byId.get(id) as { change: { fromBaseline: number | null; reliable: string | null } }).change)).toEqual([
      NOTHING,
      figures(1, 1, "NO_CHANGE", false, false),
      figures(-4, -3, "NO_CHANGE", false, false),
      figures(-1, -4, "NO_CHANGE", false, false),
      figures(-1, -5, "NO_CHANGE", false, false),
    ]);
    // The report gives each subscale its change too.
    const report = await api("GET", `/api/reports/${ids[4]}`, { as });
    expect(report.body.subscales.map((entry: { key: string; change: unknown }) => [entry.key, entry.change])).toEqual([
      ["cognitive", figures(-1, -5, "IMPROVED", true, true)],
      ["somatic", figures(0, 0, null, null, null)],
    ]);
  });
});
