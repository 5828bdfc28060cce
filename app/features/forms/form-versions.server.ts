import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { ApiError } from "~/lib/problem.server.ts";

/**
 * A form's versions (docs/api-contract.md §22, ADR 90). A version is what a result was scored
 * against: the change that can change a score (questions and options added or removed, their
 * types, keys, scores, points and correct marks, the bands, the scoring and the subscales) raises
 * it once the form has results at the current one. Wording, images, feedback, critical marks and
 * the order of questions change no score, and raise nothing: each result keeps the snapshot of the
 * wording it was given.
 */

type Transaction = Prisma.TransactionClient;

/** What a save of the editor would raise, asked before it does (`updateForm`'s `newVersion: "ask"`). */
export class NewVersionNeeded extends ApiError {
  constructor(
    readonly results: number,
    readonly nextVersion: number,
  ) {
    super(409, "NEW_VERSION", `${results} results were scored with the current version; saving makes version ${nextVersion}.`);
  }
}

/** Everything of a form that decides a score, as text: two equal fingerprints score every answer alike. */
export async function scoringFingerprint(tx: Transaction, formId: string): Promise<string> {
  const form = await tx.form.findUniqueOrThrow({
    where: { id: formId },
    select: {
      scoring: true,
      subscales: true,
      scoreRanges: { orderBy: { position: "asc" }, select: { min: true, max: true, label: true, color: true } },
      questions: {
        orderBy: { id: "asc" },
        select: {
          id: true,
          type: true,
          key: true,
          reverseScored: true,
          points: true,
          scoringRule: true,
          position: true,
          options: { orderBy: { id: "asc" }, select: { id: true, score: true, correct: true } },
        },
      },
    },
  });
  // A question's position names it when it has no key of its own (`q3`), which subscales use: the
  // position counts only then.
  const questions = form.questions.map(({ position, ...question }) => ({ ...question, position: question.key === null ? position : null }));
  return JSON.stringify({ ...form, questions });
}

/**
 * After a change in `tx`: when the form scores differently than `before` and has results scored
 * against its current version, the version is raised (and recorded), or, when asked to ask, the
 * change is refused with the number of those results.
 */
export async function raiseVersionIfRescored(tx: Transaction, actor: Actor, formId: string, before: string, mode: "raise" | "ask"): Promise<void> {
  if ((await scoringFingerprint(tx, formId)) === before) return;
  const { version } = await tx.form.findUniqueOrThrow({ where: { id: formId }, select: { version: true } });
  const results = await resultsAt(tx, formId, version);
  if (results === 0) return;
  if (mode === "ask") throw new NewVersionNeeded(results, version + 1);
  await tx.form.update({ where: { id: formId }, data: { version: version + 1 } });
  await tx.formVersion.create({ data: { formId, version: version + 1, createdById: actor.userId } });
}

/** The completed results scored against `version` of the form. */
function resultsAt(tx: Transaction, formId: string, version: number): Promise<number> {
  return tx.submission.count({ where: { formId, isCompleted: true, deletedAt: null, formVersion: version } });
}

/** A form's versions, oldest first, each with its date and how many completed results were scored against it. */
export async function listFormVersions(formId: string, client: Transaction = db) {
  const [versions, counts] = await Promise.all([
    client.formVersion.findMany({ where: { formId }, orderBy: { version: "asc" }, select: { version: true, createdAt: true } }),
    client.submission.groupBy({ by: ["formVersion"], where: { formId, isCompleted: true, deletedAt: null }, _count: { _all: true } }),
  ]);
  const results = new Map(counts.map((row) => [row.formVersion, row._count._all]));
  return versions.map((row) => ({ version: row.version, createdAt: row.createdAt, results: results.get(row.version) ?? 0 }));
}
