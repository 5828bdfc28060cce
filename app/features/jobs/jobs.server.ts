import { randomUUID } from "node:crypto";
import { db, type Prisma } from "~/lib/db.server.ts";

/**
 * Durable background jobs (ADR 20): rows of the Job table, so work queued in a request survives a
 * restart and is done by whichever instance claims it first. A claim is one conditional UPDATE
 * (free, due, not done) that sets a lease: on PostgreSQL two instances racing for a row are
 * serialized by its row lock and the loser's WHERE no longer matches; SQLite has one writer. A
 * failed run is tried again with growing back-off until MAX_ATTEMPTS; a run cut off by a crash is
 * taken again when its lease ends.
 */
export const MAX_ATTEMPTS = 8;
const LEASE_MS = 5 * 60_000;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;

export type JobKind = "sendLink" | "remind" | "webhook";
export type JobHandler = (payload: Prisma.JsonValue) => Promise<void>;

type Client = Pick<Prisma.TransactionClient, "job">;

/**
 * A job to queue. Jobs of one `concurrencyKey` run one at a time (see claimJob); `submissionId`
 * names the link an e-mail is about, so a second message is refused while one waits (ADR 45).
 */
export type NewJob = { kind: JobKind; payload: Prisma.InputJsonValue; runAt?: Date; concurrencyKey?: string; submissionId?: string };

/** Queues a job, in the caller's transaction when given one, so it exists exactly when its cause does. */
export function enqueueJobs(client: Client, jobs: NewJob[]) {
  if (jobs.length === 0) return Promise.resolve({ count: 0 });
  return client.job.createMany({
    data: jobs.map((job) => ({
      id: randomUUID(),
      kind: job.kind,
      payload: job.payload,
      ...(job.runAt ? { runAt: job.runAt } : {}),
      ...(job.concurrencyKey ? { concurrencyKey: job.concurrencyKey } : {}),
      ...(job.submissionId ? { submissionId: job.submissionId } : {}),
    })),
  });
}

/** How long to wait before attempt `attempts + 1`: 30 s, 1 min, 2 min, ... at most an hour. */
export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);

const due = (now: Date): Prisma.JobWhereInput => ({
  doneAt: null,
  failedAt: null,
  runAt: { lte: now },
  OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }],
});

/**
 * Claims one due job (of `only` and of `kinds`, when given), or none: the conditional update is the
 * whole claim. A job whose `concurrencyKey` another unfinished job holds under a lease waits, so a
 * webhook endpoint that answers slowly (or not at all, until the delivery's timeout) holds one lane
 * however many of its deliveries are due, and every other endpoint's go on in the others.
 *
 * The keys in use are read only when a due job has one (the e-mails have none, and an idle poll
 * finds nothing), and then those keys' jobs are left out of the candidates. In this process the
 * claims run one at a time (`claiming`), so two lanes never take two jobs of one key; another
 * instance claiming at the same moment can, which only means that endpoint holds two lanes for
 * that one delivery.
 */
async function claimJob(now: Date, only?: string[], kinds?: readonly JobKind[]) {
  const where: Prisma.JobWhereInput = { ...due(now), ...(only ? { id: { in: only } } : {}), ...(kinds ? { kind: { in: [...kinds] } } : {}) };
  const firstDue = (filter: Prisma.JobWhereInput) =>
    db.job.findMany({ where: filter, select: { id: true, concurrencyKey: true }, orderBy: { runAt: "asc" }, take: 5 });
  let candidates = await firstDue(where);
  if (candidates.some((job) => job.concurrencyKey !== null)) {
    const held = await db.job.findMany({
      where: { doneAt: null, failedAt: null, concurrencyKey: { not: null }, lockedUntil: { gte: now } },
      select: { concurrencyKey: true },
      distinct: ["concurrencyKey"],
    });
    const heldKeys = held.map((job) => job.concurrencyKey!);
    if (heldKeys.length > 0) candidates = await firstDue({ ...where, AND: [{ OR: [{ concurrencyKey: null }, { concurrencyKey: { notIn: heldKeys } }] }] });
  }
  for (const { id } of candidates) {
    const { count } = await db.job.updateMany({
      where: { id, ...due(now) },
      data: { lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: { increment: 1 } },
    });
    if (count === 1) return db.job.findUniqueOrThrow({ where: { id } });
  }
  return null;
}

/** The claim in progress in this process: the lanes claim one after another (see claimJob). */
let claiming: Promise<unknown> = Promise.resolve();

function claimInTurn(now: Date, only?: string[], kinds?: readonly JobKind[]) {
  const claim = claiming.then(() => claimJob(now, only, kinds));
  claiming = claim.catch(() => undefined);
  return claim;
}

/**
 * Runs due jobs until none is left (or `limit` ran); answers how many ran. `now` is the clock and
 * `only` a set of job ids: a test runs its own jobs at the time it chooses, leaving the others.
 */
export async function runDueJobs(
  handlers: Record<JobKind, JobHandler>,
  options: { now?: () => Date; limit?: number; only?: string[]; kinds?: readonly JobKind[] } = {},
) {
  const now = options.now ?? (() => new Date());
  let ran = 0;
  while (ran < (options.limit ?? 100)) {
    const job = await claimInTurn(now(), options.only, options.kinds);
    if (!job) break;
    ran++;
    try {
      await handlers[job.kind as JobKind](job.payload);
      await db.job.update({ where: { id: job.id }, data: { doneAt: now(), lockedUntil: null, lastError: null }, select: { id: true } });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const givingUp = job.attempts >= MAX_ATTEMPTS;
      await db.job.update({
        where: { id: job.id },
        data: {
          lockedUntil: null,
          lastError: message.slice(0, 1000),
          ...(givingUp ? { failedAt: now() } : { runAt: new Date(now().getTime() + retryDelayMs(job.attempts)) }),
        },
        select: { id: true },
      });
      console.error(`[jobs] ${job.kind} ${job.id} failed (attempt ${job.attempts}${givingUp ? ", giving up" : ""}): ${message}`);
    }
  }
  return ran;
}

/**
 * The worker's lanes: e-mails in one, webhook deliveries in four of their own. A delivery may wait
 * up to its timeout on a slow endpoint; in a lane of their own, a pupil's link or reminder never
 * waits behind an integrator's server, and four slow endpoints do not stop the other deliveries.
 */
const LANES: { kinds: readonly JobKind[] }[] = [{ kinds: ["sendLink", "remind"] }, ...Array.from({ length: 4 }, () => ({ kinds: ["webhook"] as const }))];

/**
 * Polls for due jobs every `intervalMs` in this process, in each lane; one run at a time per lane.
 * Answers the function that stops it (on shutdown).
 */
export function startJobWorker(handlers: Record<JobKind, JobHandler>, intervalMs: number) {
  const timers = LANES.map(({ kinds }) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      runDueJobs(handlers, { kinds })
        .catch((error) => console.error("[jobs] poll failed:", error instanceof Error ? error.message : error))
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref();
    return timer;
  });
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}
