import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";
import { assertNodeVersion } from "../../server/node-version.ts";
import {
  changedResultsSince,
  createBulkAssignmentForms,
  createPendingAssignments,
  type BenchWorld,
  ensureBenchDatabase,
  vacuumAnalyze,
  removeBulkAssignmentForms,
  removePendingAssignments,
  removeRosterImports,
  rosterCsv,
  storedResult,
} from "./dataset.ts";
import type { LoadJob, LoadRequest, LoadResult } from "./load.ts";
import { processCpuMs, threadTimes, threadTimesBetween, type ThreadTimes } from "./server-threads.ts";
import { startCoreSpeedProbe } from "./core-speed.ts";
import { benchLog } from "./log.ts";
import { signIn as signInAt } from "./sign-in.ts";
import {
  appServerEnv,
  NO_LOAD_SHEDDING,
  PRODUCTION_ACCEPT_ENCODING,
  pinnedTo,
  pinning,
  residentMemoryMiB,
  root,
  runLoadProcess,
  runOverloadProcess,
  SERVER_CPU,
  startServer,
  type Server,
} from "./processes.ts";
import {
  type Growth,
  machineDescription,
  type MemoryFigures,
  type OverloadOutcome,
  renderGrowthTable,
  renderMarkdown,
  renderCostTable,
  renderOverload,
  renderRoundDetails,
  renderTable,
  type ScenarioOutcome,
} from "./report.ts";

/**
 * `npm run bench`: measures the built app on a database with a million completed submissions,
 * against the bare baseline (scripts/bench/baseline.ts) on the few requests it answers (ADR 66)
 * and against absolute targets on every other. See docs/benchmarks.md for what each scenario
 * means and the latest results.
 *
 *   npm run bench                          SQLite, 1,000,000 submissions
 *   npm run bench -- --database postgresql PostgreSQL (BENCH_POSTGRES_URL, default the local server)
 *   npm run bench -- --rows 100000 --quick a smaller, shorter run while working on the code
 *   npm run bench -- --smoke               CI's check that the whole path still runs: every scenario
 *                                          for a moment on 2,000 rows, nothing worth reading timed
 *   npm run bench -- --bare                the app without its access log and asked for no
 *                                          compression (the tables before ADR 96)
 *
 * The app runs as `npm start` runs it (ADR 96): its access log on, written to a file under
 * data/bench/ as production writes it to a collector, and every request of the load generator
 * sends a browser's `Accept-Encoding: br, gzip`, so the answers worth compressing are compressed.
 */
assertNodeVersion();
// Dates go to PostgreSQL as timestamps without a zone: write them in UTC, as the app does.
process.env.TZ = "UTC";
const { values: options } = parseArgs({
  options: {
    database: { type: "string", default: "sqlite" },
    rows: { type: "string", default: "1000000" },
    quick: { type: "boolean", default: false },
    /** Every scenario for a moment (implies --quick, 2,000 rows unless given, no growth set): proves the run works, measures nothing. */
    smoke: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    out: { type: "string" },
    /** Runs only the scenarios whose name contains this text ("export" for the PDF exports), or one of several separated by commas ("format=csv,bulk"). */
    only: { type: "string" },
    /** The smaller data set each read is measured on again, for the growth table (0: none; default a tenth, none with --quick). */
    "growth-rows": { type: "string" },
    /**
     * The app without `npm start`'s access log, and every request without `Accept-Encoding` (so
     * nothing is compressed): the configuration every table measured until ADR 96.
     */
    bare: { type: "boolean", default: false },
  },
});
const bare = options.bare;
const selected = (name: string) => !options.only || options.only.split(",").some((part) => name.toLowerCase().includes(part.trim().toLowerCase()));
const database = options.database === "postgresql" ? "postgresql" : "sqlite";
const smoke = options.smoke;
const rows = Number(smoke && !process.argv.some((arg) => arg.startsWith("--rows")) ? "2000" : options.rows);
const quick = options.quick || smoke;
const timing = smoke
  ? { warmupMs: 200, roundMs: 300, rounds: 1, latencyMs: 300 }
  : quick
    ? { warmupMs: 1500, roundMs: 2000, rounds: 2, latencyMs: 3000 }
    : { warmupMs: 1500, roundMs: 3000, rounds: 3, latencyMs: 8000 };
const CONNECTIONS = 8;
/** Requests per server behind each latency figure, over all its rounds. */
const LATENCY_SAMPLES = smoke ? 20 : quick ? 500 : 2000;
/**
 * PDF exports are timed at 10 a second, this many of them: 2,000 would take 200 s, more than the
 * time the bench has left under its time limits (25 and 30 minutes), so fewer, and the table
 * says how many.
 */
const EXPORT_RATE = 10;
const EXPORT_LATENCY_SAMPLES = smoke ? 3 : quick ? 100 : 600;
/** Submits per second in the mixed workload: a few classes completing a test at the same time. */
const MIXED_SUBMITS_PER_SECOND = 5;
/** The results changed since the moment the incremental read asks from (its first page of 20, with the total). */
const CHANGED_RESULTS = smoke ? 100 : 1000;
/** Single requests (bulk assignment, roster import), each timed on its own: this many per server, after one warm-up call each. */
const REPETITIONS = smoke ? 1 : 5;

const started = Date.now();
const log = benchLog(started);

/** Each size has its own database; BENCH_POSTGRES_URL names the full one's, and the growth set's gets `_<size>` after its name. */
function databaseUrlFor(size: number): string {
  if (database === "sqlite") return `file:${path.join(root, "data/bench", `bench-${size}.db`)}`;
  const given = process.env.BENCH_POSTGRES_URL;
  if (!given) return `postgresql://postgres@127.0.0.1:5432/assessment_bench_${size}`;
  if (size === rows) return given;
  const url = new URL(given);
  url.pathname = `${url.pathname}_${size}`;
  return url.toString();
}
const databaseUrl = databaseUrlFor(rows);
const growthRows = Number(options["growth-rows"] ?? (quick ? 0 : Math.round(rows / 10)));

const signIn = (server: Server, email: string) => signInAt(server.url, email);

function get(pathAndQuery: string): LoadRequest {
  return { method: "GET", path: pathAndQuery, headers: { cookie, accept: "application/json" } };
}

/**
 * The untimed lead-in of every fixed-rate run (scripts/bench/load.ts). Measured on the session
 * check at 287/s after 3 s of idleness, five rounds: p95 25–324 ms over the whole round, 6.8–8.8
 * ms from its 500th millisecond on; the slow answers were all due in the first 100–400 ms.
 */
const RATE_SETTLE_MS = 500;

function job(server: Server, requests: LoadRequest[], overrides: Partial<LoadJob>): LoadJob {
  const settle = overrides.mode === "rate" ? { settleMs: RATE_SETTLE_MS } : {};
  return {
    target: server.url,
    requests,
    mode: "throughput",
    connections: CONNECTIONS,
    durationMs: timing.roundMs,
    forwardedFor: true,
    ...(bare ? {} : { acceptEncoding: PRODUCTION_ACCEPT_ENCODING }),
    ...settle,
    ...overrides,
  };
}

/** How many requests a fixed-rate run sends in `durationMs` and its lead-in: the links a run of submits consumes. */
const sentAtRate = (rate: number, durationMs: number) => Math.ceil((rate * (durationMs + RATE_SETTLE_MS)) / 1000);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The smallest, middle and largest of a figure measured once per round. */
function spreadOf(values: number[]): { min: number; median: number; max: number } {
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

/** Percentiles of a few timed calls, by nearest rank (with five calls, p90 to p99 are the slowest). */
function latencyOf(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (share: number) => sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!;
  return {
    mean: values.reduce((sum, value) => sum + value, 0) / values.length,
    p50: median(values),
    p90: rank(0.9),
    p95: rank(0.95),
    p99: rank(0.99),
    max: sorted.at(-1)!,
  };
}

/** The servers that answer a read must answer it the same before their speed means anything: the app, the baseline and, where it answers it, the reference app. */
async function assertSameAnswer(pathAndQuery: string, pick: (body: Record<string, unknown>) => unknown = (body) => body, withReference = false) {
  const servers = withReference ? [app, baseline, reference] : [app, baseline];
  const [fromApp = "", ...others] = await Promise.all(
    servers.map(async (server) => {
      const response = await fetch(`${server.url}${pathAndQuery}`, { headers: { cookie } });
      if (!response.ok) throw new Error(`${pathAndQuery} answered ${response.status} from the ${nameOf(server)}: ${await response.text()}`);
      return JSON.stringify(pick((await response.json()) as Record<string, unknown>));
    }),
  );
  others.forEach((other, index) => {
    if (other !== fromApp)
      throw new Error(
        `the app and the ${nameOf(servers[index + 1]!)} disagree on ${pathAndQuery}:\n app      ${fromApp.slice(0, 400)}\n other    ${other.slice(0, 400)}`,
      );
  });
}

/** What the log and the errors call a server. */
const nameOf = (server: Server) =>
  server === app
    ? "app"
    : server === baseline
      ? "baseline"
      : server === reference
        ? "reference app"
        : server === bareApp
          ? "bare app"
          : "app on the smaller data set";

/**
 * A read the baseline does not answer (ADR 66): the app must answer it, and `check` says what the
 * answer has to hold (a list that is not empty, a total the data set has), so that an error or an
 * empty answer, quick to make, cannot pass for a fast one. Gives the answer's JSON.
 */
async function appAnswer<T = Record<string, unknown>>(pathAndQuery: string, check: (body: T) => boolean): Promise<T> {
  const response = await fetch(`${app.url}${pathAndQuery}`, { headers: { cookie, accept: "application/json" } });
  if (!response.ok) throw new Error(`${pathAndQuery} answered ${response.status} from the app: ${await response.text()}`);
  const body = (await response.json()) as T;
  if (!check(body)) throw new Error(`the app's answer to ${pathAndQuery} is not what the data set holds: ${JSON.stringify(body).slice(0, 400)}`);
  return body;
}

/**
 * The reports page lists what the API lists: the same results, in the same order, as the first
 * page of GET /api/reports with the same limit (a page that failed to render would list none).
 */
async function assertPageListsReports(limit: number) {
  const listed = await appAnswer<{ reports: { id: string }[] }>(`/api/reports?limit=${limit}`, (body) => body.reports.length === limit);
  const response = await fetch(`${app.url}/en/reports?limit=${limit}`, { headers: { cookie, accept: "text/html" } });
  if (!response.ok) throw new Error(`/en/reports answered ${response.status} from the app`);
  // Each report is linked twice, from the table and from the narrow screen's list.
  const links = [...new Set([...(await response.text()).matchAll(/href="\/en\/reports\/([^"/?]+)"/g)].map((match) => match[1]))];
  if (JSON.stringify(links) !== JSON.stringify(listed.reports.map((report) => report.id)))
    throw new Error(
      `the reports page lists other results than the API:\n page ${links.join(", ").slice(0, 400)}\n API  ${listed.reports
        .map((r) => r.id)
        .join(", ")
        .slice(0, 400)}`,
    );
}

/**
 * An answer of a server the app is compared with (the baseline, the reference app, the bare app)
 * that is not a success ends the run: an error page is quick to make, and the reports page's
 * baseline once answered 500 at 266/s while the table called it the limit.
 */
function refuseFailingBaseline(scenario: string, result: LoadResult, server: Server = baseline) {
  if (result.errors > 0) throw new Error(`the ${nameOf(server)} failed ${result.errors} requests of "${scenario}", the first: ${result.firstError}`);
}

/** A latency round at a fixed rate: long enough for LATENCY_SAMPLES requests over all the rounds, and at least its share of `timing.latencyMs`. */
function latencyRoundMs(rate: number): number {
  return Math.max(timing.latencyMs / timing.rounds, Math.ceil((LATENCY_SAMPLES / timing.rounds / rate) * 1000));
}

type Comparison = {
  name: string;
  /** Whether the baseline answers this request (ADR 66); without it the row has the app's figures and absolute targets only. */
  mirrored?: boolean;
  requests: (server: Server) => LoadRequest[];
  /** The growth table's smaller app's own requests, when the full set's would not ask it the same question (signed in by compare). */
  smallerRequests?: LoadRequest[];
  consume?: boolean;
  targets: ScenarioOutcome["targets"];
  note?: string;
  /**
   * Whether the reference app (scripts/bench/reference/) answers this request: it takes a turn in
   * the throughput rounds, and `targets.overReference` judges the app's CPU per request against it.
   */
  reference?: boolean;
  /** Whether the bare app takes a turn in the throughput rounds too: the cost table's “App, bare” (not with --bare, not for consumed requests). */
  bareColumn?: boolean;
  /** The statements the read runs, the caller's first (the cost table, `targets.overReference.perStatementMs`). */
  statements?: number;
  /** The app's memory is sampled during its throughput rounds: the memory line's “under list load”. */
  sampleMemory?: boolean;
};

/**
 * The order the servers take their turns in a round: each round starts one server further on, so
 * that over as many rounds as servers each server goes first once (with two, they alternate).
 */
const turnOrder = <T>(servers: readonly T[], round: number): T[] => servers.map((_, index) => servers[(index + round) % servers.length]!);

async function compare(scenario: Comparison): Promise<void> {
  if (!selected(scenario.name)) return;
  log(`${scenario.name}: warm-up`);
  const servers: Server[] = scenario.mirrored ? [app, baseline] : [app];
  // A read's latency rounds give the growth table's smaller app a turn too (see SmallerApp).
  const smaller = scenario.consume ? undefined : smallerApp;
  const requestLists = new Map(servers.map((server) => [server, scenario.requests(server)]));
  if (smaller) requestLists.set(smaller.server, smaller.signedIn(scenario.smallerRequests ?? requestLists.get(app)!));
  const offsets = new Map(servers.map((server) => [server, 0]));
  // Consumed requests (submits) are handed out in slices so no link is sent twice.
  const slice = (server: Server, count: number) => {
    const list = requestLists.get(server)!;
    if (!scenario.consume) return list;
    const from = offsets.get(server)!;
    offsets.set(server, from + count);
    if (from + count > list.length) throw new Error(`${scenario.name}: not enough prepared requests`);
    return list.slice(from, from + count);
  };
  const budget = (ms: number) => Math.ceil((ms / 1000) * 1500);
  const latencyServers = smaller ? [...servers, smaller.server] : servers;
  // The throughput rounds' servers: those of the latency rounds but the smaller app, and the
  // reference app and the bare app where they take part (the cost table).
  const costServers = [...servers, ...(scenario.reference ? [reference] : []), ...(scenario.bareColumn && bareApp ? [bareApp] : [])];
  for (const server of costServers) if (!requestLists.has(server)) requestLists.set(server, scenario.requests(server));
  // The bare app is asked as the tables before ADR 96 asked the app: without Accept-Encoding.
  const asAsked = (server: Server): Partial<LoadJob> => (server === bareApp ? { acceptEncoding: undefined } : {});
  for (const server of new Set([...latencyServers, ...costServers])) {
    await runLoadProcess(job(server, slice(server, budget(timing.warmupMs)), { durationMs: timing.warmupMs, consume: scenario.consume, ...asAsked(server) }));
  }
  const throughput = new Map<Server, number[]>(costServers.map((server) => [server, []]));
  const cpuPerRequest = new Map<Server, number[]>(costServers.map((server) => [server, []]));
  let errors = 0;
  let firstError: string | undefined;
  for (let round = 0; round < timing.rounds; round += 1) {
    // Alternate which server goes first, so neither always runs on a warmer or cooler machine.
    for (const server of turnOrder(costServers, round)) {
      const cpuBefore = processCpuMs(server.process.pid);
      const sampling = scenario.sampleMemory && server === app ? sampleMemory(app.process.pid!) : undefined;
      const result = await runLoadProcess(job(server, slice(server, budget(timing.roundMs)), { consume: scenario.consume, ...asAsked(server) }));
      const cpuAfter = processCpuMs(server.process.pid);
      if (sampling) memory.underListLoad = Math.max(memory.underListLoad ?? 0, sampling.stop());
      throughput.get(server)!.push(result.rps);
      if (cpuBefore !== undefined && cpuAfter !== undefined && result.completed > 0) cpuPerRequest.get(server)!.push((cpuAfter - cpuBefore) / result.completed);
      if (server === app) {
        errors += result.errors;
        firstError ??= result.firstError;
      } else refuseFailingBaseline(scenario.name, result, server);
    }
  }
  const appRps = median(throughput.get(app)!);
  const baselineRps = scenario.mirrored ? median(throughput.get(baseline)!) : undefined;
  // Latency at a fixed arrival rate half way to the slower server's saturation (the app's own
  // without a baseline), in rounds that take turns, long enough for LATENCY_SAMPLES requests per
  // server in all.
  const rate = Math.max(1, Math.round(Math.min(appRps, baselineRps ?? appRps) * 0.5));
  const roundMs = latencyRoundMs(rate);
  const samples = new Map<Server, number[]>(latencyServers.map((server) => [server, []]));
  const roundP95s = new Map<Server, number[]>(latencyServers.map((server) => [server, []]));
  const probes = new Map<Server, number[]>(latencyServers.map((server) => [server, []]));
  const threads = new Map<Server, (ThreadTimes | undefined)[]>(latencyServers.map((server) => [server, []]));
  // CPU time per request at the fixed rate, beside the throughput rounds' at saturation.
  const cpuAtRate = new Map<Server, number[]>(latencyServers.map((server) => [server, []]));
  let smallerErrors = 0;
  for (let round = 0; round < timing.rounds; round += 1) {
    for (const server of turnOrder(latencyServers, round)) {
      const count = sentAtRate(rate, roundMs) + 50;
      const { result, coreProbeMs } = await withCoreSpeed(async () => {
        const before = threadTimes(server.process.pid);
        const cpuBefore = processCpuMs(server.process.pid);
        const answered = await runLoadProcess(
          job(server, slice(server, count), { mode: "rate", rate, durationMs: roundMs, connections: 64, consume: scenario.consume, keepSamples: true }),
        );
        const cpuAfter = processCpuMs(server.process.pid);
        threads.get(server)!.push(threadTimesBetween(before, threadTimes(server.process.pid)));
        if (cpuBefore !== undefined && cpuAfter !== undefined && answered.answered > 0) cpuAtRate.get(server)!.push((cpuAfter - cpuBefore) / answered.answered);
        return answered;
      });
      probes.get(server)!.push(coreProbeMs);
      samples.get(server)!.push(...(result.samplesMs ?? []));
      roundP95s.get(server)!.push(result.latencyMs.p95);
      if (server === app) {
        errors += result.errors;
        firstError ??= result.firstError;
      } else if (server === baseline) refuseFailingBaseline(scenario.name, result);
      else smallerErrors += result.errors;
    }
  }
  const medianOf = (rounds: Map<Server, number[]>, server: Server | undefined) => {
    const values = server && rounds.get(server);
    return values && values.length > 0 ? median(values) : undefined;
  };
  const cpuOf = (server: Server | undefined) => medianOf(cpuPerRequest, server);
  const cpu =
    cpuOf(app) === undefined
      ? undefined
      : {
          app: cpuOf(app)!,
          appAtRate: medianOf(cpuAtRate, app),
          baseline: cpuOf(servers[1]),
          baselineAtRate: medianOf(cpuAtRate, servers[1]),
          reference: cpuOf(scenario.reference ? reference : undefined),
          bare: cpuOf(bareApp),
        };
  const latency = new Map(
    latencyServers.map((server) => [
      server,
      { ...latencyOf(samples.get(server)!), samples: samples.get(server)!.length, p95Spread: spreadOf(roundP95s.get(server)!) },
    ]),
  );
  const outcome: ScenarioOutcome = {
    name: scenario.name,
    ...(cpu ? { cpu } : {}),
    ...(scenario.statements !== undefined ? { statements: scenario.statements } : {}),
    app: { rps: appRps, rate, latency: latency.get(app)! },
    ...(baselineRps !== undefined ? { baseline: { rps: baselineRps, rate, latency: latency.get(baseline)! } } : {}),
    errors,
    targets: scenario.targets,
    note: scenario.note ?? (firstError ? `first error: ${firstError}` : undefined),
    coreProbeMs: { app: probes.get(app)!, baseline: probes.get(baseline), ...(smaller ? { smaller: probes.get(smaller.server)! } : {}) },
    threadTimes: { app: threads.get(app)!, baseline: threads.get(baseline), ...(smaller ? { smaller: threads.get(smaller.server)! } : {}) },
  };
  const versus = (of: (server: Server) => string) => `${of(app)}${outcome.baseline ? ` vs ${of(baseline)}` : ""}`;
  log(
    `${scenario.name}: ${versus((server) => `${server === app ? "app" : "baseline"} ${median(throughput.get(server)!).toFixed(0)}/s`)}; p95 ${versus((server) => latency.get(server)!.p95.toFixed(1))} ms at ${rate}/s${smaller ? ` (${latency.get(smaller.server)!.p95.toFixed(1)} on the app at ${growthRows.toLocaleString("en")})` : ""}; core probe ${versus((server) => probeList(probes.get(server)!))} ms; V8's helper threads ${versus((server) => helperList(threads.get(server)!))} ms`,
  );
  outcomes.push(outcome);
  if (smaller) {
    const side = (server: Server) => ({
      p95: latency.get(server)!.p95,
      spread: latency.get(server)!.p95Spread,
      coreProbeMs: probes.get(server)!,
      cpuMsPerRequest: medianOf(cpuAtRate, server),
    });
    growthReads.push({ name: scenario.name, rate, smaller: side(smaller.server), full: side(app), errors: errors + smallerErrors });
  }
}

/**
 * The growth table: every read's app p95 on the smaller data set (`growthRows` submissions,
 * seeded the same way) against the full one's, measured the same way at the same moments. The app
 * on the smaller set is a third server in each read's latency rounds: at the read's rate, with as
 * many requests, each round starting one server further on; the full set's figures are the main
 * table's. It had a pass of its own after the main table until 2026-11-28, the two apps taking
 * turns there, which measured the full set's app again: a fifth of the run's time (7.5 of 27.7
 * minutes on SQLite). A third turn had been tried once before, with V8's memory reducer still on:
 * the apps, idle for two rounds of three, had their heaps collected during another server's round
 * (the reports list's p95 went from 12 ms to 115–365 ms); `npm start` has given
 * `--no-memory-reducer` since (ADR 34), and so do the bench's servers.
 */
type SmallerApp = {
  server: Server;
  /** The reads of the full set's app, signed in to the smaller one instead (their paths name no row of either set). */
  signedIn: (reads: LoadRequest[]) => LoadRequest[];
  world: BenchWorld;
};

async function startSmallerApp(world: BenchWorld): Promise<SmallerApp> {
  const server = await startApp(databaseUrlFor(growthRows));
  const { cookie: smallerCookie } = await signIn(server, world.adminEmail);
  return {
    server,
    world,
    signedIn: (reads) => reads.map((read) => ({ ...read, headers: { ...read.headers, cookie: smallerCookie } })),
  };
}

/** Samples a process's anonymous resident memory every 50 ms until stopped; `stop` answers the most it saw. */
function sampleMemory(pid: number): { stop: () => number } {
  let most = residentMemoryMiB(pid);
  const timer = setInterval(() => {
    most = Math.max(most, residentMemoryMiB(pid));
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(most, residentMemoryMiB(pid));
    },
  };
}

/** The core speed probe's timings for the log, in milliseconds. */
const probeList = (probesMs: number[]) => probesMs.map((ms) => ms.toFixed(1)).join(", ");
/** What V8's helper threads spent in each round, for the log, in milliseconds. */
const helperList = (rounds: (ThreadTimes | undefined)[]) => rounds.map((round) => (round ? String(round.helpersMs) : "?")).join(", ");

/**
 * Runs one fixed-rate round between two timings of the core speed probe (scripts/bench/core-speed.ts)
 * on the servers' core, and gives the round's result with the two timings' mean.
 */
async function withCoreSpeed<T>(round: () => Promise<T>): Promise<{ result: T; coreProbeMs: number }> {
  const before = await coreSpeed.measure();
  const result = await round();
  const after = await coreSpeed.measure();
  fastestCoreProbeMs = Math.min(fastestCoreProbeMs, before, after);
  return { result, coreProbeMs: (before + after) / 2 };
}

/** The app's measured throughput on the reports list, which the mixed and export scenarios load at a share of. */
function reportsListThroughput(): number | undefined {
  return outcomes.find((outcome) => outcome.name.startsWith("GET /api/reports (page 1"))?.app.rps;
}

async function runScenarios() {
  // Each check runs only with its scenario (--only): another one's may need data this run does not make.
  // The rows the baseline answers (ADR 66) are checked equal on both servers; the others on the app
  // alone, against what the data set holds.
  const total = (body: { total: number }) => body.total;

  // The cheapest signed-in request: the session check and nothing else. What the app spends on it
  // (HTTP, Express, React Router, the session read through Prisma) is spent on every request, so it
  // bounds every other row's ratio: the reads whose baseline costs less than twice this cannot
  // reach 50 %.
  if (selected("GET /api/auth/session")) await assertSameAnswer("/api/auth/session", undefined, true);
  await compare({
    name: "GET /api/auth/session (the session check alone: every request's floor)",
    mirrored: true,
    reference: true,
    bareColumn: true,
    statements: 1,
    requests: () => [get("/api/auth/session")],
    // The stack's own floor (the reference app) is the limit: what the app adds to it is the
    // session's rules and the app's own layers (ADR 98).
    targets: { zeroErrors: true, overReference: { factor: 1.2 } },
  });

  // The most read list, with the whole answer (rows, names, dates, total) equal on both servers.
  if (selected("GET /api/reports (page 1")) await assertSameAnswer("/api/reports?page=1&limit=20", undefined, true);
  await compare({
    name: "GET /api/reports (page 1, with total)",
    mirrored: true,
    reference: true,
    bareColumn: true,
    // The caller's, the page's rows, the total.
    statements: 3,
    sampleMemory: true,
    requests: () => [get("/api/reports?page=1&limit=20")],
    // The targets (ADR 26 had asked 70 %; ADR 98 adds the overhead over the reference app).
    targets: { throughputRatio: 0.5, p95Ratio: 2, overReference: { perStatementMs: 0.1 } },
  });

  // Page 500 of 20: the 9,981st to 10,000th newest, with the total; the same request to the baseline.
  if (selected("GET /api/reports?page=500")) await assertSameAnswer("/api/reports?page=500&limit=20", undefined, true);
  await compare({
    name: "GET /api/reports?page=500 (deep page)",
    mirrored: true,
    reference: true,
    bareColumn: true,
    statements: 3,
    requests: () => [get("/api/reports?page=500&limit=20")],
    targets: { p95Ms: 50, overReference: { perStatementMs: 0.1 } },
  });

  // Another system kept in step (docs/api-contract.md §23, ADR 52): the results changed since its last read,
  // a moment after which 1,000 of the big organization's changed. Each data set has its own moment.
  if (selected("GET /api/reports?updatedSince=")) {
    // The growth table's smaller data set: the same share of its results changed.
    const changedSince = async (url: string, of: BenchWorld, count = CHANGED_RESULTS) => {
      const since = await changedResultsSince(url, of, count);
      if (!since) throw new Error(`the data set at ${url} has fewer than ${count} results in its big organization`);
      return `updatedSince=${encodeURIComponent(since.toISOString())}`;
    };
    const query = await changedSince(databaseUrl, world);
    // The results changed since then, which the moment was chosen for.
    const changed = total(await appAnswer<{ total: number }>(`/api/reports?${query}`, (body) => body.total >= CHANGED_RESULTS));
    await compare({
      name: `GET /api/reports?updatedSince= (${changed.toLocaleString("en")} changed of ${rows.toLocaleString("en")})`,
      requests: () => [get(`/api/reports?${query}`)],
      ...(smallerApp
        ? {
            smallerRequests: [
              get(
                `/api/reports?${await changedSince(databaseUrlFor(growthRows), smallerApp.world, Math.max(1, Math.round((CHANGED_RESULTS * growthRows) / rows)))}`,
              ),
            ],
          }
        : {}),
      targets: { p95Ms: 50 },
    });
  }

  const found = (body: { total: number; reports: unknown[] }) => body.total > 0 && body.reports.length > 0;
  const selective = encodeURIComponent(world.search.selective);
  if (selected("GET /api/reports?search= selective")) {
    const selectiveTotal = total(await appAnswer(`/api/reports?search=${selective}`, found));
    await compare({
      name: `GET /api/reports?search= selective (${selectiveTotal} matches)`,
      requests: () => [get(`/api/reports?search=${selective}`)],
      targets: { p95Ms: 20 },
    });
  }
  if (selected("GET /api/reports?search= common")) {
    const commonTotal = total(await appAnswer(`/api/reports?search=${world.search.common}`, found));
    await compare({
      name: `GET /api/reports?search= common fragment "${world.search.common}" (${commonTotal.toLocaleString("en")} matches)`,
      requests: () => [get(`/api/reports?search=${world.search.common}`)],
      bareColumn: true,
      targets: { p95Ms: 60 },
    });
  }

  // The other lists: p95 under 50 ms at half the app's throughput, as the deep page and the incremental read.
  const listed = (key: string) => (body: Record<string, unknown>) => Number(body.total) > 0 && (body[key] as unknown[]).length > 0;
  if (selected("GET /api/forms?search=")) await appAnswer("/api/forms?search=stress", listed("forms"));
  await compare({
    name: "GET /api/forms?search=",
    requests: () => [get("/api/forms?search=stress")],
    targets: { p95Ms: 50 },
  });
  if (selected("GET /api/forms (no search)")) await appAnswer("/api/forms", listed("forms"));
  await compare({
    name: "GET /api/forms (no search)",
    requests: () => [get("/api/forms")],
    targets: { p95Ms: 50 },
  });
  if (selected("GET /api/students?search=")) await appAnswer("/api/students?search=garcia", listed("students"));
  await compare({
    name: "GET /api/students?search=",
    requests: () => [get("/api/students?search=garcia")],
    targets: { p95Ms: 50 },
  });

  if (selected("Reports page")) await assertPageListsReports(50);
  await compare({
    name: "Reports page, server-rendered, 50 rows",
    requests: () => [{ method: "GET", path: "/en/reports?limit=50", headers: { cookie, accept: "text/html" } }],
    targets: { p95Ms: 25 },
  });

  // The form summary, one call at a time, on both data sets for the growth table.
  await formSummaryScenario();
  // The writes come after every read, so that the reads of both data sets (the growth table's
  // smaller one has no writes) are measured on rows as they were seeded: on PostgreSQL the
  // results the submits complete sit on heap pages that only a vacuum marks all-visible again,
  // and until then the deep page's index-only scan fetched them from the heap (6,659 heap fetches
  // of its 10,000 entries: 20.9 ms against 6.3 once vacuumed, warm;
  // docs/decisions/0038-submission-autovacuum.md).
  const answers = JSON.stringify({ answers: world.submitForm.questions.map((q) => ({ questionId: q.id, optionIds: [q.optionIds[1]!] })) });
  const submitRequests = (tokens: string[]) =>
    tokens.map((token) => ({ method: "POST", path: `/api/test-link/${token}/submit`, headers: { "content-type": "application/json" }, body: answers }));
  if (selected("POST /api/test-link/:token/submit")) await assertSameSubmit(submitRequests([appTokens.shift()!, baselineTokens.shift()!]));
  await compare({
    name: "POST /api/test-link/:token/submit (20 questions)",
    mirrored: true,
    requests: (server) => submitRequests(server === app ? appTokens : baselineTokens),
    consume: true,
    targets: { throughputRatio: 0.6, zeroErrors: true },
  });
  await mixedWorkloadScenario(submitRequests);
  await exportScenarios();
  await csvExportScenario();
  await bulkAssignmentScenario();
  await rosterImportScenarios();
}

/**
 * A submit to each server, of the same answers to the same form: both must answer alike and store
 * the same result (scores, band, captured title, snapshot and answers; the respondent and the
 * times are each link's own), as the app reads it back.
 */
async function assertSameSubmit([toApp, toBaseline]: LoadRequest[]) {
  const [fromApp, fromBaseline] = await Promise.all(
    [
      [app, toApp!],
      [baseline, toBaseline!],
    ].map(async ([server, request]) => {
      const answer = await timedRequest(server as Server, request as Sent);
      if (answer.status !== 200)
        throw new Error(`the submit answered ${answer.status} from the ${server === app ? "app" : "baseline"}: ${answer.body.slice(0, 300)}`);
      const { submissionId, ...rest } = JSON.parse(answer.body) as { submissionId: string; completedAt: string };
      return { answer: { ...rest, completedAt: typeof rest.completedAt }, stored: await storedResult(databaseUrl, submissionId) };
    }),
  );
  const [appSide, baselineSide] = [JSON.stringify(fromApp), JSON.stringify(fromBaseline)];
  if (appSide !== baselineSide)
    throw new Error(`app and baseline disagree on a submit:\n app      ${appSide.slice(0, 600)}\n baseline ${baselineSide.slice(0, 600)}`);
}

/**
 * The reports list while pupils submit: the list at a fixed rate (a quarter of its
 * measured throughput) alone and with MIXED_SUBMITS_PER_SECOND submits to the same organization,
 * each of which changes the results the list's total counts. Alone and mixed alternate for the
 * app, in rounds long enough for LATENCY_SAMPLES list requests each; the table compares the app's
 * list p95 mixed with its p95 alone (target 2×). The baseline runs the same mix once, for the note.
 */
async function mixedWorkloadScenario(submitRequests: (tokens: string[]) => LoadRequest[]) {
  const name = "GET /api/reports p95 while submits change its results";
  if (!selected(name)) return;
  const listRate = Math.max(1, Math.round((reportsListThroughput() ?? 200) / 4));
  const roundMs = latencyRoundMs(listRate);
  const submitsPerRound = sentAtRate(MIXED_SUBMITS_PER_SECOND, roundMs) + 10;
  const tokensFor = async () => createPendingAssignments(databaseUrl, world, submitsPerRound * timing.rounds);
  const [appLinks, baselineLinks] = [await tokensFor(), await tokensFor()];
  const list = [get("/api/reports?page=1&limit=20")];
  log(`${name}: list at ${listRate}/s, ${MIXED_SUBMITS_PER_SECOND} submits/s`);

  const listJob = (server: Server) => job(server, list, { mode: "rate", rate: listRate, durationMs: roundMs, connections: 64, keepSamples: true });
  const mixedRound = async (server: Server, links: string[], round: number) => {
    const submits = submitRequests(links.slice(round * submitsPerRound, (round + 1) * submitsPerRound));
    const [listed, submitted] = await Promise.all([
      runLoadProcess(listJob(server)),
      runLoadProcess(job(server, submits, { mode: "rate", rate: MIXED_SUBMITS_PER_SECOND, durationMs: roundMs, connections: 16, consume: true })),
    ]);
    return { listed, submitted };
  };
  const alone: number[] = [];
  const mixed: number[] = [];
  const aloneP95s: number[] = [];
  const mixedP95s: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let submitted = 0;
  for (let round = 0; round < timing.rounds; round += 1) {
    const order = round % 2 === 0 ? ["alone", "mixed"] : ["mixed", "alone"];
    for (const kind of order) {
      if (kind === "alone") {
        const result = await runLoadProcess(listJob(app));
        alone.push(...(result.samplesMs ?? []));
        aloneP95s.push(result.latencyMs.p95);
        errors += result.errors;
        firstError ??= result.firstError;
      } else {
        const result = await mixedRound(app, appLinks, round);
        mixed.push(...(result.listed.samplesMs ?? []));
        mixedP95s.push(result.listed.latencyMs.p95);
        errors += result.listed.errors + result.submitted.errors;
        firstError ??= result.listed.firstError ?? result.submitted.firstError;
        submitted += result.submitted.completed - result.submitted.errors;
      }
    }
  }
  const baselineAlone = await runLoadProcess(listJob(baseline));
  const baselineMixed = await mixedRound(baseline, baselineLinks, 0);
  refuseFailingBaseline(name, baselineMixed.submitted);
  refuseFailingBaseline(name, baselineMixed.listed);

  const latencyOfSamples = (samples: number[], p95s: number[]) => ({ ...latencyOf(samples), samples: samples.length, p95Spread: spreadOf(p95s) });
  outcomes.push({
    name: `GET /api/reports p95 while ${MIXED_SUBMITS_PER_SECOND} submits/s change its results (list at ${listRate}/s)`,
    app: { rps: listRate, rate: listRate, latency: latencyOfSamples(mixed, mixedP95s) },
    baseline: { rps: listRate, rate: listRate, latency: latencyOfSamples(alone, aloneP95s) },
    baselineLabel: "app, list alone",
    errors,
    targets: { p95Ratio: 2, zeroErrors: true },
    note:
      `${submitted.toLocaleString("en")} submits completed during the app's mixed rounds; ` +
      `baseline (one round each): list p95 ${baselineAlone.latencyMs.p95.toFixed(1)} ms alone, ${baselineMixed.listed.latencyMs.p95.toFixed(1)} ms mixed` +
      (firstError ? `; first error: ${firstError}` : ""),
  });
}

async function exportScenarios() {
  if (!selected("POST /api/reports/export")) return;
  const exportRequests = world.exportSubmissionIds.map((submissionId) => ({
    method: "POST",
    path: "/api/reports/export",
    headers: { cookie, "content-type": "application/json", "x-csrf-token": csrfToken },
    body: JSON.stringify({ submissionId }),
  }));
  log("export: warm-up and latency");
  await runLoadProcess(job(app, exportRequests, { durationMs: timing.warmupMs, connections: 2 }));
  const exportLatency = await runLoadProcess(
    job(app, exportRequests, { mode: "rate", rate: EXPORT_RATE, durationMs: (EXPORT_LATENCY_SAMPLES / EXPORT_RATE) * 1000, connections: 16 }),
  );

  const memoryExports = smoke ? 10 : 1000;
  log(`export: memory over ${memoryExports.toLocaleString("en")} exports`);
  const pid = app.process.pid!;
  const before = residentMemoryMiB(pid);
  const thousand = Array.from({ length: memoryExports }, (_, i) => exportRequests[i % exportRequests.length]!);
  const memoryRun = await runLoadProcess(job(app, thousand, { consume: true, durationMs: 600_000, connections: 2 }));
  const after = residentMemoryMiB(pid);
  const secondThousand = await runLoadProcess(job(app, thousand, { consume: true, durationMs: 600_000, connections: 2 }));
  const afterSecond = residentMemoryMiB(pid);

  log("export: reports list p99 alone and while 5 exports per second run");
  const list = [get("/api/reports?page=1&limit=20")];
  // Half the measured list throughput; 200/s (about that on these machines) when the list was not measured (--only).
  const listRate = Math.max(1, Math.round((reportsListThroughput() ?? 400) * 0.5));
  const alone = await runLoadProcess(job(app, list, { mode: "rate", rate: listRate, durationMs: timing.latencyMs, connections: 64 }));
  const [withExports] = await Promise.all([
    runLoadProcess(job(app, list, { mode: "rate", rate: listRate, durationMs: timing.latencyMs, connections: 64 })),
    runLoadProcess(job(app, exportRequests, { mode: "rate", rate: 5, durationMs: timing.latencyMs, connections: 8 })),
  ]);

  outcomes.push({
    name: "POST /api/reports/export (30 questions)",
    app: { rps: memoryRun.rps, rate: EXPORT_RATE, latency: { ...exportLatency.latencyMs, samples: exportLatency.completed } },
    errors: exportLatency.errors + memoryRun.errors + secondThousand.errors,
    targets: { p95Ms: 30 },
    note: `anonymous resident memory ${before.toFixed(0)} MiB before, ${after.toFixed(0)} MiB after ${memoryExports.toLocaleString("en")} exports, ${afterSecond.toFixed(0)} MiB after ${(2 * memoryExports).toLocaleString("en")}`,
    memory: { before, after, afterSecond },
  });
  outcomes.push({
    name: `GET /api/reports p99 while 5 exports/s run (list at ${listRate}/s)`,
    app: { rps: withExports.rps, rate: listRate, latency: withExports.latencyMs },
    baseline: { rps: alone.rps, rate: listRate, latency: alone.latencyMs },
    baselineLabel: "list alone",
    errors: withExports.errors,
    targets: { p99Ratio: 1.5 },
  });
}

type Download = { status: number; firstByteMs: number; totalMs: number; bytes: number; sha256: string; idleMiB: number; peakMiB: number; body?: Buffer };

/**
 * One download, read as it arrives (as fast as the bench can take it): the time to its first body
 * byte and to its last, its size and digest, and the server's anonymous resident memory, sampled
 * every 10 ms while it runs (the peak) and just before (idle).
 */
async function timedDownload(server: Server, pathAndQuery: string, keep = false): Promise<Download> {
  const pid = server.process.pid!;
  const idleMiB = residentMemoryMiB(pid);
  let peakMiB = idleMiB;
  const sample = () => {
    peakMiB = Math.max(peakMiB, residentMemoryMiB(pid));
  };
  const sampler = setInterval(sample, 10);
  const started = performance.now();
  try {
    const response = await fetch(`${server.url}${pathAndQuery}`, { headers: { cookie } });
    const hash = createHash("sha256");
    const chunks: Buffer[] = [];
    let firstByteMs = Number.NaN;
    let bytes = 0;
    for await (const chunk of response.body ?? []) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.length;
      hash.update(chunk);
      if (keep) chunks.push(Buffer.from(chunk));
    }
    const totalMs = performance.now() - started;
    sample();
    return {
      status: response.status,
      firstByteMs,
      totalMs,
      bytes,
      sha256: hash.digest("hex"),
      idleMiB,
      peakMiB,
      ...(keep ? { body: Buffer.concat(chunks) } : {}),
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * GET /api/reports/export?format=csv of every result of the big organization (250,000 at
 * 1,000,000 rows): time to the first byte and to the last, and the app's resident memory during
 * the export above its level just before. A check call first, which must hold a record for each
 * result of the list; then the timed downloads, one at a time, each the same bytes as the check's.
 */
async function csvExportScenario() {
  const name = "GET /api/reports/export?format=csv";
  if (!selected(name)) return;
  const target = "/api/reports/export?format=csv";
  const totalResponse = await fetch(`${app.url}/api/reports?page=1&limit=1`, { headers: { cookie, accept: "application/json" } });
  const rowCount = ((await totalResponse.json()) as { total: number }).total;
  log(`${name}: check (${rowCount.toLocaleString("en")} rows)`);
  const fromApp = await timedDownload(app, target, true);
  if (fromApp.status !== 200) throw new Error(`${name}: the app answered ${fromApp.status}: ${fromApp.body?.toString("utf8").slice(0, 300)}`);
  // A record per result of the list, each with as many fields as the header (the parser refuses any other).
  const records = (parse(fromApp.body!, { bom: true }) as unknown[]).length - 1;
  if (records !== rowCount) throw new Error(`${name}: ${records} rows exported, ${rowCount} in the list`);
  const calls: Download[] = [fromApp];
  const repetitions = smoke ? 1 : quick ? 2 : 3;
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    const answer = await timedDownload(app, target);
    if (answer.sha256 !== fromApp.sha256) throw new Error(`${name}: a later download from the app differs from the first`);
    calls.push(answer);
  }
  const timed = calls.slice(1);
  const latency = latencyOf(timed.map((call) => call.totalMs));
  const firstBytes = timed.map((call) => call.firstByteMs);
  // Peak over every call, the check included, above the level before the first.
  const stream = {
    firstByteMedianMs: median(firstBytes),
    firstByteMaxMs: Math.max(...firstBytes),
    idleMiB: calls[0]!.idleMiB,
    peakMiB: Math.max(...calls.map((call) => call.peakMiB)),
  };
  const perCall = calls.map((call) => `${call.idleMiB.toFixed(0)} → ${call.peakMiB.toFixed(0)}`).join(", ");
  const outcome: ScenarioOutcome = {
    name: `${name} (all ${rowCount.toLocaleString("en")} results of the big organization)`,
    app: { rps: 1000 / latency.p50, rate: 0, latency },
    errors: 0,
    targets: { firstByteMs: 1000, memoryDeltaMiB: 64 },
    repetitions,
    download: { app: stream },
    note: `${(fromApp.bytes / 2 ** 20).toFixed(1)} MiB, the same bytes every time; first byte ${stream.firstByteMedianMs.toFixed(0)} ms median (${stream.firstByteMaxMs.toFixed(0)} max), all in ${(latency.p50 / 1000).toFixed(2)} s median, ${((rowCount / latency.p50) * 1000).toLocaleString("en", { maximumFractionDigits: 0 })} rows/s; anonymous resident memory ${stream.idleMiB.toFixed(0)} MiB before, ${stream.peakMiB.toFixed(0)} MiB at most during (each call, before → peak: ${perCall})`,
  };
  log(`${outcome.name}: ${outcome.note}`);
  outcomes.push(outcome);
  memory.afterExports = { exports: calls.length, mib: residentMemoryMiB(app.process.pid!) };
}

/** GET /api/forms/:id/summary over the summary organization's form (rows / 4 completed results), as its administrator. */
async function formSummaryScenario() {
  const name = "GET /api/forms/:id/summary";
  if (!selected(name)) return;
  const summary = world.summary!;
  const session = await signIn(app, summary.adminEmail);
  const repetitions = smoke ? 2 : quick ? 20 : 50;
  const summaryRequest = (formId: string, sessionCookie: string): Sent => ({
    method: "GET",
    path: `/api/forms/${formId}/summary`,
    headers: { cookie: sessionCookie, accept: "application/json" },
  });
  // The growth table's row: the app on the smaller set takes a third turn in the same calls.
  const smallerSummary = smallerApp?.world.summary;
  const smallerSession = smallerApp && smallerSummary ? await signIn(smallerApp.server, smallerSummary.adminEmail) : undefined;
  const growth =
    smallerApp && smallerSummary && smallerSession
      ? { name, server: smallerApp.server, request: summaryRequest(smallerSummary.formId, smallerSession.cookie) }
      : undefined;
  await singleRequests({
    name: `${name} (${summary.completed.toLocaleString("en")} completed results, ${summary.open.toLocaleString("en")} open links)`,
    status: 200,
    prepare: () => summaryRequest(summary.formId, session.cookie),
    // Every result and link of the form counted.
    pick: (body) => ({ completed: body.completed, assigned: body.assigned }),
    expected: { completed: summary.completed, assigned: summary.completed + summary.open },
    targets: { p95Ms: 300 },
    repetitions,
    growth,
  });
}

type Sent = { method: string; path: string; headers: Record<string, string>; body?: string };
type Timed = { ms: number; status: number; body: string };

/** One request, timed from sending it to the last byte of the answer. */
async function timedRequest(server: Server, request: Sent): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(`${server.url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  const body = await response.text();
  return { ms: performance.now() - started, status: response.status, body };
}

/**
 * A request timed on its own (the form summary, bulk assignment, roster import), which the
 * baseline does not answer (ADR 66): a warm-up call, then `repetitions` calls one at a time. Each
 * answer must have the status and, picked by `pick`, the `expected` content: a warm-up call that
 * does not stops the run, a later one counts as an error and is kept in the note (the run goes
 * on). `prepare` makes the n-th request (a call must not depend on an earlier one's writes),
 * `after` tidies up after each call, untimed. A read can give the growth table's smaller app a
 * turn in every call (`growth`), as the fixed-rate reads do in their rounds.
 */
async function singleRequests(scenario: {
  name: string;
  status: number;
  prepare: (index: number) => Sent;
  pick: (body: Record<string, unknown>) => unknown;
  expected: unknown;
  after?: () => Promise<void>;
  targets: ScenarioOutcome["targets"];
  /** Timed calls (REPETITIONS unless said). */
  repetitions?: number;
  /** The growth table's row: its name, the app on the smaller data set, and the request it answers. */
  growth?: { name: string; server: Server; request: Sent } | undefined;
}): Promise<void> {
  const growth = scenario.growth;
  const turns = growth ? [app, growth.server] : [app];
  const repetitions = scenario.repetitions ?? REPETITIONS;
  const expected = JSON.stringify(scenario.expected);
  let errors = 0;
  let firstError: string | undefined;
  let growthErrors = 0;
  const call = async (server: Server, index: number) => {
    if (server === growth?.server) {
      const answer = await timedRequest(server, growth.request);
      if (answer.status !== scenario.status) growthErrors += 1;
      return answer;
    }
    const request = scenario.prepare(index);
    const logged = server.output().length;
    const answer = await timedRequest(server, request);
    await scenario.after?.();
    const picked = answer.status === scenario.status ? JSON.stringify(scenario.pick(JSON.parse(answer.body) as Record<string, unknown>)) : undefined;
    if (picked === expected) return answer;
    // The server's own account of the failure (a 500 says only that it was logged).
    const reason = server
      .output()
      .slice(logged)
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("at "))
      .slice(0, 4)
      .join(" ")
      .slice(0, 400);
    const error =
      picked === undefined
        ? `answered ${answer.status} (expected ${scenario.status}) after ${answer.ms.toFixed(0)} ms: ${reason || answer.body.slice(0, 300)}`
        : `answered ${picked.slice(0, 300)} (expected ${expected.slice(0, 300)})`;
    if (index === 0) throw new Error(`${scenario.name}: the app's first call ${error}`);
    errors += 1;
    firstError ??= `the app ${error}`;
    return answer;
  };
  log(`${scenario.name}: warm-up and check`);
  for (const server of turns) await call(server, 0);
  const times = new Map<Server, number[]>(turns.map((server) => [server, []]));
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    // Each call starts one server further on, as the load rounds do.
    for (const server of turnOrder(turns, repetition)) times.get(server)!.push((await call(server, repetition)).ms);
  }
  const latency = latencyOf(times.get(app)!);
  const outcome: ScenarioOutcome = {
    name: scenario.name,
    app: { rps: 1000 / latency.p50, rate: 0, latency },
    errors,
    targets: { ...scenario.targets, zeroErrors: true },
    repetitions,
    note: `${firstError ? `${errors} of ${repetitions + 1} calls failed, the first: ${firstError}; ` : `each answered ${expected}; `}app ${times
      .get(app)!
      .map((ms) => ms.toFixed(0))
      .join(", ")} ms`,
  };
  log(
    `${scenario.name}: app median ${outcome.app.latency.p50.toFixed(0)} ms, max ${outcome.app.latency.max.toFixed(0)} ms${errors ? `; ${errors} errors` : ""}`,
  );
  outcomes.push(outcome);
  if (growth) {
    const atSmaller = latencyOf(times.get(growth.server)!);
    log(
      `growth: ${growth.name}: p95 ${atSmaller.p95.toFixed(1)} ms at ${growthRows.toLocaleString("en")}, ${outcome.app.latency.p95.toFixed(1)} ms at ${rows.toLocaleString("en")}`,
    );
    growthReads.push({
      name: growth.name,
      repetitions,
      smaller: { p95: atSmaller.p95 },
      full: { p95: outcome.app.latency.p95 },
      errors: errors + growthErrors,
    });
  }
}

function write(target: string, contentType: string, body: string): Sent {
  return { method: "POST", path: target, headers: { cookie, "content-type": contentType, "x-csrf-token": csrfToken, accept: "application/json" }, body };
}

async function bulkAssignmentScenario() {
  const name = "POST /api/submissions/bulk (1,000 respondents)";
  if (!selected(name)) return;
  // A form per call: a respondent with a link to the form still waiting would be skipped.
  const calls = 1 + REPETITIONS;
  const formIds = await createBulkAssignmentForms(databaseUrl, world, calls);
  const studentIds = world.studentIds.slice(0, 1000);
  try {
    await singleRequests({
      name,
      status: 201,
      prepare: (index) => write("/api/submissions/bulk", "application/json", JSON.stringify({ formId: formIds[index], studentIds })),
      // A link each, none skipped, every one pending with its token, to exactly the people named.
      pick: (body) => {
        const created = body.created as { student: { id: string } | null; status: string; token: string }[];
        return {
          created: created.length,
          skipped: (body.skipped as unknown[]).length,
          pending: created.every((row) => row.status === "PENDING" && row.token.length >= 43),
          students:
            created
              .map((row) => row.student?.id)
              .sort()
              .join() === [...studentIds].sort().join(),
        };
      },
      expected: { created: studentIds.length, skipped: 0, pending: true, students: true },
      targets: { maxMs: 2000 },
    });
  } finally {
    await removeBulkAssignmentForms(databaseUrl, world);
  }
}

async function rosterImportScenarios() {
  const dryRunName = "POST /api/students/import?dryRun=true (5,000 rows, semicolons, BOM)";
  const importName = "POST /api/students/import (5,000 rows)";
  if (!selected(dryRunName) && !selected(importName)) return;
  const rows = 5000;
  // Addresses unique to each file (and to this run), so no row is refused as already taken.
  const run = Date.now().toString(36);
  const tag = (index: number, kind: string) => `${run}${kind}${index}`;
  const csv = "text/csv; charset=utf-8";
  await removeRosterImports(databaseUrl, world);
  try {
    // A file with one wrong field in each of a few rows, one address the organization has: the app must find each.
    const someone = await fetch(`${app.url}/api/students?limit=1`, { headers: { cookie, accept: "application/json" } });
    const taken = ((await someone.json()) as { students: { email: string }[] }).students[0]!.email;
    const faulty = [
      "name,email,age,grade,group",
      "Ana Lima,ana.lima@roster.bench.test,11,5B,",
      ",nameless@roster.bench.test,11,5B,",
      "Ana Lima Duplicate,ana.lima@roster.bench.test,11,5B,",
      "Bea Ruiz,not-an-address,12,6A,",
      "Caio Dias,caio.dias@roster.bench.test,200,6A,",
      `Taken Address,${taken},12,6A,`,
    ].join("\n");
    const errors = (body: Record<string, unknown>) => ({
      rows: body.rows,
      valid: body.valid,
      errors: (body.errors as { row: number; field: string }[]).map((e) => `${e.row}:${e.field}`),
    });
    await assertWrite(write("/api/students/import?dryRun=true", csv, faulty), errors, {
      rows: 6,
      valid: 1,
      errors: ["3:name", "4:email", "5:email", "6:age", "7:email"],
    });

    const preview = (body: Record<string, unknown>) => ({ rows: body.rows, valid: body.valid, errors: (body.errors as unknown[]).length });
    if (selected(dryRunName))
      await singleRequests({
        name: dryRunName,
        status: 200,
        prepare: (index) => write("/api/students/import?dryRun=true", csv, rosterCsv(rows, tag(index, "p"), { semicolon: true })),
        pick: preview,
        expected: { rows, valid: rows, errors: 0 },
        targets: { maxMs: 2000 },
      });
    if (selected(importName))
      await singleRequests({
        name: importName,
        status: 201,
        prepare: (index) => write("/api/students/import", csv, rosterCsv(rows, tag(index, "i"))),
        // Its 5,000 students, in groups of 25 (scripts/bench/dataset.ts rosterCsv).
        pick: (body) => ({ created: body.created, groupsCreated: body.groupsCreated }),
        expected: { created: rows, groupsCreated: rows / 25 },
        // Every call imports into the same organization as the first one: the same groups to create, the same rows to check against.
        after: () => removeRosterImports(databaseUrl, world),
        targets: { maxMs: 2000 },
      });
  } finally {
    await removeRosterImports(databaseUrl, world);
  }
}

/** A write the app must answer as expected (a dry run of a faulty file); not timed. */
async function assertWrite(request: Sent, pick: (body: Record<string, unknown>) => unknown, expected: unknown) {
  const answer = await timedRequest(app, request);
  const picked =
    answer.status < 300 ? JSON.stringify(pick(JSON.parse(answer.body) as Record<string, unknown>)) : `${answer.status} ${answer.body.slice(0, 300)}`;
  if (picked !== JSON.stringify(expected))
    throw new Error(
      `the app's answer to ${request.method} ${request.path} is not the expected one:\n app      ${picked.slice(0, 400)}\n expected ${JSON.stringify(expected)}`,
    );
}

/**
 * Overload (ADR 50): a second app with `npm start`'s own load shedding and access log, its
 * sustainable rate of the forms list measured on 8 kept-alive connections, then three times that
 * rate for a minute (10 s with --quick) in an open loop, with a health check beside it. The other
 * servers are stopped first: the machine's cores belong to this app and its load.
 */
async function measureOverload(): Promise<OverloadOutcome> {
  await Promise.all([app.stop(), baseline.stop(), reference.stop(), bareApp?.stop(), smallerApp?.server.stop()]);
  const shedding = await productionApp(databaseUrl);
  try {
    const session = await signIn(shedding, world.adminEmail);
    const request = "/api/forms";
    const requests: LoadRequest[] = [{ method: "GET", path: request, headers: { cookie: session.cookie, accept: "application/json" } }];
    await runLoadProcess({ target: shedding.url, requests, mode: "throughput", connections: CONNECTIONS, durationMs: timing.warmupMs, forwardedFor: true });
    const sustained = await runLoadProcess({
      target: shedding.url,
      requests,
      mode: "throughput",
      connections: CONNECTIONS,
      durationMs: timing.roundMs,
      forwardedFor: true,
    });
    const normalRate = Math.max(1, Math.round(sustained.rps / 2));
    const overloadRate = Math.max(3, Math.round(sustained.rps * 3));
    const overloadSeconds = smoke ? 2 : quick ? 10 : 60;
    log(`overload: ${request} sustained ${sustained.rps.toFixed(0)}/s; ${overloadRate}/s for ${overloadSeconds} s`);
    const { timeline, ...result } = await runOverloadProcess({
      target: shedding.url,
      requests,
      normalRate,
      overloadRate,
      beforeMs: smoke ? 1000 : 5000,
      overloadMs: overloadSeconds * 1000,
      afterMs: smoke ? 2000 : 15_000,
      healthEveryMs: 250,
      timeoutMs: 30_000,
      forwardedFor: true,
    });
    log(
      `overload: first 503 after ${result.firstBusyAfterMs?.toFixed(0) ?? "never"} ms; /healthz at most ${result.healthMaxMs.toFixed(0)} ms; admitted p99 ${result.admittedP99Ms.toFixed(0)} ms; back to normal after ${result.recoveryMs ?? "never"} ms (calm p99 ${result.normalP99Ms.toFixed(0)} ms)`,
    );
    // The seconds after the overload, when they did not all turn normal in time: what was left.
    if (result.recoveryMs === null || result.recoveryMs > 10_000) {
      for (const second of timeline.filter((each) => each.phase === "after")) {
        log(
          `overload: after, second ${second.second}: ${second.ok}/${second.sent} 2xx, ${second.busy} × 503, ${second.other} other, ${second.failed} failed; p99 ${second.okP99Ms.toFixed(0)} ms; /healthz ${second.healthMaxMs.toFixed(0)} ms`,
        );
      }
    }
    return { request: `GET ${request}`, sustainable: sustained.rps, normalRate, overloadRate, overloadSeconds, result };
  } finally {
    await shedding.stop();
  }
}

/**
 * Resolves when a child process exits with 0; rejects otherwise, with what it wrote to stderr.
 * With `echo`, each line it writes to stdout is printed as it is.
 */
function childDone(what: string, child: ChildProcess, echo = false): Promise<void> {
  let errorOutput = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errorOutput = (errorOutput + chunk.toString()).slice(-8000);
  });
  if (echo && child.stdout) createInterface({ input: child.stdout }).on("line", (line) => console.log(line));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code}):\n${errorOutput}`))));
  });
}

// The run itself comes last, after every declaration it reaches: a `const` further down would be
// read before its line ran (twice a full run stopped half way on a ReferenceError that way).
const buildDir = "build-bench";
/** The reference app's build (scripts/bench/reference/): under data/, outside the source tree. */
const referenceBuildDir = path.join(root, "data/bench/reference-build");
// The build, the growth table's smaller data set (see SmallerApp) and the full one are made at
// the same time: each of the three keeps one core busy at most (SQLite's driver is synchronous, a
// PostgreSQL seed is one backend), and the machine has two.
const growthEnabled = growthRows > 0 && growthRows < rows;
const smallerSeed = growthEnabled
  ? childDone(
      "the growth table's data set",
      spawn(process.execPath, [...process.execArgv, path.join(root, "scripts/bench/seed-data-set.ts"), databaseUrlFor(growthRows), String(growthRows)], {
        cwd: root,
        // Its lines carry its own time: this process reads them only between the full seed's statements.
        env: { ...process.env, TZ: "UTC", BENCH_STARTED_AT: String(started), BENCH_LOG_PREFIX: `growth set (${growthRows.toLocaleString("en")}): ` },
        stdio: ["ignore", "pipe", "pipe"],
      }),
      true,
    )
  : undefined;
let build: Promise<void> | undefined;
if (!options["no-build"]) {
  log("building the app (production)");
  build = childDone(
    "the build (run `npx react-router build` to see why)",
    spawn("npx", ["react-router", "build"], { cwd: root, env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: "production" }, stdio: "ignore" }),
  ).then(() =>
    childDone(
      `the reference app's build (run \`BUILD_DIR=${referenceBuildDir} npx react-router build scripts/bench/reference\` to see why)`,
      spawn("npx", ["react-router", "build", "scripts/bench/reference", "--emptyOutDir"], {
        cwd: root,
        env: { ...process.env, BUILD_DIR: referenceBuildDir, NODE_ENV: "production" },
        stdio: "ignore",
      }),
    ),
  );
}

log(`data set: ${rows.toLocaleString("en")} submissions on ${database}`);
// Settled here so that a failed build or seed is reported after the full seed, not as an unhandled rejection during it.
const others = Promise.allSettled([build, smallerSeed]);
const world = await ensureBenchDatabase(databaseUrl, rows, log);
for (const outcome of await others) if (outcome.status === "rejected") throw outcome.reason;
// Each submit consumes an assignment; a run makes fresh ones for both servers, only when it runs the submits, and removes what is left.
const removedLinks = await removePendingAssignments(databaseUrl, world);
if (removedLinks > 0) log(`removed ${removedLinks.toLocaleString("en")} unused links of an earlier run`);
const pendingPerServer = !selected("POST /api/test-link/:token/submit") ? 0 : smoke ? 2_000 : quick ? 15_000 : 40_000;
const appTokens = await createPendingAssignments(databaseUrl, world, pendingPerServer);
const baselineTokens = await createPendingAssignments(databaseUrl, world, pendingPerServer);
// PostgreSQL keeps deleted rows until a vacuum: an earlier run's links and imported students,
// removed above or when it ended, would be walked by this run's reads until autovacuum came.
if (database === "postgresql") await vacuumAnalyze(databaseUrl);
// The growth table's smaller data set, seeded above by its own process and kept like the full one: read back here.
const smallerWorld = growthEnabled ? await ensureBenchDatabase(databaseUrlFor(growthRows), growthRows, () => {}) : undefined;
// A freshly seeded data set leaves gigabytes of dirty pages that the kernel writes back while the
// first scenarios run, and they measured that: the first full run on a new data set had the
// session check at 547 req/s, 17 % of the baseline; the same data set once written, 686–971/s
// (25–31 %). Written out before anything is measured.
spawnSync("sync", { stdio: "ignore" });

// Both servers check the session cookie's signature with the same secret.
const sessionSecret = randomBytes(32).toString("hex");
const serverEnv = { DATABASE_URL: databaseUrl, NODE_ENV: "production", SESSION_SECRET: sessionSecret };
/** Each app's standard output, in the production configuration: a file, as production's goes to a collector. */
let appLogs = 0;
const appLogFile = () => path.join(root, "data/bench", `app-${(appLogs += 1)}.log`);
/** The app as `npm start` runs it in production, on the bench's database. */
const productionApp = (url: string, overrides: Record<string, string> = {}) =>
  startServer("app", "server/start.ts", { ...appServerEnv({ databaseUrl: url, buildDir, sessionSecret }), ...overrides }, { stdoutTo: appLogFile() });
/** The app without its access log (and asked for no compression, see job): `--bare`'s app, and the cost table's “App, bare”. */
const bareAppOn = (url: string) =>
  startServer("app", "server/start.ts", { ...appServerEnv({ databaseUrl: url, buildDir, sessionSecret }), ...NO_LOAD_SHEDDING, ACCESS_LOG: "false" });
/** The app measured: `npm start`'s configuration, or bare with `--bare`. */
const startApp = (url: string) => (bare ? bareAppOn(url) : productionApp(url, NO_LOAD_SHEDDING));
const app = await startApp(databaseUrl);
const coreSpeed = await startCoreSpeedProbe((script) => pinnedTo(SERVER_CPU, process.execPath, [script]));
let fastestCoreProbeMs = Number.POSITIVE_INFINITY;
const baseline = await startServer("baseline", "scripts/bench/baseline.ts", serverEnv);
// The stack's own floor, in the app's configuration: its access log to a file as the app's, or none with --bare.
const reference = await startServer(
  "reference",
  "scripts/bench/reference/server.ts",
  { ...serverEnv, BUILD_DIR: referenceBuildDir, ...(bare ? { ACCESS_LOG: "false" } : {}) },
  bare ? {} : { stdoutTo: appLogFile() },
);
const bareApp = bare ? undefined : await bareAppOn(databaseUrl);
const smallerApp = smallerWorld ? await startSmallerApp(smallerWorld) : undefined;
log(
  `app at ${app.url}, baseline at ${baseline.url}, reference app at ${reference.url}${bareApp ? `, bare app at ${bareApp.url}` : ""}${smallerApp ? `, the app on ${growthRows.toLocaleString("en")} at ${smallerApp.server.url}` : ""}`,
);

const { cookie, csrfToken } = await signIn(app, world.adminEmail);
// Each server's memory once started and before any load: the memory line's “idle”.
const memory: MemoryFigures = {
  idle: { app: residentMemoryMiB(app.process.pid!), baseline: residentMemoryMiB(baseline.process.pid!), reference: residentMemoryMiB(reference.process.pid!) },
};
const outcomes: ScenarioOutcome[] = [];
const growthReads: Growth["reads"] = [];
let overload: OverloadOutcome | undefined;
try {
  await runScenarios();
  if (selected("overload")) overload = await measureOverload();
} finally {
  await app.stop();
  await baseline.stop();
  await reference.stop();
  await bareApp?.stop();
  await smallerApp?.server.stop();
  coreSpeed.stop();
  await removePendingAssignments(databaseUrl, world);
}

const minutes = (Date.now() - started) / 60_000;
const machine = machineDescription();
console.log(`\n${renderTable(outcomes)}\n`);
console.log(`CPU ms per request:\n${renderCostTable(outcomes)}\n`);
if (overload) console.log(`${renderOverload(overload).join("\n")}\n`);
const growth: Growth | undefined = growthReads.length > 0 ? { smallerRows: growthRows, rows, reads: growthReads } : undefined;
if (growth) console.log(`${renderGrowthTable(growth)}\n`);
const out = options.out ?? path.join(root, quick || options.only || rows !== 1_000_000 ? `data/bench/benchmarks-${database}-${rows}.md` : "docs/benchmarks.md");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(
  out,
  renderMarkdown({
    outcomes,
    overload,
    growth,
    memory,
    machine,
    database,
    rows,
    minutes,
    timing,
    connections: CONNECTIONS,
    latencySamples: LATENCY_SAMPLES,
    leadInMs: RATE_SETTLE_MS,
    pinned: pinning,
    bare,
  }),
);
const roundDetails = path.join(root, `data/bench/rounds-${database}-${rows}.md`);
mkdirSync(path.dirname(roundDetails), { recursive: true });
writeFileSync(roundDetails, renderRoundDetails({ outcomes, growth, fastestCoreProbeMs: Number.isFinite(fastestCoreProbeMs) ? fastestCoreProbeMs : undefined }));
log(`wrote ${path.relative(root, out)} (${minutes.toFixed(1)} min in all), and each round's core speed and threads to ${path.relative(root, roundDetails)}`);
