import { describe, expect, it } from "vitest";
import { api, postPageForm, sessionOf, unique } from "../support/api.ts";
import { assign, createStudent } from "../support/assessment.ts";

/**
 * Scale questions given by their range and end labels, and score ranges checked against the totals
 * a form can give: over real HTTP.
 */

const teacher = "teacher@demo.test" as const;

/** Two scales, 0–3 and 1–5, and a required single choice scoring {2, -1}: totals 0 to 10. */
const wellbeing = (scoreRanges: unknown[] = []) => ({
  title: unique("Wellbeing"),
  isPublished: true,
  scoreRanges,
  questions: [
    { text: "How often did you feel calm?", type: "SCALE", required: true, scale: { min: 0, max: 3, minLabel: "Never", maxLabel: "Always" } },
    { text: "How much do you enjoy school?", type: "SCALE", required: true, scale: { min: 1, max: 5, maxLabel: "Very much" } },
    {
      text: "Did you sleep well?",
      type: "SINGLE_CHOICE",
      required: true,
      options: [
        { text: "Yes", score: 2 },
        { text: "No", score: -1 },
      ],
    },
  ],
});

const problemAt = (body: { errors?: { path: string; message: string }[] }, path: string) => body.errors?.find((error) => error.path === path);

describe("scale questions", () => {
  it("numbers the points from the range and scores each by its value, keeping the end labels", async () => {
    const created = await api("POST", "/api/forms", { as: teacher, json: wellbeing() });
    expect(created.status, created.text).toBe(201);
    const [calm, enjoy] = created.body.questions;
    expect(calm.scale).toEqual({ min: 0, max: 3, minLabel: "Never", maxLabel: "Always" });
    expect(calm.options.map((o: { text: string; score: number }) => [o.text, o.score])).toEqual([
      ["0", 0],
      ["1", 1],
      ["2", 2],
      ["3", 3],
    ]);
    expect(enjoy.scale).toEqual({ min: 1, max: 5, minLabel: null, maxLabel: "Very much" });
    expect(enjoy.options).toHaveLength(5);
    expect(created.body.questions[2].scale).toBeNull();

    // The respondent's link carries the range and labels, never the scores.
    const student = await createStudent(teacher);
    const link = await assign(teacher, { formId: created.body.id, studentId: student.id });
    const test = await api("GET", `/api/test-link/${link.token}`);
    expect(test.status).toBe(200);
    expect(test.body.form.questions[0].scale).toEqual({ min: 0, max: 3, minLabel: "Never", maxLabel: "Always" });
    expect(JSON.stringify(test.body)).not.toContain('"score"');

    const submit = await api("POST", `/api/test-link/${link.token}/submit`, {
      json: {
        answers: [
          { questionId: calm.id, optionIds: [calm.options[2].id] },
          { questionId: enjoy.id, optionIds: [enjoy.options[4].id] },
          { questionId: created.body.questions[2].id, optionIds: [created.body.questions[2].options[1].id] },
        ],
      },
    });
    expect(submit.status, submit.text).toBe(200);
    const report = await api("GET", `/api/reports/${link.id}`, { as: teacher });
    expect(report.status).toBe(200);
    // 2 + 5 - 1 of 3 + 5 + 2.
    expect(report.body.totalScore).toBe(6);
    expect(report.body.maxScore).toBe(10);

    // Saved again by its range alone (as the editor does), the points keep their ids, so a draft
    // saved on another link still names them.
    const resaved = await api("PUT", `/api/forms/${created.body.id}`, {
      as: teacher,
      json: {
        questions: created.body.questions.map(({ id, text, type, required, scale, options }: Record<string, unknown>) =>
          scale ? { id, text, type, required, scale } : { id, text, type, required, options },
        ),
      },
    });
    expect(resaved.status, resaved.text).toBe(200);
    expect(resaved.body.questions[0].options.map((o: { id: string }) => o.id)).toEqual(calm.options.map((o: { id: string }) => o.id));
  });

  it("keeps a label or a score of the teacher's own for every point, and refuses a count that does not match the range", async () => {
    const named = wellbeing();
    named.questions[0] = {
      ...named.questions[0]!,
      options: [
        { text: "Never", score: 0 },
        { text: "Sometimes", score: 1 },
        { text: "Often", score: 2 },
        { text: "Always", score: 4 },
      ],
    } as never;
    const created = await api("POST", "/api/forms", { as: teacher, json: named });
    expect(created.status, created.text).toBe(201);
    expect(created.body.questions[0].options.map((o: { text: string; score: number }) => `${o.text}:${o.score}`)).toEqual([
      "Never:0",
      "Sometimes:1",
      "Often:2",
      "Always:4",
    ]);

    const wrongCount = wellbeing();
    wrongCount.questions[1] = {
      ...wrongCount.questions[1]!,
      options: [
        { text: "low", score: 1 },
        { text: "high", score: 5 },
      ],
    } as never;
    const refused = await api("POST", "/api/forms", { as: teacher, json: wrongCount });
    expect(refused.status).toBe(400);
    expect(problemAt(refused.body, "questions.1.options")?.message).toContain("5 points");
  });

  it("refuses a range on another type, and a scale of fewer than 2 or more than 11 points", async () => {
    const onChoice = wellbeing();
    (onChoice.questions[2] as Record<string, unknown>).scale = { min: 1, max: 5 };
    const choice = await api("POST", "/api/forms", { as: teacher, json: onChoice });
    expect(choice.status).toBe(400);
    expect(problemAt(choice.body, "questions.2.scale")).toBeDefined();

    for (const scale of [
      { min: 3, max: 3 },
      { min: 0, max: 11 },
      { min: 5, max: 1 },
    ]) {
      const body = wellbeing();
      (body.questions[0] as Record<string, unknown>).scale = scale;
      const response = await api("POST", "/api/forms", { as: teacher, json: body });
      expect(response.status, JSON.stringify(scale)).toBe(400);
      expect(problemAt(response.body, "questions.0.scale.max"), response.text).toBeDefined();
    }
    const fractional = wellbeing();
    (fractional.questions[0] as Record<string, unknown>).scale = { min: 0.5, max: 3 };
    const response = await api("POST", "/api/forms", { as: teacher, json: fractional });
    expect(response.status).toBe(400);
    expect(problemAt(response.body, "questions.0.scale.min")).toBeDefined();
  });

  it("keeps the scale when a form is duplicated", async () => {
    const created = await api("POST", "/api/forms", { as: teacher, json: wellbeing() });
    const posted = await postPageForm(`/en/forms/${created.body.id}`, { intent: "duplicate" }, sessionOf(teacher));
    expect(posted.status).toBe(302);
    const copyId = posted.headers.get("location")?.split("/").pop();
    const copy = await api("GET", `/api/forms/${copyId}`, { as: teacher });
    expect(copy.status, copy.text).toBe(200);
    expect(copy.body.questions[0].scale).toEqual(created.body.questions[0].scale);
    expect(copy.body.questions[0].options).toHaveLength(4);
  });
});

describe("score ranges no total can reach", () => {
  const low = { min: -1, max: 4, label: "Low", color: "#B42318" };

  it("refuses a range beyond the totals, naming it, and keeps one that reaches past an end", async () => {
    const beyond = await api("POST", "/api/forms", {
      as: teacher,
      json: wellbeing([low, { min: 11, max: 100, label: "Impossible", color: "#1A7F37" }]),
    });
    expect(beyond.status).toBe(400);
    const problem = problemAt(beyond.body, "scoreRanges.1");
    expect(problem?.message).toBe("No total can fall in this range: totals on this form run from 0 to 10.");

    const below = await api("POST", "/api/forms", { as: teacher, json: wellbeing([{ min: -20, max: -2, label: "Never", color: "#B42318" }]) });
    expect(below.status).toBe(400);
    expect(problemAt(below.body, "scoreRanges.0")).toBeDefined();

    // "5 to 100" on a form whose highest total is 10 still names 5 to 10.
    const wide = await api("POST", "/api/forms", { as: teacher, json: wellbeing([low, { min: 5, max: 100, label: "High", color: "#1A7F37" }]) });
    expect(wide.status, wide.text).toBe(201);
  });

  it("checks a PUT that changes only the ranges, or only the questions, against the stored other", async () => {
    const created = await api("POST", "/api/forms", { as: teacher, json: wellbeing([low]) });
    expect(created.status).toBe(201);
    const id = created.body.id;

    const ranges = await api("PUT", `/api/forms/${id}`, { as: teacher, json: { scoreRanges: [{ min: 50, max: 60, label: "Top", color: "#1A7F37" }] } });
    expect(ranges.status).toBe(400);
    expect(problemAt(ranges.body, "scoreRanges.0")).toBeDefined();

    // Only the 0–3 scale left: totals 0 to 3, and the stored "-1 to 4" still names them; a 10–20 range would not.
    const onlyCalm = [wellbeing().questions[0]];
    const kept = await api("PUT", `/api/forms/${id}`, { as: teacher, json: { questions: onlyCalm } });
    expect(kept.status, kept.text).toBe(200);
    await api("PUT", `/api/forms/${id}`, { as: teacher, json: { scoreRanges: [{ min: 2, max: 3, label: "Top", color: "#1A7F37" }] } });
    const shrink = await api("PUT", `/api/forms/${id}`, {
      as: teacher,
      json: { questions: [{ text: "Tiny", type: "SCALE", required: true, scale: { min: 0, max: 1 } }] },
    });
    expect(shrink.status).toBe(400);
    expect(problemAt(shrink.body, "questions")?.message).toContain("from 0 to 1");

    // A form with nothing scored yet (a form built step by step) is not checked.
    const unscored = await api("POST", "/api/forms", {
      as: teacher,
      json: { title: unique("Later"), scoreRanges: [{ min: 0, max: 10, label: "Any", color: "#1A7F37" }], questions: [{ text: "Name?", type: "TEXT" }] },
    });
    expect(unscored.status, unscored.text).toBe(201);
  });
});
