import { randomBytes } from "node:crypto";
import type { Prisma } from "~/lib/db.server.ts";
import { foldForSearch, submissionSearchText } from "~/lib/search.ts";
import { recordTombstone } from "~/lib/tombstones.server.ts";
import type { Respondent } from "../people/people.server.ts";

/**
 * What the retention policy does to a result and to a person (docs/api-contract.md §21, ADR 89),
 * each in the caller's transaction. A submission's row is removed with a plain DELETE, so the
 * triggers that keep the form summary's tallies and the submission counts (ADR 32, ADR 36) take
 * it out of them as they take out any deleted row, and an anonymised result keeps its scores and
 * the answers' option ids, so it stays in them unchanged: the tallies stay equal to a recount.
 */

type Tx = Prisma.TransactionClient;

/** What an anonymised person is called: nothing of them, enough to tell two apart in a list. */
export const pseudonym = () => `#${randomBytes(4).toString("hex")}`;

/** The fields of a person that say who they are; age, grade, gender and status stay for statistics. */
const IDENTIFYING_NONE = { email: null, phone: null, externalId: null, dateOfBirth: null } as const;

/** The snapshot of a result with its respondent replaced (the JSON as stored, every other field kept). */
function withRespondent(scoredAgainst: Prisma.JsonValue, respondent: Record<string, unknown>): Prisma.InputJsonValue {
  const snapshot = typeof scoredAgainst === "string" ? (JSON.parse(scoredAgainst) as unknown) : scoredAgainst;
  if (!snapshot || typeof snapshot !== "object" || Array.isArray(snapshot)) return { respondent } as Prisma.InputJsonValue;
  const previous = (snapshot as { respondent?: Record<string, unknown> }).respondent ?? {};
  return { ...snapshot, respondent: { ...previous, ...respondent } } as Prisma.InputJsonValue;
}

/**
 * Anonymises completed results: their free-text answers blanked (to "", so that the question still
 * counts as answered in the summary), the note of their acknowledgement and any draft removed, and
 * the respondent's name gone from the snapshot and the search text. `detach` (the results rule)
 * also takes the respondent off the result (student and candidate, and the snapshot's id, grade
 * and age), so that nothing ties it to a person any more; without it (the people rule) the result
 * stays with its person, who is being anonymised under `name`. Answers how many it anonymised.
 */
export async function anonymiseResults(tx: Tx, ids: string[], now: Date, respondent: { detach: true } | { detach: false; name: string }) {
  if (ids.length === 0) return 0;
  const rows = await tx.submission.findMany({ where: { id: { in: ids }, isCompleted: true }, select: { id: true, formTitle: true, scoredAgainst: true } });
  await tx.answer.updateMany({ where: { submissionId: { in: ids }, text: { not: null } }, data: { text: "" } });
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

/** A person's own submissions: a candidate's are those no student was promoted to answer. */
const submissionsOf = (respondent: Respondent): Prisma.SubmissionWhereInput =>
  "studentId" in respondent ? { studentId: respondent.studentId } : { candidateId: respondent.candidateId, studentId: null };

/**
 * Anonymises a student or a candidate: a pseudonym for a name, no e-mail, phone, record number or
 * date of birth; their completed results anonymised with them (they stay theirs) and their links
 * never completed deleted. The record is marked `anonymisedAt` and is never anonymised again.
 */
export async function anonymisePerson(tx: Tx, respondent: Respondent, now: Date) {
  const name = pseudonym();
  const data = { ...IDENTIFYING_NONE, name, searchName: foldForSearch(name), anonymisedAt: now, updatedAt: now };
  if ("studentId" in respondent) await tx.student.update({ where: { id: respondent.studentId }, data, select: { id: true } });
  else await tx.candidate.update({ where: { id: respondent.candidateId }, data, select: { id: true } });
  const submissions = await tx.submission.findMany({ where: submissionsOf(respondent), select: { id: true, isCompleted: true } });
  const results = await anonymiseResults(
    tx,
    submissions.filter((row) => row.isCompleted).map((row) => row.id),
    now,
    { detach: false, name },
  );
  const links = await deleteSubmissions(
    tx,
    submissions.filter((row) => !row.isCompleted).map((row) => row.id),
    now,
  );
  return { results, links };
}

/**
 * Deletes a student or a candidate for good, with their submissions, answers and drafts; their
 * group memberships go with them (cascade), and the groups' updatedAt moves as a deletion's does.
 * A promoted candidate's results belong to the student now: they stay, without the candidate.
 */
export async function deletePersonForGood(tx: Tx, respondent: Respondent, now: Date) {
  const submissions = await tx.submission.findMany({ where: submissionsOf(respondent), select: { id: true } });
  const deleted = await deleteSubmissions(
    tx,
    submissions.map((row) => row.id),
    now,
  );
  const membership = "studentId" in respondent ? { studentId: respondent.studentId } : { candidateId: respondent.candidateId };
  await tx.group.updateMany({ where: { deletedAt: null, members: { some: membership } }, data: { updatedAt: now } });
  const id = "studentId" in respondent ? respondent.studentId : respondent.candidateId;
  const kind = "studentId" in respondent ? ("student" as const) : ("candidate" as const);
  const person =
    kind === "student"
      ? await tx.student.findUniqueOrThrow({ where: { id }, select: { organizationId: true, deletedAt: true } })
      : await tx.candidate.findUniqueOrThrow({ where: { id }, select: { organizationId: true, deletedAt: true } });
  if (kind === "student") {
    await tx.student.delete({ where: { id }, select: { id: true } });
  } else {
    await tx.submission.updateMany({ where: { candidateId: id }, data: { candidateId: null } });
    await tx.candidate.delete({ where: { id }, select: { id: true } });
  }
  // A person deleted from the lists before has told them already.
  if (!person.deletedAt) await recordTombstone(tx, { organizationId: person.organizationId, kind, itemId: id, audience: "ALL", deletedAt: now });
  return { results: deleted };
}
