import type { Prisma } from "~/lib/db.server.ts";
import { submissionSearchText } from "~/lib/search.ts";
import { recordTombstone } from "~/lib/tombstones.server.ts";
import { ERASED_TEXT } from "../people/erasure.server.ts";

/**
 * What the retention policy does to a result (docs/api-contract.md §21, ADR 89; a person is
 * anonymised or deleted as an erasure does it, erasure.server.ts),
 * each in the caller's transaction. A submission's row is removed with a plain DELETE, so the
 * triggers that keep the form summary's tallies and the submission counts (ADR 32, ADR 36) take
 * it out of them as they take out any deleted row, and an anonymised result keeps its scores and
 * the answers' option ids, so it stays in them unchanged: the tallies stay equal to a recount.
 */

type Tx = Prisma.TransactionClient;

/** The snapshot of a result with its respondent replaced (the JSON as stored, every other field kept). */
function withRespondent(scoredAgainst: Prisma.JsonValue, respondent: Record<string, unknown>): Prisma.InputJsonValue {
  const snapshot = typeof scoredAgainst === "string" ? (JSON.parse(scoredAgainst) as unknown) : scoredAgainst;
  if (!snapshot || typeof snapshot !== "object" || Array.isArray(snapshot)) return { respondent } as Prisma.InputJsonValue;
  const previous = (snapshot as { respondent?: Record<string, unknown> }).respondent ?? {};
  return { ...snapshot, respondent: { ...previous, ...respondent } } as Prisma.InputJsonValue;
}

/**
 * Anonymises completed results: their free-text answers blanked (to ERASED_TEXT, as an erasure does, so
 * that the question still counts as answered in the summary), the note of their acknowledgement and any draft removed, and
 * the respondent's name gone from the snapshot and the search text. `detach` (the results rule)
 * also takes the respondent off the result (student and candidate, and the snapshot's id, grade
 * and age), so that nothing ties it to a person any more; without it (the people rule) the result
 * stays with its person, who is being anonymised under `name`. Answers how many it anonymised.
 */
export async function anonymiseResults(tx: Tx, ids: string[], now: Date, respondent: { detach: true } | { detach: false; name: string }) {
  if (ids.length === 0) return 0;
  const rows = await tx.submission.findMany({ where: { id: { in: ids }, isCompleted: true }, select: { id: true, formTitle: true, scoredAgainst: true } });
  await tx.answer.updateMany({ where: { submissionId: { in: ids }, text: { not: null } }, data: { text: ERASED_TEXT } });
  await tx.submissionDraft.deleteMany({ where: { submissionId: { in: ids } } });
  const name = respondent.detach ? "" : respondent.name;
  for (const row of rows) {
    await tx.submission.update({
      where: { id: row.id },
      data: {
        anonymisedAt: now,
        acknowledgementNote: null,
        searchText: submissionSearchText(name, row.formTitle),
        scoredAgainst: withRespondent(row.scoredAgainst, respondent.detach ? { id: "", name: "", grade: null, age: null } : { name }),
        ...(respondent.detach ? { studentId: null, candidateId: null } : {}),
      },
      select: { id: true },
    });
  }
  return rows.length;
}

/**
 * Deletes submissions (results and links) with their answers and drafts, and the e-mails about
 * them still waiting; a tombstone tells the lists read with updatedSince (ADR 52). Answers how many.
 */
export async function deleteSubmissions(tx: Tx, ids: string[], now: Date) {
  if (ids.length === 0) return 0;
  const rows = await tx.submission.findMany({ where: { id: { in: ids } }, select: { id: true, organizationId: true } });
  for (const row of rows) {
    // Everyone who could read it is told: its assigner, the administrators and a shared group's staff.
    await recordTombstone(tx, { organizationId: row.organizationId, kind: "submission", itemId: row.id, audience: "ALL", deletedAt: now });
  }
  await tx.job.deleteMany({ where: { submissionId: { in: ids }, doneAt: null, failedAt: null } });
  const { count } = await tx.submission.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
  return count;
}
