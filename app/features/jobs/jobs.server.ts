import { db, type Prisma } from "~/lib/db.server.ts";
import { DEFAULT_JOB_HEARTBEAT_MS, DEFAULT_JOB_LEASE_MS } from "~/lib/env.server.ts";
import { newId } from "~/lib/ids.server.ts";

/**
 * Durable background jobs (ADR 20, ADR 46): rows of the Job table, so work queued in a request
 * survives a restart and is done by whichever instance claims it first. A claim is one conditional
 * UPDATE (free, due, not done) that sets a short lease: on PostgreSQL two instances racing for a
 * row are serialized by its row lock and the loser's WHERE no longer matches; SQLite has one
 * writer. While a handler runs, the worker renews the lease (a heartbeat), so a slow mail server
 * never sees a second copy, and a run cut off by a crash is taken again within a lease. A failed
 * run is tried again on its kind's schedule (RETRY_SCHEDULES); a permanent failure
 * (PermanentJobFailure) ends the job at once.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/**
 * The waits between attempts, per kind: attempt n + 1 comes `schedule[n - 1]` after attempt n
 * failed, and after the last wait's attempt the job is given up. Webhooks follow Standard
 * Webhooks (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h): 12 attempts over about
 * 2.8 days. E-mails: 1, 5, 15 and 30 min, 1, 2, 4, 8 and 8 h: 10 attempts over about 24 h (a link
 * is usually wanted the same day; after that the teacher sees "e-mail failed" and can send again;
 * a flagged result stays on its readers' home page until acknowledged, ADR 71).
 */
const MAIL_SCHEDULE = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 8 * HOUR];
export const RETRY_SCHEDULES: Record<JobKind, readonly number[]> = {
  webhook: [5_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR],
  sendLink: MAIL_SCHEDULE,
  remind: MAIL_SCHEDULE,
  flagAlert: MAIL_SCHEDULE,
  // A schedule's occurrence (ADR 76): tried over the day it belongs to, as an e-mail is; its last
  // try records it as failed and queues the next, so a schedule never stops for a failure.
  schedule: MAIL_SCHEDULE,
  // An organization's daily retention run (ADR 89): tried again over its day; its last try queues
  // the next day's, so the policy never stops for a failure.
  retention: MAIL_SCHEDULE,
};
/** How many attempts a job of `kind` gets in all. */
export const maxAttempts = (kind: JobKind) => RETRY_SCHEDULES[kind].length + 1;
/** How long to wait before attempt `attempts + 1` of a job of `kind`, or null when `attempts` was its last. */
export const retryDelayMs = (kind: JobKind, attempts: number): number | null => RETRY_SCHEDULES[kind][attempts - 1] ?? null;

/**
 * A claim's lease, renewed every HEARTBEAT_MS while the handler runs: a worker that dies frees its
 * job within LEASE_MS. A run is renewed for at most MAX_RUN_MS (a handler stuck past it is taken
 * again); every handler's own timeouts are well below it (SMTP: mailer.server.ts; webhooks: 10 s).
 * The instances' worker takes both from the configuration (JOB_LEASE_MS, JOB_HEARTBEAT_MS), whose
 * defaults these are.
 */
export const LEASE_MS = DEFAULT_JOB_LEASE_MS;
export const HEARTBEAT_MS = DEFAULT_JOB_HEARTBEAT_MS;
export const MAX_RUN_MS = 5 * MINUTE;

/**
 * A failure that trying again cannot mend (a mail server's 5xx reply, a webhook answered 410
 * Gone): the job ends at once with this reason. The handler records what the person reading it
 * should see (the link's `mailError`, the delivery's `lastError`) before throwing it.
 */
export class PermanentJobFailure extends Error {}

/**
 * What a handler knows of its run: which attempt it is, whether a failure now is the last, and the
 * runner's clock when the run began (tests move it: a handler that needs "now" reads it here).
 */
export type JobRun = { attempts: number; lastAttempt: boolean; now: Date };

/**
 * How many jobs of one `groupKey` run at once, across the instances: an organization's webhook
 * deliveries take at most two of the four delivery lanes, so another organization's never wait
 * behind its slow endpoints (ADR 44).
 */
export const GROUP_RUNS = 2;

export type JobKind = "sendLink" | "remind" | "flagAlert" | "webhook" | "schedule" | "retention";
export type JobHandler = (payload: Prisma.JsonValue, run: JobRun) => Promise<void>;
/** What a runner does for each kind; it claims only the kinds it has a handler for. */
export type JobHandlers = Partial<Record<JobKind, JobHandler>>;

type Client = Pick<Prisma.TransactionClient, "job">;

/**
 * A job to queue. Jobs of one `concurrencyKey` run one at a time, jobs of one `groupKey` at most
 * GROUP_RUNS at a time (see claimJob); `submissionId` names the link an e-mail is about, so a
 * second message to its respondent is refused while one waits (ADR 45; a flagged result's
 * e-mails to staff name it too, and never count there).
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
      id: newId(),
      kind: job.kind,
      payload: job.payload,
      ...(job.runAt ? { runAt: job.runAt } : {}),
      ...(job.concurrencyKey ? { concurrencyKey: job.concurrencyKey } : {}),
      ...(job.groupKey ? { groupKey: job.groupKey } : {}),
      ...(job.submissionId ? { submissionId: job.submissionId } : {}),
    })),
  });
}

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
async function claimJob(now: Date, leaseMs: number, only?: string[], kinds?: readonly JobKind[]) {
  const where: Prisma.JobWhereInput = { ...due(now), ...(only ? { id: { in: only } } : {}), ...(kinds ? { kind: { in: [...kinds] } } : {}) };
  // Oldest first; among jobs due at the same moment (a bulk assignment queues them all at once),
  // one already tried first: a job handed back by a stopping instance had been claimed in its
  // turn and goes out next, not after the rest of its batch. (PostgreSQL returns rows of equal
  // keys in no set order, and a row it has updated often comes last.)
  const firstDue = (filter: Prisma.JobWhereInput) =>
    db.job.findMany({
      where: filter,
      select: { id: true, concurrencyKey: true, groupKey: true },
      orderBy: [{ runAt: "asc" }, { attempts: "desc" }],
      take: 5,
    });
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
      data: { lockedUntil: new Date(now.getTime() + leaseMs), attempts: { increment: 1 } },
    });
    if (count === 1) return db.job.findUniqueOrThrow({ where: { id } });
  }
  return null;
}

/** The claim in progress in this process: the lanes claim one after another (see claimJob). */
let claiming: Promise<unknown> = Promise.resolve();

function claimInTurn(now: Date, leaseMs: number, only?: string[], kinds?: readonly JobKind[]) {
  const claim = claiming.then(() => claimJob(now, leaseMs, only, kinds));
  claiming = claim.catch(() => undefined);
  return claim;
}

type RunOptions = {
  /** The clock (tests move it). */
  now?: () => Date;
  limit?: number;
  /** Only these jobs: a test runs its own at the time it chooses, leaving the others. */
  only?: string[];
  kinds?: readonly JobKind[];
  /** A claim's lease (LEASE_MS unless configured otherwise). */
  leaseMs?: number;
  /** How often the lease is renewed while a handler runs (HEARTBEAT_MS unless configured otherwise; tests shorten it). */
  heartbeatMs?: number;
  /** The worker's runs in progress, for its stop to wait for or hand back; and whether it stops. */
  worker?: WorkerState;
};

/**
 * A run in progress, for the worker's stop: `handBack` ends its lease renewals (waiting for one in
 * flight) so that the lease the stop clears stays cleared; its late end is still fenced by the attempt.
 */
type Running = { id: string; attempts: number; done: Promise<void>; handBack: () => Promise<void> };
type WorkerState = { stopping: boolean; running: Set<Running> };

/**
 * Runs one claimed job, renewing its lease every `heartbeatMs` while the handler runs (for at most
 * MAX_RUN_MS), then records its end. Every write is fenced by the attempt it claimed: a worker
 * whose lease ran out and whose job another took (or that handed it back) changes nothing more.
 */
function runJob(
  handlers: JobHandlers,
  job: { id: string; kind: string; payload: Prisma.JsonValue; attempts: number },
  now: () => Date,
  lease: { leaseMs: number; heartbeatMs: number },
): Running {
  const kind = job.kind as JobKind;
  const ours = { id: job.id, attempts: job.attempts, doneAt: null, failedAt: null };
  const started = now().getTime();
  let renewing: Promise<unknown> | null = null;
  const heartbeat = setInterval(() => {
    if (now().getTime() - started >= MAX_RUN_MS) return clearInterval(heartbeat);
    // One renewal at a time, and none moves the lease back: a renewal slower than a heartbeat
    // (a stalled database) would otherwise land after the next one and shorten the lease it had
    // just extended, letting another worker take a job still running.
    if (renewing) return;
    const until = new Date(now().getTime() + lease.leaseMs);
    renewing = db.job
      .updateMany({ where: { ...ours, lockedUntil: { lt: until } }, data: { lockedUntil: until } })
      .catch((error) => console.error(`[jobs] lease of ${job.id} not renewed:`, error instanceof Error ? error.message : error))
      .finally(() => (renewing = null));
  }, lease.heartbeatMs);
  heartbeat.unref();
  const lastAttempt = job.attempts >= maxAttempts(kind);
  const handler = handlers[kind];
  const done = (async () => {
    try {
      if (!handler) throw new Error(`no handler for jobs of kind ${kind}`);
      await handler(job.payload, { attempts: job.attempts, lastAttempt, now: new Date(started) });
      clearInterval(heartbeat);
      await db.job.updateMany({ where: ours, data: { doneAt: now(), lockedUntil: null, lastError: null } });
    } catch (error) {
      clearInterval(heartbeat);
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof PermanentJobFailure;
      const delay = permanent ? null : retryDelayMs(kind, job.attempts);
      await db.job.updateMany({
        where: ours,
        data: {
          lockedUntil: null,
          lastError: message.slice(0, 1000),
          ...(delay === null ? { failedAt: now() } : { runAt: new Date(now().getTime() + delay) }),
        },
      });
      const end = permanent ? ", refused for good" : delay === null ? ", giving up" : "";
      console.error(`[jobs] ${job.kind} ${job.id} failed (attempt ${job.attempts}${end}): ${message}`);
    }
  })();
  const handBack = async () => {
    clearInterval(heartbeat);
    if (renewing) await renewing;
    await db.job.updateMany({ where: ours, data: { lockedUntil: null } });
  };
  return { id: job.id, attempts: job.attempts, done, handBack };
}

/** Runs due jobs until none is left (or `limit` ran, or the worker stops); answers how many ran. */
export async function runDueJobs(handlers: JobHandlers, options: RunOptions = {}) {
  const now = options.now ?? (() => new Date());
  let ran = 0;
  while (ran < (options.limit ?? 100) && !options.worker?.stopping) {
    const leaseMs = options.leaseMs ?? LEASE_MS;
    const job = await claimInTurn(now(), leaseMs, options.only, options.kinds ?? (Object.keys(handlers) as JobKind[]));
    if (!job) break;
    ran++;
    const run = runJob(handlers, job, now, { leaseMs, heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS });
    options.worker?.running.add(run);
    try {
      await run.done;
    } finally {
      options.worker?.running.delete(run);
    }
  }
  return ran;
}

/**
 * The worker's lanes: the e-mails about flagged results in one, the links and reminders in
 * another, schedules' occurrences in a third, webhook deliveries in four of their own. A delivery
 * may wait up to its timeout on a slow endpoint; in a lane of their own, a pupil's link or reminder
 * never waits behind an integrator's server, and one organization's slow endpoints hold at most
 * GROUP_RUNS of the four (its deliveries' group key), never the others' deliveries. A flagged
 * result's e-mail goes out within a poll, never behind the thousand links of a bulk assignment
 * (ADR 71). An occurrence writes a class's links at once (a long write); in its own lane the
 * e-mails it queues go out beside the next occurrence rather than after it (ADR 76). The retention
 * policy's daily runs, long writes in slices, have a lane of their own too (ADR 89).
 */
const LANES: { kinds: readonly JobKind[] }[] = [
  { kinds: ["flagAlert"] },
  { kinds: ["sendLink", "remind"] },
  { kinds: ["schedule"] },
  { kinds: ["retention"] },
  ...Array.from({ length: 4 }, () => ({ kinds: ["webhook"] as const })),
];

/**
 * Stops a worker: it claims nothing more, waits up to `timeoutMs` for the runs in progress to end,
 * then hands back those still running (their lease cleared; the attempt counts), so another
 * instance takes them at once rather than when the lease would have run out. Answers how many it
 * handed back.
 */
export type StopJobWorker = (timeoutMs: number) => Promise<number>;

/**
 * Polls for due jobs every `intervalMs` in this process, in each lane; one run at a time per lane.
 * Answers the function that stops it (on shutdown). `options`: the lease and its renewal (from the
 * configuration); the clock and the jobs are for tests.
 */
export function startJobWorker(handlers: JobHandlers, intervalMs: number, options: Omit<RunOptions, "kinds" | "worker"> = {}): StopJobWorker {
  const worker: WorkerState = { stopping: false, running: new Set() };
  const polls = new Set<Promise<unknown>>();
  const timers = LANES.map(({ kinds }) => {
    let running = false;
    const timer = setInterval(() => {
      if (running || worker.stopping) return;
      running = true;
      const poll = runDueJobs(handlers, { ...options, kinds, worker })
        .catch((error) => console.error("[jobs] poll failed:", error instanceof Error ? error.message : error))
        .finally(() => {
          running = false;
          polls.delete(poll);
        });
      polls.add(poll);
    }, intervalMs);
    timer.unref();
    return timer;
  });
  return async (timeoutMs) => {
    worker.stopping = true;
    for (const timer of timers) clearInterval(timer);
    let deadline: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      deadline = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const outcome = await Promise.race([Promise.allSettled([...polls]).then(() => "finished" as const), timedOut]);
    clearTimeout(deadline);
    if (outcome === "finished") return 0;
    const left = [...worker.running];
    for (const run of left) await run.handBack();
    if (left.length > 0) console.log(`[jobs] ${left.length} job(s) still running handed back for another instance`);
    return left.length;
  };
}
