import { describe, expect, it } from "vitest";
import { testDatabase } from "../support/database.ts";
import { newOrganization, resultData, type World } from "../support/result-rows.ts";
import { countedTallies, tallies } from "../support/tallies.ts";

/**
 * The form summary's tallies ("SummaryTotal", "SummaryChoice", kept by triggers on "Submission" and
 * "Answer": docs/decisions/0032-summary-tallies.md). After every kind of write the application
 * makes, and the ones it never makes but a person at a SQL prompt might, the tallies must equal
 * what counting the rows gives. The form is this file's own, so no other test's write can move them.
 */

type AnswerRow = { questionId: string; optionIds: string[]; text?: string | null; score: number };

function answerData(answers: AnswerRow[]) {
  return answers.map((answer, position) => ({
    questionId: answer.questionId,
    position,
    questionText: answer.questionId,
    questionType: answer.text === undefined ? ("SINGLE_CHOICE" as const) : ("TEXT" as const),
    optionIds: answer.optionIds,
    optionTexts: answer.optionIds,
    text: answer.text ?? null,
    score: answer.score,
    maxScore: 3,
  }));
}

async function expectTalliesToMatch(world: World) {
  const expected = await countedTallies(world.formId);
  expect(await tallies(world.formId)).toEqual(expected);
  return expected;
}

describe("the form summary's tallies", () => {
  it("given every write to results and answers, should equal what counting the rows gives after each", async () => {
    const db = testDatabase();
    const world = await newOrganization("tallies");
    const answers = (first: string, total: number): AnswerRow[] => [
      { questionId: "q1", optionIds: [first], score: total - 1 },
      { questionId: "q2", optionIds: ["b1", "b2"], score: 1 },
      { questionId: "q3", optionIds: [], text: "free text", score: 0 },
      { questionId: "q4", optionIds: [], score: 0 }, // skipped: neither chosen nor written
    ];

    // Submitted as the application does: the result completed, then its answers.
    const first = await db.submission.create({ data: { ...resultData(world), totalScore: 3 } });
    await db.answer.createMany({ data: answerData(answers("a1", 3)).map((row) => ({ ...row, submissionId: first.id })) });
    const second = await db.submission.create({
      data: { ...resultData(world, { assignedById: world.teacherId }), totalScore: 4.5, answers: { create: answerData(answers("a2", 4.5)) } },
    });
    const afterSubmits = await expectTalliesToMatch(world);
    expect(afterSubmits.totals).toEqual({ [`${world.userId}|3`]: 1, [`${world.teacherId}|4.5`]: 1 });
    expect(afterSubmits.choices[`${world.userId}|q2|b2`]).toEqual([1, 0]);

    // Answers written while the link was open do not count until the result completes.
    const waiting = await db.submission.create({
      data: { ...resultData(world), isCompleted: false, completedAt: null, totalScore: null, answers: { create: answerData(answers("a3", 2)) } },
    });
    await expectTalliesToMatch(world);
    await db.submission.update({ where: { id: waiting.id }, data: { isCompleted: true, completedAt: new Date(), totalScore: 2 } });
    await expectTalliesToMatch(world);

    // Deleted and restored, rescored, handed to another assigner, moved to another form.
    await db.submission.update({ where: { id: first.id }, data: { deletedAt: new Date() } });
    expect((await expectTalliesToMatch(world)).totals[`${world.userId}|3`]).toBeUndefined();
    await db.submission.update({ where: { id: first.id }, data: { deletedAt: null } });
    await expectTalliesToMatch(world);
    await db.submission.update({ where: { id: first.id }, data: { totalScore: 7 } });
    await expectTalliesToMatch(world);
    await db.submission.update({ where: { id: second.id }, data: { assignedById: world.userId } });
    await expectTalliesToMatch(world);
    const other = await newOrganization("tallies-other");
    await db.submission.update({ where: { id: second.id }, data: { formId: other.formId } });
    await expectTalliesToMatch(world);
    await expectTalliesToMatch({ ...world, formId: other.formId });

    // A write that moves nothing the tallies count leaves them alone.
    const before = await tallies(world.formId);
    await db.submission.update({ where: { id: first.id }, data: { sendCount: { increment: 1 }, searchText: "renamed" } });
    expect(await tallies(world.formId)).toEqual(before);

    // Answers rewritten and removed by hand.
    const [q1] = await db.answer.findMany({ where: { submissionId: first.id, questionId: "q1" } });
    await db.answer.update({ where: { id: q1!.id }, data: { optionIds: ["a9", "a8"], score: 2.25 } });
    await expectTalliesToMatch(world);
    await db.answer.deleteMany({ where: { submissionId: first.id, questionId: "q2" } });
    await expectTalliesToMatch(world);

    // Many at once, then removed for good (the answers go with their result).
    const many = Array.from({ length: 5 }, (_, i) => ({ ...resultData(world), totalScore: i % 2 }));
    await db.submission.createMany({ data: many });
    const manyIds = (await db.submission.findMany({ where: { token: { in: many.map((row) => row.token) } }, select: { id: true } })).map((row) => row.id);
    await db.answer.createMany({
      data: manyIds.flatMap((submissionId, i) => answerData(answers(`a${i % 3}`, i % 2)).map((row) => ({ ...row, submissionId }))),
    });
    await expectTalliesToMatch(world);
    await db.submission.updateMany({ where: { id: { in: manyIds.slice(0, 2) } }, data: { deletedAt: new Date() } });
    await expectTalliesToMatch(world);
    await db.submission.deleteMany({ where: { id: { in: [...manyIds, waiting.id] } } });
    await db.submission.delete({ where: { id: first.id } });
    const rest = await expectTalliesToMatch(world);
    expect(rest).toEqual({ totals: {}, choices: {} });
  });
});
