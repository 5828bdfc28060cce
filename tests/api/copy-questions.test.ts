import { describe, expect, it } from "vitest";
import { api, type DemoUser, unique } from "../support/api.ts";
import { createForm, installPhq9 } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { errorPaths, expectProblem } from "../support/fixtures.ts";

/** POST /api/forms/:id/questions/copy (docs/api-contract.md §22, ADR 91) over real HTTP. */
const teacher = "teacher@demo.test" as const;

type Question = {
  id: string;
  key: string;
  text: string;
  type: string;
  required: boolean;
  reverseScored: boolean;
  scale: unknown;
  options: { id: string; text: string; score: number; critical: boolean }[];
};

/** A source whose questions carry what a copy must keep: keys (one left to its position), a critical option, a scale's range, a reverse item. */
const sourceBody = () => ({
  title: unique("Copy source"),
  questions: [
    {
      text: "Mood",
      type: "SINGLE_CHOICE",
      key: "mood",
      required: true,
      options: [
        { text: "Fine", score: 0 },
        { text: "Low", score: 2, critical: true },
      ],
    },
    { text: "Energy", type: "SCALE", key: "energy", reverseScored: true, scale: { min: 0, max: 4, minLabel: "None", maxLabel: "Plenty" } },
    { text: "Anything else?", type: "TEXT" },
    {
      text: "Habits",
      type: "MULTIPLE_CHOICE",
      options: [
        { text: "Sport", score: 1 },
        { text: "Music", score: 1 },
      ],
    },
  ],
});

/** A target that already has the key `mood`, and the key `q6` on its first question. */
const targetBody = () => ({
  title: unique("Copy target"),
  questions: [
    { text: "Own first", type: "TEXT", key: "q6" },
    {
      text: "Own mood",
      type: "SINGLE_CHOICE",
      key: "mood",
      options: [
        { text: "Yes", score: 1 },
        { text: "No", score: 0 },
      ],
    },
  ],
});

const copy = (formId: string, json: unknown, as: DemoUser = teacher) => api("POST", `/api/forms/${formId}/questions/copy`, { as, json });
/** What a copy keeps of a question: everything but its id and the options' ids. */
const content = ({ id: _id, key: _key, options, ...question }: Question) => ({ ...question, options: options.map(({ id: _o, ...option }) => option) });

describe("POST /api/forms/:id/questions/copy", () => {
  it("given questions of a readable form, should append copies in the order given, keys kept unique, and record the change", async () => {
    const source = await createForm(teacher, sourceBody());
    const target = await createForm(teacher, targetBody());
    const [mood, energy, text, habits] = source.questions as unknown as Question[];
    const before = await testDatabase().form.findUniqueOrThrow({ where: { id: target.id }, select: { contentVersion: true } });

    const copied = await copy(target.id, { fromFormId: source.id, questionIds: [energy!.id, mood!.id, text!.id, habits!.id] });
    expect(copied.status, copied.text).toBe(200);
    const questions = copied.body.questions as Question[];
    expect(questions.map((question) => question.text)).toEqual(["Own first", "Own mood", "Energy", "Mood", "Anything else?", "Habits"]);
    expect(questions.slice(2).map(content)).toEqual([energy, mood, text, habits].map((question) => content(question!)));
    // `mood` is the target's already; the text question lands on `q5` (free) and keeps no key;
    // the last would read `q6`, the target's first question's key.
    expect(questions.map((question) => question.key)).toEqual(["q6", "mood", "energy", "mood_2", "q5", "q6_2"]);
    expect(new Set(questions.flatMap((question) => question.options.map((option) => option.id)))).not.toContain(mood!.options[0]!.id);
    // The source is as it was.
    expect((await api("GET", `/api/forms/${source.id}`, { as: teacher })).body.questions).toEqual(source.questions);

    const after = await testDatabase().form.findUniqueOrThrow({ where: { id: target.id }, select: { contentVersion: true } });
    expect(after.contentVersion).toBe(before.contentVersion + 1);
    const event = await testDatabase().auditEvent.findFirstOrThrow({ where: { action: "form.updated", targetId: target.id }, orderBy: { at: "desc" } });
    expect(event.details).toEqual({ fields: ["questions"], copiedFrom: source.id, questions: 4 });
    expect((await api("GET", `/api/forms/${target.id}`, { as: teacher })).body.questions).toEqual(questions);
  });

  it("given a form of another organization, or none, should answer 404 and copy nothing", async () => {
    const target = await createForm(teacher, targetBody());
    const foreign = (await api("POST", "/api/forms", { as: "teacher@other.test", json: sourceBody() })).body;
    expectProblem(await copy(target.id, { fromFormId: foreign.id, questionIds: [foreign.questions[0].id] }), 404);
    expectProblem(await copy(target.id, { fromFormId: "nope", questionIds: ["nope"] }), 404);
    // The other organization's teacher cannot copy into this one's form either.
    const source = await createForm(teacher, sourceBody());
    expectProblem(await copy(target.id, { fromFormId: source.id, questionIds: [source.questions[0]!.id] }, "teacher@other.test"), 404);
    expect((await api("GET", `/api/forms/${target.id}`, { as: teacher })).body.questions).toHaveLength(2);
  });

  it("given ids that are not the source's questions, none, or twice the same, should answer 400 naming each", async () => {
    const source = await createForm(teacher, sourceBody());
    const other = await createForm(teacher, sourceBody());
    const target = await createForm(teacher, targetBody());
    const notThere = await copy(target.id, { fromFormId: source.id, questionIds: [source.questions[0]!.id, other.questions[1]!.id, "missing"] });
    expectProblem(notThere, 400, "VALIDATION_FAILED");
    expect(errorPaths(notThere)).toEqual(["questionIds.1", "questionIds.2"]);
    expect(errorPaths(await copy(target.id, { fromFormId: source.id, questionIds: [] }))).toEqual(["questionIds"]);
    const twice = source.questions[0]!.id;
    expect(errorPaths(await copy(target.id, { fromFormId: source.id, questionIds: [twice, twice] }))).toEqual(["questionIds.1"]);
    expect(errorPaths(await copy(target.id, { fromFormId: source.id }))).toEqual(["questionIds"]);
    expect((await api("GET", `/api/forms/${target.id}`, { as: teacher })).body.questions).toHaveLength(2);
  });

  it("given an installed instrument as the target, should answer 409 INSTRUMENT_LOCKED; one as the source is copied", async () => {
    const phq9 = await installPhq9(teacher);
    const source = await createForm(teacher, sourceBody());
    const locked = await copy(phq9.id, { fromFormId: source.id, questionIds: [source.questions[0]!.id] });
    expectProblem(locked, 409, "INSTRUMENT_LOCKED");
    expect((await api("GET", `/api/forms/${phq9.id}`, { as: teacher })).body.questions).toHaveLength(9);

    const target = await createForm(teacher, targetBody());
    const fromInstrument = await copy(target.id, { fromFormId: phq9.id, questionIds: [phq9.questions[8]!.id] });
    expect(fromInstrument.status).toBe(200);
    const item9 = (await api("GET", `/api/forms/${phq9.id}`, { as: teacher })).body.questions[8] as Question;
    expect(content(fromInstrument.body.questions[2])).toEqual(content(item9));
    expect(item9.options.some((option) => option.critical)).toBe(true);
  });

  it("given a colleague's template as the target, should answer 403; their administrator may copy to it", async () => {
    const colleagues = await createForm("teacher2@demo.test", { ...targetBody(), isTemplate: true });
    const source = await createForm(teacher, sourceBody());
    expectProblem(await copy(colleagues.id, { fromFormId: source.id, questionIds: [source.questions[0]!.id] }), 403);
    const admin = await copy(colleagues.id, { fromFormId: source.id, questionIds: [source.questions[0]!.id] }, "admin@demo.test");
    expect(admin.status, "an administrator edits every form of the organization").toBe(200);
  });
});
