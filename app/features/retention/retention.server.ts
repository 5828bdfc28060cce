import { type Actor, isAdmin } from "~/lib/auth/actor.server.ts";
import { db, LONG_WRITE, type Prisma } from "~/lib/db.server.ts";
import { forbidden, notFound } from "~/lib/problem.server.ts";
import { recordAudit } from "../audit/audit.server.ts";
import { enqueueJobs, type JobHandler, type NewJob } from "../jobs/jobs.server.ts";
import type { Respondent } from "../people/people.server.ts";
import { anonymiseRecords, removeRecords } from "../people/erasure.server.ts";
import { readPersonRecords } from "../people/person-records.server.ts";
import { anonymiseResults, deleteSubmissions } from "./retention-erasure.server.ts";
import { cutoffsOf, nextRetentionRun, policyOf, retentionColumnsSelect } from "./retention-policy.ts";
import { PREVIEW_LIMIT, type RetentionAction } from "./retention-schemas.ts";

/**
 * The retention policy at work (docs/api-contract.md §21, ADR 89). Each organization with a policy
 * has one job of the durable queue ("retention", keyed `retention:<id>`), due at the start of the
 * next day in its time zone; its run applies the policy and queues the next day's. The preview
 * and the run select with the same conditions, so the preview names what a run at that moment
 * touches. What was touched is marked (`anonymisedAt`) or gone, so a second run touches nothing.
 */

/** How many results, or people, one transaction of a run takes: a first run over years of results never holds the database for long. */
const BATCH = 200;

/** The key of an organization's retention jobs: one runs at a time, and the settings find theirs by it. */
export const retentionKey = (organizationId: string) => `retention:${organizationId}`;

/** The run due at `runAt`. */
const retentionRun = (organizationId: string, runAt: Date): NewJob => ({
  kind: "retention",
  payload: { organizationId },
  runAt,
  concurrencyKey: retentionKey(organizationId),
});

const waitingRuns = (organizationId: string) => ({ kind: "retention", concurrencyKey: retentionKey(organizationId), doneAt: null, failedAt: null });

/**
 * Keeps the organization's daily run in step with its policy, in the transaction that changes the
 * policy: a policy set queues the first run (at the start of the next day in `timeZone`) unless one
 * waits already; no policy removes the runs not yet started.
 */
export async function scheduleRetentionRuns(tx: Prisma.TransactionClient, organizationId: string, hasPolicy: boolean, timeZone: string, now: Date) {
  if (!hasPolicy) {
    await tx.job.deleteMany({ where: { ...waitingRuns(organizationId), OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] } });
    return;
  }
  if ((await tx.job.count({ where: waitingRuns(organizationId) })) > 0) return;
  await enqueueJobs(tx, [retentionRun(organizationId, nextRetentionRun(now, timeZone))]);
}

/** The results rule: results completed before `before` (not yet anonymised, when anonymising), and links never completed made before it. */
function expiredResults(organizationId: string, before: Date, action: RetentionAction) {
  return {
    completed: { organizationId, isCompleted: true, completedAt: { lt: before }, ...(action === "ANONYMISE" ? { anonymisedAt: null } : {}) },
    links: { organizationId, isCompleted: false, createdAt: { lt: before } },
  } satisfies Record<string, Prisma.SubmissionWhereInput>;
}

/** A link made, or a result completed, at or after `since`: what keeps its person active. */
const activeSince = (since: Date): Prisma.SubmissionWhereInput => ({ OR: [{ createdAt: { gte: since } }, { completedAt: { gte: since } }] });

/**
 * The people rule: students and candidates (deleted from the lists or not) whose record has not
 * changed, who have had no link made and no result completed, and (students) whose login has not
 * signed in, since `before`. Anonymising skips those anonymised already; deleting takes them too.
 */
function inactivePeople(organizationId: string, before: Date, action: RetentionAction) {
  const common = {
    organizationId,
    updatedAt: { lt: before },
    submissions: { none: activeSince(before) },
    ...(action === "ANONYMISE" ? { anonymisedAt: null } : {}),
  };
  const signedOut: Prisma.StudentWhereInput = {
    OR: [{ userId: null }, { user: { is: { OR: [{ lastLoginAt: null }, { lastLoginAt: { lt: before } }] } } }],
  };
  return { students: { ...common, ...signedOut } satisfies Prisma.StudentWhereInput, candidates: common satisfies Prisma.CandidateWhereInput };
}

const OLDEST_CHANGE_FIRST = [{ updatedAt: "asc" as const }, { id: "asc" as const }];

/** Each person's last activity: the latest of their record's change, their newest link or result, and their login's sign-in. */
async function lastActivities(
  kind: "student" | "candidate",
  people: { id: string; updatedAt: Date; user?: { lastLoginAt: Date | null } | null }[],
): Promise<{ kind: "student" | "candidate"; id: string; lastActivity: Date }[]> {
  if (people.length === 0) return [];
  const ids = people.map((person) => person.id);
  const latest = new Map<string, Date[]>();
  if (kind === "student") {
    const rows = await db.submission.groupBy({ by: ["studentId"], where: { studentId: { in: ids } }, _max: { createdAt: true, completedAt: true } });
    for (const row of rows)
      latest.set(
        row.studentId!,
        [row._max.createdAt, row._max.completedAt].filter((at): at is Date => at !== null),
      );
  } else {
    const rows = await db.submission.groupBy({ by: ["candidateId"], where: { candidateId: { in: ids } }, _max: { createdAt: true, completedAt: true } });
    for (const row of rows)
      latest.set(
        row.candidateId!,
        [row._max.createdAt, row._max.completedAt].filter((at): at is Date => at !== null),
      );
  }
  return people.map((person) => {
    const moments = [person.updatedAt, ...(person.user?.lastLoginAt ? [person.user.lastLoginAt] : []), ...(latest.get(person.id) ?? [])];
    return { kind, id: person.id, lastActivity: new Date(Math.max(...moments.map((at) => at.getTime()))) };
  });
}

/** The caller's organization with its policy. */
async function organizationPolicy(organizationId: string) {
  const organization = await db.organization.findFirst({
    where: { id: organizationId, deletedAt: null },
    select: { id: true, timeZone: true, ...retentionColumnsSelect },
  });
  return organization ? { organization, policy: policyOf(organization) } : null;
}

/**
 * What the next run would touch if it ran at `now` (docs/api-contract.md §21): for each rule its
 * cut-off, how many, and the first PREVIEW_LIMIT of them (results: completed ones oldest first,
 * then links never completed oldest first; people: students then candidates, the least recently
 * changed first). An administrator's own organization.
 */
export async function previewRetention(actor: Actor, now = new Date()) {
  if (!isAdmin(actor)) throw forbidden("Only administrators may see what the retention policy would touch.");
  const found = await organizationPolicy(actor.organizationId);
  if (!found) throw notFound("organization");
  const { policy } = found;
  const empty = { retention: null, nextRunAt: null, limit: PREVIEW_LIMIT, results: null, people: null };
  if (!policy) return empty;
  const cutoffs = cutoffsOf(policy, now);
  const nextRun = await db.job.findFirst({ where: waitingRuns(actor.organizationId), orderBy: { runAt: "asc" }, select: { runAt: true } });

  let results = null;
  if (cutoffs.results) {
    const where = expiredResults(actor.organizationId, cutoffs.results, policy.action);
    const select = { id: true, completedAt: true, createdAt: true } as const;
    const [completedCount, linksCount, completed] = await Promise.all([
      db.submission.count({ where: where.completed }),
      db.submission.count({ where: where.links }),
      db.submission.findMany({ where: where.completed, select, orderBy: [{ completedAt: "asc" }, { id: "asc" }], take: PREVIEW_LIMIT }),
    ]);
    const links =
      completed.length < PREVIEW_LIMIT
        ? await db.submission.findMany({ where: where.links, select, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: PREVIEW_LIMIT - completed.length })
        : [];
    results = { before: cutoffs.results, count: completedCount + linksCount, submissions: [...completed, ...links] };
  }

  let people = null;
  if (cutoffs.people) {
    const where = inactivePeople(actor.organizationId, cutoffs.people, policy.action);
    const [studentsCount, candidatesCount, students] = await Promise.all([
      db.student.count({ where: where.students }),
      db.candidate.count({ where: where.candidates }),
      db.student.findMany({
        where: where.students,
        select: { id: true, updatedAt: true, user: { select: { lastLoginAt: true } } },
        orderBy: OLDEST_CHANGE_FIRST,
        take: PREVIEW_LIMIT,
      }),
    ]);
    const candidates =
      students.length < PREVIEW_LIMIT
        ? await db.candidate.findMany({
            where: where.candidates,
            select: { id: true, updatedAt: true },
            orderBy: OLDEST_CHANGE_FIRST,
            take: PREVIEW_LIMIT - students.length,
          })
        : [];
    people = {
      before: cutoffs.people,
      count: studentsCount + candidatesCount,
      people: [...(await lastActivities("student", students)), ...(await lastActivities("candidate", candidates))],
    };
  }
  return { retention: policy, nextRunAt: nextRun?.runAt ?? null, limit: PREVIEW_LIMIT, results, people };
}

/** What one run did, as its audit event tells it. */
type RunCounts = {
  results: { anonymised: number; deleted: number };
  people: { anonymised: number; deleted: number; resultsAnonymised: number; resultsDeleted: number };
};

/** In slices of BATCH: the ids of a list collected before the run changed anything. */
const slices = <T>(items: T[]) => Array.from({ length: Math.ceil(items.length / BATCH) }, (_, index) => items.slice(index * BATCH, (index + 1) * BATCH));

/**
 * Applies the organization's policy as it stands at `now`, and records one `retention.applied`
 * event with what it did (also when it did nothing: the log shows the policy ran). Answers the
 * counts, or null when the organization has no policy (nothing is done or recorded).
 *
 * The people rule's list is collected first, as the preview collects it: the results rule then
 * takes old results off their people, which must not make anyone look inactive who was not. Each
 * slice runs in a transaction of its own that checks its items again, so a person who became
 * active meanwhile, or a result already handled, is left alone.
 */
export async function applyRetention(organizationId: string, now: Date): Promise<RunCounts | null> {
  const found = await organizationPolicy(organizationId);
  if (!found?.policy) return null;
  const { policy } = found;
  const cutoffs = cutoffsOf(policy, now);
  const counts: RunCounts = { results: { anonymised: 0, deleted: 0 }, people: { anonymised: 0, deleted: 0, resultsAnonymised: 0, resultsDeleted: 0 } };

  const peopleWhere = cutoffs.people ? inactivePeople(organizationId, cutoffs.people, policy.action) : null;
  const [students, candidates] = peopleWhere
    ? await Promise.all([
        db.student.findMany({ where: peopleWhere.students, select: { id: true }, orderBy: { id: "asc" } }),
        db.candidate.findMany({ where: peopleWhere.candidates, select: { id: true }, orderBy: { id: "asc" } }),
      ])
    : [[], []];

  if (cutoffs.results) {
    const where = expiredResults(organizationId, cutoffs.results, policy.action);
    for (let handled = BATCH; handled === BATCH; ) {
      handled = await db.$transaction(async (tx) => {
        const batch = await tx.submission.findMany({ where: { OR: [where.completed, where.links] }, select: { id: true, isCompleted: true }, take: BATCH });
        if (policy.action === "DELETE") {
          counts.results.deleted += await deleteSubmissions(
            tx,
            batch.map((row) => row.id),
            now,
          );
        } else {
          counts.results.anonymised += await anonymiseResults(
            tx,
            batch.filter((row) => row.isCompleted).map((row) => row.id),
            now,
            { detach: true },
          );
          // A link never completed has no result to keep for statistics, only whom it was for.
          counts.results.deleted += await deleteSubmissions(
            tx,
            batch.filter((row) => !row.isCompleted).map((row) => row.id),
            now,
          );
        }
        return batch.length;
      }, LONG_WRITE);
    }
  }

  if (peopleWhere) {
    const lists: [Respondent[], Prisma.StudentWhereInput | Prisma.CandidateWhereInput, "student" | "candidate"][] = [
      [students.map(({ id }) => ({ studentId: id })), peopleWhere.students, "student"],
      [candidates.map(({ id }) => ({ candidateId: id })), peopleWhere.candidates, "candidate"],
    ];
    for (const [respondents, where, kind] of lists) {
      for (const slice of slices(respondents)) {
        await db.$transaction(async (tx) => {
          const ids = slice.map((respondent) => ("studentId" in respondent ? respondent.studentId : respondent.candidateId));
          const still =
            kind === "student"
              ? await tx.student.findMany({ where: { AND: [{ id: { in: ids } }, where as Prisma.StudentWhereInput] }, select: { id: true } })
              : await tx.candidate.findMany({ where: { AND: [{ id: { in: ids } }, where as Prisma.CandidateWhereInput] }, select: { id: true } });
          for (const { id } of still) {
            // A promoted candidate and the student it became are one person (ADR 88): handled
            // together, so the second of them may be gone, or anonymised, already.
            const records = await readPersonRecords(tx, kind, id);
            if (!records) continue;
            if (policy.action === "DELETE") {
              counts.people.resultsDeleted += (await removeRecords(tx, records, now)).submissions;
              counts.people.deleted++;
            } else if (!(await anonymisedAlready(tx, kind, id))) {
              counts.people.resultsAnonymised += (await anonymiseRecords(tx, records, now)).submissions;
              counts.people.anonymised++;
            }
          }
        }, LONG_WRITE);
      }
    }
  }

  await recordAudit(db, {
    by: { kind: "SYSTEM", name: "retention" },
    organizationId,
    action: "retention.applied",
    targetId: organizationId,
    details: {
      policy: { ...policy },
      resultsBefore: cutoffs.results?.toISOString() ?? null,
      peopleBefore: cutoffs.people?.toISOString() ?? null,
      results: counts.results,
      people: counts.people,
    },
  });
  return counts;
}

/** Whether the record was anonymised in this run already, with the record it was promoted from or to. */
async function anonymisedAlready(tx: Prisma.TransactionClient, kind: "student" | "candidate", id: string) {
  const row =
    kind === "student"
      ? await tx.student.findUnique({ where: { id }, select: { anonymisedAt: true } })
      : await tx.candidate.findUnique({ where: { id }, select: { anonymisedAt: true } });
  return row?.anonymisedAt != null;
}

/** Queues the run of the day after `now`, unless the policy is gone or a later run waits already. */
async function queueNextRun(organizationId: string, now: Date) {
  const found = await organizationPolicy(organizationId);
  if (!found?.policy) return;
  if ((await db.job.count({ where: { ...waitingRuns(organizationId), runAt: { gt: now } } })) > 0) return;
  await enqueueJobs(db, [retentionRun(organizationId, nextRetentionRun(now, found.organization.timeZone))]);
}

/** The job handler of an organization's daily run: the policy applied, then the next day's run queued (also after its last failed try, so the runs never stop). */
export const retentionJob: JobHandler = async (payload, run) => {
  const { organizationId } = payload as { organizationId: string };
  try {
    await applyRetention(organizationId, run.now);
  } catch (error) {
    if (run.lastAttempt) await queueNextRun(organizationId, run.now);
    throw error;
  }
  await queueNextRun(organizationId, run.now);
};
