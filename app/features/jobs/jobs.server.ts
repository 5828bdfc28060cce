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
/**
 * How many jobs of one `groupKey` run at once, across the instances: an organization's webhook
 * deliveries take at most two of the four delivery lanes, so another organization's never wait
 * behind its slow endpoints (ADR 44).
 */
export const GROUP_RUNS = 2;

export type JobKind = "sendLink" | "remind" | "webhook";
export type JobHandler = (payload: Prisma.JsonValue) => Promise<void>;

type Client = Pick<Prisma.TransactionClient, "job">;

/**
 * A job to queue. Jobs of one `concurrencyKey` run one at a time, jobs of one `groupKey` at most
 * GROUP_RUNS at a time (see claimJob); `submissionId` names the link an e-mail is about, so a
 * second message is refused while one waits (ADR 45).
 */
export type NewJob = {
  kind: JobKind;
  payload: Prisma.InputJsonValue;
  runAt?: Date;
  concurrencyKey?: string;
  groupKey?: string;
  submissionId?: string;
};

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
      ...(job.groupKey ? { groupKey: job.groupKey } : {}),
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
 * Likewise a job whose `groupKey` already has GROUP_RUNS unfinished jobs under a lease waits: an
 * organization's deliveries take at most that many lanes, whatever its endpoints do, and the
 * others stay free for the other organizations; and the jobs of groups with nothing running are
 * claimed before those of groups already running one (ADR 44).
 *
 * The keys in use are read only when a due job has one (the e-mails have none, and an idle poll
 * finds nothing): the jobs under a lease, a handful (the lanes of the running instances), and then
 * the jobs of held keys and full groups are left out of the candidates. The claim itself is still
 * the one conditional update, so a job runs once however many instances race for it. In this
 * process the claims run one at a time (`claiming`), so its lanes never pass a key's limits;
 * another instance claiming at the same moment can, which only means that endpoint holds two
 * lanes (or that organization one more than its share) for that one delivery.
 */
async function claimJob(now: Date, only?: string[], kinds?: readonly JobKind[]) {
  const where: Prisma.JobWhereInput = { ...due(now), ...(only ? { id: { in: only } } : {}), ...(kinds ? { kind: { in: [...kinds] } } : {}) };
  const firstDue = (filter: Prisma.JobWhereInput) =>
    db.job.findMany({ where: filter, select: { id: true, concurrencyKey: true, groupKey: true }, orderBy: { runAt: "asc" }, take: 5 });
  let candidates = await firstDue(where);
  if (candidates.some((job) => job.concurrencyKey !== null || job.groupKey !== null)) {
    const running = await db.job.findMany({
      where: { doneAt: null, failedAt: null, lockedUntil: { gte: now }, OR: [{ concurrencyKey: { not: null } }, { groupKey: { not: null } }] },
      select: { concurrencyKey: true, groupKey: true },
    });
    const heldKeys = [...new Set(running.flatMap((job) => (job.concurrencyKey ? [job.concurrencyKey] : [])))];
    const runsByGroup = new Map<string, number>();
    for (const { groupKey } of running) if (groupKey) runsByGroup.set(groupKey, (runsByGroup.get(groupKey) ?? 0) + 1);
    const groupsRunning = (least: number) => [...runsByGroup].filter(([, runs]) => runs >= least).map(([key]) => key);
    const busy = groupsRunning(1);
    const full = groupsRunning(GROUP_RUNS);
    const freeKeys: Prisma.JobWhereInput[] = heldKeys.length > 0 ? [{ OR: [{ concurrencyKey: null }, { concurrencyKey: { notIn: heldKeys } }] }] : [];
    const outside = (groups: string[]): Prisma.JobWhereInput[] => (groups.length > 0 ? [{ OR: [{ groupKey: null }, { groupKey: { notIn: groups } }] }] : []);
    // A group with nothing running goes first: when two organizations hold all the lanes, the
    // next lane to come free serves a third, not their backlog. Then the groups under their share.
    if (heldKeys.length > 0 || busy.length > 0) candidates = await firstDue({ ...where, AND: [...freeKeys, ...outside(busy)] });
    if (candidates.length === 0 && busy.length > full.length) candidates = await firstDue({ ...where, AND: [...freeKeys, ...outside(full)] });
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
 * waits behind an integrator's server, and one organization's slow endpoints hold at most
 * GROUP_RUNS of the four (its deliveries' group key), never the others' deliveries.
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
