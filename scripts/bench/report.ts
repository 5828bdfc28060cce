import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import { speedShares } from "./core-speed.ts";
import type { OverloadResult } from "./overload.ts";
import type { ThreadTimes } from "./server-threads.ts";

/**
 * The benchmark's results as a console table and as the generated part of docs/benchmarks.md.
 * Only the text between the `bench:begin` and `bench:end` markers is replaced, so the analysis
 * written around it survives every run.
 */
type Latency = {
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  /** How many requests the percentiles are of, and the p95 of each round (at a fixed rate). */
  samples?: number;
  p95Spread?: { min: number; median: number; max: number };
};
type Side = { rps: number; rate: number; latency: Latency };

export type ScenarioOutcome = {
  name: string;
  app: Side;
  /** The bare baseline's figures, on the requests it answers (scripts/bench/baseline.ts, ADR 66). */
  baseline?: Side;
  /** What the second column measured when it is not the bare baseline. */
  baselineLabel?: string;
  errors: number;
  targets: {
    throughputRatio?: number;
    p95Ratio?: number;
    p95Ms?: number;
    p99Ratio?: number;
    maxMs?: number;
    zeroErrors?: boolean;
    /** A download's first byte, its slowest timed call (needs `download`). */
    firstByteMs?: number;
    /** A download's peak resident memory above the level before (needs `download`). */
    memoryDeltaMiB?: number;
    /**
     * The app's CPU time per request against the reference app's (needs `cpu.reference`): at most
     * `factor` times it, or at most `perStatementMs` more for each of the read's `statements`.
     */
    overReference?: { factor?: number; perStatementMs?: number };
  };
  /** The statements the read runs (the caller's, then its own), for `overReference.perStatementMs`. */
  statements?: number;
  /** CPU time per request in the throughput rounds, in ms (see CpuPerRequest). */
  cpu?: CpuPerRequest;
  /**
   * A single request timed on its own `repetitions` times, one at a time (bulk assignment, roster
   * import): the latency columns show the median and the slowest, and the ratio, when a baseline
   * answered it too, is the baseline's median time over the app's (the app's speed as a share of
   * the baseline's, as for throughput).
   */
  repetitions?: number;
  note?: string | undefined;
  memory?: { before: number; after: number; afterSecond: number };
  /** A long download (the CSV export): the latency columns are its total time. */
  download?: { app: DownloadStats; baseline?: DownloadStats };
  /**
   * The core speed probe's time around each fixed-rate round, in the rounds' order
   * (scripts/bench/core-speed.ts); `smaller` for the growth table's app, when it took a turn.
   */
  coreProbeMs?: { app: number[]; baseline?: number[] | undefined; smaller?: number[] };
  /** Each server's threads in each fixed-rate round, in the rounds' order (scripts/bench/server-threads.ts). */
  threadTimes?: { app: RoundThreads; baseline?: RoundThreads | undefined; smaller?: RoundThreads };
};

/**
 * What each server's process spent of the core per request it answered in the throughput rounds
 * (every thread: the event loop, V8's helpers, the thread pool that compresses and writes the
 * log), the median round, in ms, at saturation. `bare`: the app without its access log and asked for no
 * compression, beside the app as `npm start` runs it; `reference`: the reference app
 * (scripts/bench/reference/), the stack's own floor on the same statements.
 */
export type CpuPerRequest = {
  app: number;
  /** The same, in the fixed-rate rounds (their lead-ins' requests counted too): below saturation, where a server idles between requests. */
  appAtRate?: number | undefined;
  bare?: number | undefined;
  reference?: number | undefined;
  baseline?: number | undefined;
  baselineAtRate?: number | undefined;
};

/** Anonymous resident memory in MiB (scripts/bench/processes.ts, residentMemoryMiB) at the moments the bench reports. */
export type MemoryFigures = {
  /** Each server once started (and the app signed in to), before any load. */
  idle: { app: number; baseline: number; reference: number };
  /** The app's most, sampled every 50 ms, during the reports list's throughput rounds. */
  underListLoad?: number;
  /** The app's after the CSV export scenario's downloads, how many there were. */
  afterExports?: { exports: number; mib: number };
};

function memoryLine(memory: MemoryFigures): string {
  const mib = (value: number) => `${value.toFixed(0)} MiB`;
  return [
    `Memory (anonymous resident, without the SQLite file's mapped pages): the app ${mib(memory.idle.app)} idle, once started and signed in to (the baseline ${mib(memory.idle.baseline)}, the reference app ${mib(memory.idle.reference)})`,
    ...(memory.underListLoad !== undefined ? [`${mib(memory.underListLoad)} at most under the reports list's throughput rounds`] : []),
    ...(memory.afterExports ? [`${mib(memory.afterExports.mib)} after the ${memory.afterExports.exports} CSV exports of the big organization`] : []),
  ]
    .join("; ")
    .concat(".");
}

/** Each read's app p95 on a data set a tenth the size, against the full one's (less than 2×). */
export type Growth = {
  smallerRows: number;
  rows: number;
  reads: { name: string; rate?: number | undefined; repetitions?: number | undefined; smaller: GrowthSide; full: GrowthSide; errors: number }[];
};
/** A p95, with the lowest and highest round's when it was measured in rounds at a fixed rate. */
type GrowthSide = {
  p95: number;
  spread?: { min: number; max: number } | undefined;
  coreProbeMs?: number[] | undefined;
  /** CPU time per request in the fixed-rate rounds, in ms: what growth is judged on, the p95 beside it. */
  cpuMsPerRequest?: number | undefined;
};

const growthCell = (side: GrowthSide) => `${ms(side.p95)}${side.spread ? ` (${ms(side.spread.min)}–${ms(side.spread.max)} by round)` : ""}`;

const GROWTH_LIMIT = 2;

/**
 * Growth is judged on CPU time per request where the rounds measured it: a p95 mostly measures the
 * round's stalls (docs/benchmarks.md), CPU time the work a request costs. Single calls (the form
 * summary) are judged on their p95.
 */
function growthRows(growth: Growth): string[][] {
  return growth.reads.map((read) => {
    const [smallerCpu, fullCpu] = [read.smaller.cpuMsPerRequest, read.full.cpuMsPerRequest];
    const onCpu = smallerCpu !== undefined && fullCpu !== undefined;
    const ratio = onCpu ? fullCpu / smallerCpu : read.full.p95 / read.smaller.p95;
    const met = ratio < GROWTH_LIMIT && read.errors === 0;
    const cpuCell = (value: number | undefined) => (value === undefined ? "—" : cpuMs(value));
    return [
      read.name,
      read.rate !== undefined ? `${read.rate}/s` : `1 at a time, ×${read.repetitions}`,
      cpuCell(smallerCpu),
      cpuCell(fullCpu),
      growthCell(read.smaller),
      growthCell(read.full),
      `${met ? "✅" : "❌"} ${ratio.toFixed(2)}× ${onCpu ? "CPU" : "p95"}${read.errors > 0 ? ` (${read.errors} errors)` : ""}`,
    ];
  });
}

const growthHeader = (growth: Growth) => [
  "Read",
  "Measured at",
  `App CPU ms a request at ${growth.smallerRows.toLocaleString("en")}`,
  `App CPU ms a request at ${growth.rows.toLocaleString("en")}`,
  `App p95 at ${growth.smallerRows.toLocaleString("en")} ms`,
  `App p95 at ${growth.rows.toLocaleString("en")} ms`,
  `Growth (< ${GROWTH_LIMIT}×)`,
];

export function renderGrowthTable(growth: Growth): string {
  const table = [growthHeader(growth), ...growthRows(growth)];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  return table.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ")).join("\n");
}

/**
 * The servers' core's speed around each fixed-rate round (scripts/bench/core-speed.ts), as a share
 * of the fastest the probe measured in the run: one line per scenario, a column per server.
 */
function coreSpeedRows(outcomes: ScenarioOutcome[], growth: Growth | undefined, fastestMs: number): string[][] {
  const shares = (probes: number[] | undefined) => (probes && probes.length > 0 ? speedShares(probes, fastestMs).join(", ") : "—");
  return outcomes
    .filter((o) => o.coreProbeMs)
    .map((o) => [o.name, shares(o.coreProbeMs?.app), shares(o.coreProbeMs?.baseline), ...(growth ? [shares(o.coreProbeMs?.smaller)] : [])]);
}

type RoundThreads = (ThreadTimes | undefined)[];

/**
 * What each server's threads spent of the core in each fixed-rate round: V8's helper threads and
 * the event loop, one line per scenario, a column per server.
 */
function threadRows(outcomes: ScenarioOutcome[], growth: Growth | undefined): string[][] {
  const rounds = (times: RoundThreads | undefined) =>
    times && times.length > 0
      ? times.map((round) => (round ? `${round.helpersMs.toLocaleString("en")} / ${round.eventLoopMs.toLocaleString("en")}` : "?")).join(", ")
      : "—";
  return outcomes
    .filter((o) => o.threadTimes?.app.some(Boolean))
    .map((o) => [o.name, rounds(o.threadTimes?.app), rounds(o.threadTimes?.baseline), ...(growth ? [rounds(o.threadTimes?.smaller)] : [])]);
}

const threadHeader = (growth: Growth | undefined) => [
  "Fixed-rate rounds of",
  "The app (on the full data set), ms by round",
  "The baseline, ms by round",
  ...(growth ? [`The app on ${growth.smallerRows.toLocaleString("en")}, ms by round`] : []),
];

const coreSpeedHeader = (growth: Growth | undefined) => [
  "Fixed-rate rounds of",
  "The app (on the full data set), % by round",
  "The baseline, % by round",
  ...(growth ? [`The app on ${growth.smallerRows.toLocaleString("en")}, % by round`] : []),
];

export type DownloadStats = { firstByteMedianMs: number; firstByteMaxMs: number; idleMiB: number; peakMiB: number };

export function targetVerdicts(outcome: ScenarioOutcome): { text: string; met: boolean }[] {
  const { app, baseline, targets } = outcome;
  const verdicts: { text: string; met: boolean }[] = [];
  if (targets.throughputRatio !== undefined && baseline) {
    const ratio = app.rps / baseline.rps;
    verdicts.push({ text: `throughput ${(ratio * 100).toFixed(0)} % ≥ ${targets.throughputRatio * 100} %`, met: ratio >= targets.throughputRatio });
  }
  if (targets.p95Ratio !== undefined && baseline) {
    const ratio = app.latency.p95 / baseline.latency.p95;
    verdicts.push({ text: `p95 ${ratio.toFixed(2)}× ≤ ${targets.p95Ratio}×`, met: ratio <= targets.p95Ratio });
  }
  if (targets.p99Ratio !== undefined && baseline) {
    const ratio = app.latency.p99 / baseline.latency.p99;
    verdicts.push({ text: `p99 ${ratio.toFixed(2)}× ≤ ${targets.p99Ratio}×`, met: ratio <= targets.p99Ratio });
  }
  if (targets.maxMs !== undefined) {
    const seconds = (value: number) => (value / 1000).toFixed(2);
    // An error answered quickly is no answer: the time counts only when every answer was right.
    if (outcome.errors > 0) verdicts.push({ text: `< ${targets.maxMs / 1000} s not measured (error answers)`, met: false });
    else verdicts.push({ text: `slowest ${seconds(app.latency.max)} s < ${targets.maxMs / 1000} s`, met: app.latency.max < targets.maxMs });
  }
  if (targets.p95Ms !== undefined) {
    verdicts.push({ text: `p95 ${app.latency.p95.toFixed(1)} ms < ${targets.p95Ms} ms`, met: app.latency.p95 < targets.p95Ms });
  }
  if (targets.firstByteMs !== undefined && outcome.download) {
    const slowest = outcome.download.app.firstByteMaxMs;
    verdicts.push({ text: `first byte ${slowest.toFixed(0)} ms < ${targets.firstByteMs} ms`, met: slowest < targets.firstByteMs });
  }
  if (targets.memoryDeltaMiB !== undefined && outcome.download) {
    const growth = outcome.download.app.peakMiB - outcome.download.app.idleMiB;
    verdicts.push({ text: `memory +${growth.toFixed(0)} MiB ≤ ${targets.memoryDeltaMiB} MiB`, met: growth <= targets.memoryDeltaMiB });
  }
  const reference = outcome.cpu?.reference;
  if (targets.overReference && outcome.cpu && reference !== undefined) {
    const { factor, perStatementMs } = targets.overReference;
    const app = outcome.cpu.app;
    if (factor !== undefined) verdicts.push({ text: `CPU ${cpuMs(app)} ms ≤ ${factor} × the reference's ${cpuMs(reference)}`, met: app <= factor * reference });
    if (perStatementMs !== undefined && outcome.statements !== undefined) {
      const allowed = reference + perStatementMs * outcome.statements;
      verdicts.push({
        text: `CPU ${cpuMs(app)} ms ≤ the reference's ${cpuMs(reference)} + ${perStatementMs} × ${outcome.statements} statements`,
        met: app <= allowed,
      });
    }
  }
  if (targets.zeroErrors || outcome.errors > 0) verdicts.push({ text: `${outcome.errors} errors`, met: outcome.errors === 0 });
  if (outcome.memory) {
    const growth = outcome.memory.afterSecond - outcome.memory.after;
    verdicts.push({ text: `memory +${growth.toFixed(0)} MiB over the second 1,000`, met: growth < 32 });
  }
  return verdicts;
}

const ms = (value: number) => value.toFixed(1);
/** CPU time per request: tenths of a millisecond matter, and the counters' resolution over a round allows thousandths. */
const cpuMs = (value: number) => value.toFixed(3);

const signedMs = (value: number) => `${value < 0 ? "−" : "+"}${cpuMs(Math.abs(value))}`;

const COST_HEADER = [
  "Read",
  "App",
  "App, bare",
  "Reference app",
  "Baseline",
  "App ÷ reference",
  "Statements",
  "App at the fixed rate",
  "Baseline at the fixed rate",
];

/** The cost table: CPU time per request of each server on the reads it was measured on. */
function costRows(outcomes: ScenarioOutcome[]): string[][] {
  const cell = (value: number | undefined) => (value === undefined ? "—" : cpuMs(value));
  return outcomes
    .filter((o) => o.cpu)
    .map((o) => {
      const cpu = o.cpu!;
      return [
        o.name,
        cell(cpu.app),
        cell(cpu.bare),
        cell(cpu.reference),
        cell(cpu.baseline),
        cpu.reference === undefined ? "—" : `${(cpu.app / cpu.reference).toFixed(2)}× (${signedMs(cpu.app - cpu.reference)} ms)`,
        o.statements === undefined ? "—" : String(o.statements),
        cell(cpu.appAtRate),
        cell(cpu.baselineAtRate),
      ];
    });
}

export function renderCostTable(outcomes: ScenarioOutcome[]): string {
  const table = [COST_HEADER, ...costRows(outcomes)];
  const widths = COST_HEADER.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  return table.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ")).join("\n");
}

const percentiles = (side: Side | undefined) => {
  if (!side) return "—";
  const { p50, p95, p99, p95Spread, samples } = side.latency;
  const spread = p95Spread
    ? ` (p95 ${ms(p95Spread.min)}–${ms(p95Spread.max)} by round, n = ${samples?.toLocaleString("en")})`
    : samples
      ? ` (n = ${samples.toLocaleString("en")})`
      : "";
  return `${ms(p50)} / ${ms(p95)} / ${ms(p99)}${spread}`;
};

/** Repeated single calls: the median and the slowest, and the p95 when there are enough calls for it to differ. */
const medianAndMax = (side: Side | undefined) =>
  side ? `${ms(side.latency.p50)} median / ${side.latency.p95 < side.latency.max ? `${ms(side.latency.p95)} p95 / ` : ""}${ms(side.latency.max)} max` : "—";

function rows(outcomes: ScenarioOutcome[]) {
  return outcomes.map((outcome) => {
    const verdicts = targetVerdicts(outcome);
    if (outcome.repetitions !== undefined) {
      return [
        outcome.name,
        "—",
        "—",
        outcome.baseline && outcome.errors === 0 ? `${((outcome.baseline.latency.p50 / outcome.app.latency.p50) * 100).toFixed(0)} %` : "—",
        `1 at a time, ×${outcome.repetitions}`,
        medianAndMax(outcome.app),
        medianAndMax(outcome.baseline),
        verdicts.map((v) => `${v.met ? "✅" : "❌"} ${v.text}`).join("; "),
      ];
    }
    return [
      outcome.name,
      outcome.app.rps.toFixed(0),
      outcome.baseline ? `${outcome.baseline.rps.toFixed(0)}${outcome.baselineLabel ? ` (${outcome.baselineLabel})` : ""}` : "—",
      outcome.baseline ? `${((outcome.app.rps / outcome.baseline.rps) * 100).toFixed(0)} %` : "—",
      `${outcome.app.rate}/s`,
      percentiles(outcome.app),
      percentiles(outcome.baseline),
      verdicts.map((v) => `${v.met ? "✅" : "❌"} ${v.text}`).join("; "),
    ];
  });
}

const HEADER = ["Scenario", "App req/s", "Baseline req/s", "App ÷ baseline", "Fixed rate", "App p50 / p95 / p99 ms", "Baseline p50 / p95 / p99 ms", "Targets"];

export function renderTable(outcomes: ScenarioOutcome[]): string {
  const table = [HEADER, ...rows(outcomes)];
  const widths = HEADER.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  return table.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ")).join("\n");
}

export function machineDescription(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** The overload scenario (scripts/bench/overload.ts): the app alone, with `npm start`'s load shedding. */
export type OverloadOutcome = {
  request: string;
  /** Requests/s the app sustained on 8 kept-alive connections just before. */
  sustainable: number;
  normalRate: number;
  overloadRate: number;
  overloadSeconds: number;
  result: Omit<OverloadResult, "timeline">;
};

/** The targets of the overload row: shedding, health checks, admitted latency and recovery (ADR 50). */
const OVERLOAD_TARGETS = { firstBusyMs: 2000, healthMaxMs: 1000, admittedP99Ms: 2000, recoveryMs: 10_000 };

export function renderOverload(overload: OverloadOutcome): string[] {
  const { result } = overload;
  const ms = (value: number | null) => (value === null ? "never" : `${Math.round(value).toLocaleString("en")} ms`);
  const check = (ok: boolean) => (ok ? "✓" : "✗");
  const firstBusyOk = result.firstBusyAfterMs !== null && result.firstBusyAfterMs <= OVERLOAD_TARGETS.firstBusyMs && result.busyWithoutRetryAfter === 0;
  const failures = Object.entries(result.failures)
    .map(([why, count]) => `${count} ${why}`)
    .join(", ");
  return [
    "",
    `Overload: \`${overload.request}\` on the app with \`npm start\`'s load shedding (access log on), ${overload.normalRate}/s for 5 s, then ${overload.overloadRate}/s (3 × the ${Math.round(overload.sustainable)}/s it sustained on 8 kept-alive connections) for ${overload.overloadSeconds} s, then ${overload.normalRate}/s for 15 s; an open loop, each request sent when due on a free kept-alive connection or a new one; \`/healthz\` asked every 250 ms on a connection of its own. Latency from when each request was due.`,
    "",
    "| First 503 (with Retry-After) | `/healthz`, slowest | p99 of the admitted (2xx) | Not answered | Back to normal after | Normal p99 |",
    "| --- | --- | --- | --- | --- | --- |",
    `| ${ms(result.firstBusyAfterMs)} ${check(firstBusyOk)} ≤ 2 s | ${ms(result.healthMaxMs)}${result.healthFailures ? ` (${result.healthFailures} failed)` : ""} ${check(result.healthMaxMs < OVERLOAD_TARGETS.healthMaxMs && result.healthFailures === 0)} < 1 s | ${ms(result.admittedP99Ms)} ${check(result.admittedP99Ms < OVERLOAD_TARGETS.admittedP99Ms)} < 2 s | ${(result.failedShare * 100).toFixed(1)} %${failures ? ` (${failures})` : ""} | ${ms(result.recoveryMs)} ${check(result.recoveryMs !== null && result.recoveryMs <= OVERLOAD_TARGETS.recoveryMs)} ≤ 10 s | ${ms(result.normalP99Ms)} |`,
  ];
}

export function renderMarkdown(input: {
  outcomes: ScenarioOutcome[];
  overload?: OverloadOutcome | undefined;
  growth?: Growth | undefined;
  memory?: MemoryFigures | undefined;
  machine: string;
  database: string;
  rows: number;
  minutes: number;
  timing: { warmupMs: number; roundMs: number; rounds: number; latencyMs: number };
  connections: number;
  latencySamples: number;
  /** The untimed lead-in at the same rate before each fixed-rate round. */
  leadInMs: number;
  pinned: boolean;
  /** The app without its access log and asked for no compression (`--bare`), instead of `npm start`'s configuration. */
  bare: boolean;
}): string {
  const { outcomes, timing } = input;
  // Each database's latest full run has its own table: SQLite's under "bench", PostgreSQL's under "bench-postgresql".
  const tag = input.database === "sqlite" ? "bench" : `bench-${input.database}`;
  const [beginMarker, endMarker] = [`<!-- ${tag}:begin`, `<!-- ${tag}:end -->`];
  const generated = [
    `${beginMarker} (written by \`npm run bench${input.database === "sqlite" ? "" : ` -- --database ${input.database}`}\`; edit outside these markers) -->`,
    `Run on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC · ${input.machine} · ${input.database} · ${input.rows.toLocaleString("en")} completed submissions · ${input.minutes.toFixed(1)} min in all.`,
    "",
    `Throughput: ${input.connections} keep-alive connections, no pipelining, ${timing.rounds} alternating rounds of ${timing.roundMs / 1000} s per server after a ${timing.warmupMs / 1000} s warm-up, median reported. Latency: an open loop at the fixed rate shown (half the slower server's throughput; the app's own where the baseline does not answer the request, “—”), in ${timing.rounds} alternating rounds of at least ${(timing.latencyMs / timing.rounds / 1000).toFixed(1)} s and together at least ${input.latencySamples.toLocaleString("en")} requests per server, each round after an untimed lead-in of ${input.leadInMs} ms at its rate, measured from when each request was due; the percentiles are over all of them, with the lowest and highest round's p95. ${input.pinned ? "The servers run on the first core and the load generator on the second (taskset)." : "Nothing was pinned to a core (no taskset or a single core)."}${
      outcomes.some((o) => o.repetitions !== undefined)
        ? " Single requests (“1 at a time”): after one warm-up call, one request at a time, timed from sending to the last byte of the answer."
        : ""
    } The baseline (scripts/bench/baseline.ts) answers the session check, the reports list and the submit only (ADR 66); every other row is judged by its targets alone. ${
      input.bare
        ? "The app ran bare (`--bare`): no access log, and the load generator asked for no compression."
        : "The app ran as `npm start` runs it (ADR 96): its access log written to a file, and every request sent with `Accept-Encoding: br, gzip`."
    }`,
    "",
    `| ${HEADER.join(" | ")} |`,
    `| ${HEADER.map(() => "---").join(" | ")} |`,
    ...rows(outcomes).map((row) => `| ${row.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`),
    "",
    ...outcomes.filter((o) => o.note).map((o) => `- ${o.name}: ${o.note}`),
    ...(costRows(outcomes).length > 0
      ? [
          "",
          `Cost per request: the CPU time each server's process spent (every thread, from Linux's counters) over the requests it answered in each throughput round above, the median round, in ms. ${input.bare ? "The app ran bare, so its two columns are one configuration." : "“App” runs as `npm start` runs it; “App, bare” is a second app without its access log, sent no `Accept-Encoding` (the configuration of the tables before ADR 96), in the same rounds."} The reference app (scripts/bench/reference/) is the smallest React Router 8 + Express + Prisma 7 server answering the session check and the reports list with the app's statements through Prisma's client, with ${input.bare ? "no access log or compression" : "the app's access log and compression"}; its answers are checked equal to the app's first. “Statements”: those the read runs, the caller's first; the targets of the reads the reference answers are overheads over it (the Targets column above). “At the fixed rate”: the same in the latency rounds (half of saturation), their lead-ins' requests counted.`,
          "",
          `| ${COST_HEADER.join(" | ")} |`,
          `| ${COST_HEADER.map(() => "---").join(" | ")} |`,
          ...costRows(outcomes).map((row) => `| ${row.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`),
        ]
      : []),
    ...(input.memory ? ["", memoryLine(input.memory)] : []),
    ...(input.growth
      ? [
          "",
          `Growth: each read's app on this data set (the figures above) and on one of ${input.growth.smallerRows.toLocaleString("en")} submissions seeded the same way, served by a second app that took a third turn in each of the read's latency rounds, at the same rate and with as many requests (each round starting one server further on): CPU time per request in those rounds, which growth is judged on, and the p95 beside it; the form summary's single calls the same way, a third turn in each, judged on their p95.`,
          "",
          `| ${growthHeader(input.growth).join(" | ")} |`,
          `| ${growthHeader(input.growth)
            .map(() => "---")
            .join(" | ")} |`,
          ...growthRows(input.growth).map((row) => `| ${row.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`),
        ]
      : []),
    ...(input.overload ? renderOverload(input.overload) : []),
    endMarker,
  ].join("\n");
  const file = "docs/benchmarks.md";
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "";
  const begin = existing.indexOf(beginMarker);
  const end = existing.indexOf(endMarker);
  if (begin !== -1 && end !== -1) return `${existing.slice(0, begin)}${generated}${existing.slice(end + endMarker.length)}`;
  // A database's first full run: its table goes right after SQLite's.
  const sqliteEnd = existing.indexOf("<!-- bench:end -->");
  if (sqliteEnd === -1) return `# Benchmarks\n\n${generated}\n`;
  const at = sqliteEnd + "<!-- bench:end -->".length;
  return `${existing.slice(0, at)}\n\n### ${input.database === "postgresql" ? "PostgreSQL" : input.database}\n\n${generated}${existing.slice(at)}`;
}

/**
 * The per-round details of a run (the core's speed around each fixed-rate round, each server's
 * threads in it), which tell a stalled round's cause: written beside the run's log under
 * data/bench/, not into docs/benchmarks.md, whose tables keep to what a reader compares.
 */
export function renderRoundDetails(input: { outcomes: ScenarioOutcome[]; growth?: Growth | undefined; fastestCoreProbeMs?: number | undefined }): string {
  const { outcomes } = input;
  return [
    ...(input.fastestCoreProbeMs !== undefined && coreSpeedRows(outcomes, input.growth, input.fastestCoreProbeMs).length > 0
      ? [
          "",
          `Core speed: a fixed piece of work (scripts/bench/core-speed.ts) timed on the servers' core just before and just after each fixed-rate round, while every server was idle; each round's mean as a share of the fastest time in the run (${input.fastestCoreProbeMs.toFixed(1)} ms). Below 100, the core was slower around that round than at its best; the probe sees it between rounds, not during them.`,
          "",
          `| ${coreSpeedHeader(input.growth).join(" | ")} |`,
          `| ${coreSpeedHeader(input.growth)
            .map(() => "---")
            .join(" | ")} |`,
          ...coreSpeedRows(outcomes, input.growth, input.fastestCoreProbeMs).map((row) => `| ${row.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`),
        ]
      : []),
    ...(threadRows(outcomes, input.growth).length > 0
      ? [
          "",
          "The servers' threads: the CPU time each server's process spent in each fixed-rate round (the rounds of the latency figures above, in order), from Linux's per-thread counters (10 ms resolution), as V8's helper threads (its optimizing compilers and its collector's concurrent work) / the event loop. Every thread of a server shares its one core; a round whose helper threads took several times their usual share is a round in which V8 compiled again code it had dropped (docs/benchmarks.md, “the stalls measured”).",
          "",
          `| ${threadHeader(input.growth).join(" | ")} |`,
          `| ${threadHeader(input.growth)
            .map(() => "---")
            .join(" | ")} |`,
          ...threadRows(outcomes, input.growth).map((row) => `| ${row.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`),
        ]
      : []),
  ].join("\n");
}
