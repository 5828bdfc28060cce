import { isDeepStrictEqual } from "node:util";
import { type Actor, isAdmin } from "~/lib/auth/actor.server.ts";
import { db, LONG_WRITE, Prisma } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { conflict, notFound } from "~/lib/problem.server.ts";
import { recordAudit } from "../audit/audit.server.ts";
import { type ScaleForm, type ScaleResult, scoreForm } from "../scoring/scales.ts";
import type { GivenAnswer } from "../scoring/scoring.ts";
import { SCORED_AGAINST_VERSION, type ScoredAgainst, scoredAgainstSchema } from "../submissions/scored-against.ts";
import { visibleSubmissionsWhere } from "../submissions/submission-scope.server.ts";
import { listFormVersions } from "./form-versions.server.ts";
import { findEditableForm, formContentSelect, formScoringSelect, presentScoring, readableFormsWhere } from "./forms.server.ts";
import type { RescoreInput, RescoreResponse } from "./rescore-schemas.ts";

/**
 * A form's versions, and its results rescored against the current one (docs/api-contract.md §22,
 * ADR 94). A result records the version it was scored against (ADR 90); rescoring scores its
 * stored answers again by the form's current content with the engine a submit uses (`scoreForm`),
 * writes what changed in one transaction, and records every rescored result as scored against the
 * current version. The summary tallies follow by their triggers (ADR 32); the flags stay as they
 * were raised at completion (ADR 90).
 */

type Transaction = Prisma.TransactionClient;

/** GET /api/forms/:id/versions: for whoever reads the form (or its results); 404 otherwise. */
export async function formVersions(actor: Actor, formId: string) {
  const form = await db.form.findFirst({ where: { id: formId, ...readableFormsWhere(actor) }, select: { id: true, version: true } });
  if (!form) throw notFound("form");
  return { version: form.version, versions: await listFormVersions(form.id) };
}

/** Ids per statement: well under both databases' limits on bound values, whatever the columns. */
const BATCH = 500;

const chunks = <T>(items: readonly T[], size = BATCH): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

const personSelect = { select: { id: true, name: true, grade: true, age: true } } as const;
/** A result's total as the answer shows it before and after. */
const scoreSelect = { totalScore: true, maxScore: true, percentage: true, scoreLabel: true, scoreColor: true } as const;

/** The form and, for each result scored against an earlier version, what rescoring it writes. */
type Plan = Awaited<ReturnType<typeof planRescore>>;

type Score = RescoreResponse["changed"][number]["before"];

const scoreOf = (total: ScaleResult["total"]): Score => ({
  totalScore: total.score,
  maxScore: total.maxScore,
  percentage: total.percentage,
  scoreLabel: total.label,
  scoreColor: total.color,
});

const sameScore = (a: Score, b: Score) =>
  a.totalScore === b.totalScore && a.maxScore === b.maxScore && a.percentage === b.percentage && a.scoreLabel === b.scoreLabel && a.scoreColor === b.scoreColor;

const snapshotParts = scoredAgainstSchema.pick({ form: true, respondent: true });

/** The form and respondent a result's snapshot captured at completion (a snapshot read as text on some drivers). */
function capturedParts(value: unknown) {
  const parsed = snapshotParts.safeParse(typeof value === "string" ? JSON.parse(value) : value);
  return parsed.success ? parsed.data : null;
}

/** Reads the form's content now and every result to rescore with its answers, and scores them again: nothing written. */
async function planRescore(formId: string) {
  const { scoring, subscales, criticalMessage, ...form } = await db.form.findUniqueOrThrow({
    where: { id: formId },
    select: { title: true, category: true, type: true, version: true, contentVersion: true, ...formContentSelect, ...formScoringSelect },
  });
  const scoringOf = presentScoring({ scoring, subscales, criticalMessage });
  const scaleForm: ScaleForm = { questions: form.questions, scoreRanges: form.scoreRanges, scoring: scoringOf.scoring, subscales: scoringOf.subscales };
  const rows = await db.submission.findMany({
    where: { formId, isCompleted: true, deletedAt: null, formVersion: { not: form.version } },
    orderBy: [{ completedAt: "asc" }, { id: "asc" }],
    select: { id: true, ...scoreSelect, subscales: true, formTitle: true, scoredAgainst: true, student: personSelect, candidate: personSelect },
  });
  const answersOf = new Map<string, { id: string; questionId: string; optionIds: Prisma.JsonValue; text: string | null; score: number; maxScore: number }[]>();
  for (const ids of chunks(rows.map((row) => row.id))) {
    const answers = await db.answer.findMany({
      where: { submissionId: { in: ids } },
      select: { id: true, submissionId: true, questionId: true, optionIds: true, text: true, score: true, maxScore: true },
    });
    for (const { submissionId, ...answer } of answers) {
      const list = answersOf.get(submissionId) ?? [];
      list.push(answer);
      answersOf.set(submissionId, list);
    }
  }

  // What still exists of each answer: an option no longer on its question is not chosen.
  const optionsOf = new Map(form.questions.map((question) => [question.id, new Set(question.options.map((option) => option.id))]));
  const results = rows.map((row) => {
    const answers = answersOf.get(row.id) ?? [];
    const given: GivenAnswer[] = answers.flatMap((answer) => {
      const options = optionsOf.get(answer.questionId);
      if (!options) return [];
      const chosen = Array.isArray(answer.optionIds) ? answer.optionIds.filter((id): id is string => typeof id === "string" && options.has(id)) : [];
      return [{ questionId: answer.questionId, optionIds: chosen, text: answer.text }];
    });
    const result = scoreForm(scaleForm, given);
    const scored = new Map(result.answers.map((answer) => [answer.questionId, answer]));
    // An answer to a question no longer on the form keeps its row, scored 0 of 0.
    const answerUpdates = answers.flatMap((answer) => {
      const now = scored.get(answer.questionId);
      const [score, maxScore] = now ? [now.score, now.maxScore] : [0, 0];
      return score === answer.score && maxScore === answer.maxScore ? [] : [{ id: answer.id, score, maxScore }];
    });
    const { totalScore, maxScore, percentage, scoreLabel, scoreColor } = row;
    const before: Score = { totalScore, maxScore, percentage, scoreLabel, scoreColor };
    const after = scoreOf(result.total);
    // As stored: JSON keeps no undefined field; a result from before subscales has none.
    const subscalesAfter = JSON.parse(JSON.stringify(result.subscales)) as unknown;
    const changed = answerUpdates.length > 0 || !sameScore(before, after) || !isDeepStrictEqual(row.subscales ?? [], subscalesAfter);
    const captured = capturedParts(row.scoredAgainst);
    const live = row.student ? { kind: "student" as const, ...row.student } : row.candidate ? { kind: "candidate" as const, ...row.candidate } : null;
    const snapshot: ScoredAgainst = {
      version: SCORED_AGAINST_VERSION,
      form: captured?.form ?? { id: formId, title: row.formTitle ?? form.title, category: form.category, type: form.type },
      respondent: captured?.respondent ?? live ?? { kind: "student", id: "", name: "", grade: null, age: null },
      questions: form.questions,
      scoreRanges: form.scoreRanges,
      scoring: scoringOf.scoring,
      subscales: scoringOf.subscales,
    };
    return { id: row.id, name: live?.name ?? captured?.respondent.name ?? "", before, after, subscales: result.subscales, answerUpdates, changed, snapshot };
  });
  return { version: form.version, contentVersion: form.contentVersion, results };
}

/** The changed results as the answer lists them: a respondent's name only where the caller sees the result. */
async function present(actor: Actor, plan: Plan, dryRun: boolean): Promise<RescoreResponse> {
  const changed = plan.results.filter((result) => result.changed);
  const seen = new Set<string>(isAdmin(actor) ? changed.map((result) => result.id) : []);
  if (!isAdmin(actor)) {
    for (const ids of chunks(changed.map((result) => result.id))) {
      const visible = await db.submission.findMany({ where: { AND: [{ id: { in: ids } }, visibleSubmissionsWhere(actor)] }, select: { id: true } });
      for (const { id } of visible) seen.add(id);
    }
  }
  return {
    dryRun,
    version: plan.version,
    results: plan.results.length,
    changed: changed.map((result) => ({
      submissionId: result.id,
      respondentName: seen.has(result.id) ? result.name : null,
      before: result.before,
      after: result.after,
    })),
  };
}

/** How often a rescore reads the results again when the form changed while it was scoring them. */
const ATTEMPTS = 3;

/**
 * POST /api/forms/:id/rescore (the form's author or an administrator): the completed results
 * scored against an earlier version, scored against the current content. A dry run writes
 * nothing. The results are read and scored before the transaction, which checks that the form's
 * content is still the one scored against (else it reads again), then writes only what changed
 * and the version of every result, in a few statements.
 */
export async function rescoreForm(actor: Actor, formId: string, input: RescoreInput): Promise<RescoreResponse> {
  const form = await findEditableForm(actor, formId);
  for (let attempt = 1; ; attempt++) {
    const plan = await planRescore(formId);
    if (input.dryRun || plan.results.length === 0) return present(actor, plan, input.dryRun ?? false);
    const written = await db.$transaction(async (tx) => {
      if (!(await contentUnchanged(tx, formId, plan))) return false;
      await writeRescore(tx, plan);
      await recordAudit(tx, {
        by: actor,
        action: "submission.rescored",
        targetId: formId,
        organizationId: form.organizationId,
        details: { version: plan.version, results: plan.results.length, changed: plan.results.filter((result) => result.changed).length },
      });
      return true;
    }, LONG_WRITE);
    if (written) return present(actor, plan, false);
    if (attempt === ATTEMPTS) throw conflict("The form kept changing while its results were rescored. Try again.", "FORM_CHANGED");
  }
}

/**
 * Whether the form's content and version are still those the plan scored against. On PostgreSQL
 * the row is locked until commit, so an edit of the form waits for the rescore; SQLite's
 * transaction already holds the only write lock.
 */
async function contentUnchanged(tx: Transaction, formId: string, plan: Plan): Promise<boolean> {
  const lock = env().databaseProvider === "postgresql" ? Prisma.sql`FOR UPDATE` : Prisma.empty;
  const [row] = await tx.$queryRaw<{ version: unknown; contentVersion: unknown }[]>`
    SELECT "version", "contentVersion" FROM "Form" WHERE "id" = ${formId} ${lock}`;
  return row !== undefined && Number(row.version) === plan.version && Number(row.contentVersion) === plan.contentVersion;
}

/**
 * A value bound into a VALUES list: PostgreSQL cannot infer a parameter's type there, so it is
 * cast; SQLite takes it as it comes.
 */
function bound(value: unknown, type: "text" | "float8" | "jsonb") {
  if (env().databaseProvider !== "postgresql") return Prisma.sql`${type === "jsonb" ? JSON.stringify(value) : value}`;
  return type === "jsonb" ? Prisma.sql`${JSON.stringify(value)}::jsonb` : Prisma.sql`${value}::${Prisma.raw(type)}`;
}

/**
 * The plan written: the answers whose score changed, the results whose scores changed (their
 * scores, subscales, version and snapshot), and the others' version and snapshot, each kind one
 * UPDATE … FROM a VALUES list per batch. Rows that keep their scores are not given them again, so
 * the tallies' triggers fire only for what moves.
 */
async function writeRescore(tx: Transaction, plan: Plan) {
  const now = new Date();
  const answers = plan.results.flatMap((result) => result.answerUpdates);
  for (const batch of chunks(answers)) {
    const values = batch.map((answer) => Prisma.sql`(${bound(answer.id, "text")}, ${bound(answer.score, "float8")}, ${bound(answer.maxScore, "float8")})`);
    await tx.$executeRaw`
      WITH v ("id", "score", "maxScore") AS (VALUES ${Prisma.join(values)})
      UPDATE "Answer" AS a SET "score" = v."score", "maxScore" = v."maxScore" FROM v WHERE a."id" = v."id"`;
  }
  for (const batch of chunks(plan.results.filter((result) => result.changed))) {
    const values = batch.map(
      (result) =>
        Prisma.sql`(${bound(result.id, "text")}, ${bound(result.after.totalScore, "float8")}, ${bound(result.after.maxScore, "float8")},
          ${bound(result.after.percentage, "float8")}, ${bound(result.after.scoreLabel, "text")}, ${bound(result.after.scoreColor, "text")},
          ${bound(result.subscales, "jsonb")}, ${bound(result.snapshot, "jsonb")})`,
    );
    await tx.$executeRaw`
      WITH v ("id", "totalScore", "maxScore", "percentage", "scoreLabel", "scoreColor", "subscales", "scoredAgainst") AS (VALUES ${Prisma.join(values)})
      UPDATE "Submission" AS s
         SET "totalScore" = v."totalScore", "maxScore" = v."maxScore", "percentage" = v."percentage", "scoreLabel" = v."scoreLabel",
             "scoreColor" = v."scoreColor", "subscales" = v."subscales", "scoredAgainst" = v."scoredAgainst",
             "formVersion" = ${plan.version}, "updatedAt" = ${now}
        FROM v WHERE s."id" = v."id"`;
  }
  // Scores unchanged: the version and the snapshot (the key the review shows) are the current ones.
  for (const batch of chunks(plan.results.filter((result) => !result.changed))) {
    const values = batch.map((result) => Prisma.sql`(${bound(result.id, "text")}, ${bound(result.snapshot, "jsonb")})`);
    await tx.$executeRaw`
      WITH v ("id", "scoredAgainst") AS (VALUES ${Prisma.join(values)})
      UPDATE "Submission" AS s SET "scoredAgainst" = v."scoredAgainst", "formVersion" = ${plan.version} FROM v WHERE s."id" = v."id"`;
  }
}
