import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { assertNodeVersion } from "../../server/node-version.ts";
import { ensureBenchDatabase } from "./dataset.ts";
import type { LoadRequest } from "./load.ts";
import { benchLog } from "./log.ts";
import { appServerEnv, buildForBench, NO_LOAD_SHEDDING, PRODUCTION_ACCEPT_ENCODING, root, runLoadProcess, type Server, startServer } from "./processes.ts";
import { processCpuMs } from "./server-threads.ts";
import { signIn } from "./sign-in.ts";

/**
 * CPU time per request, the quantity that stays put when the machine is shared: the app as
 * `npm start` runs it ("production": the access log on, written to a file as production writes it
 * to a collector; compression for a client that sends `Accept-Encoding: br, gzip`) and bare
 * (neither: `npm run bench -- --bare`), on the floor (the session check), the reports list and
 * the reports page. Every server runs on the servers' core; each round sends each request at a
 * fixed rate to each server in turn, a different server first in each round, and reads the server
 * process's CPU time (every thread: the event loop, V8's helpers, the thread pool that compresses
 * and writes the log) before and after. With `--compare-with`, the servers of another checkout of
 * the repository (its server/ source; this checkout's build, or its own with `--compare-build`)
 * take their turns too: a change measured before and after on the same machine at the same
 * moments (ADR 96, 98).
 *
 *   npx tsx scripts/bench/request-cost.ts                       100,000 submissions, SQLite
 *   npx tsx scripts/bench/request-cost.ts --compare-with ../old  and the servers of ../old
 *   npx tsx scripts/bench/request-cost.ts --saturate              each as fast as it is answered (8 connections)
 *   npx tsx scripts/bench/request-cost.ts --compare-with ../old --compare-build ../old/build
 *                                                               ../old's own app too (a change in app/)
 */
assertNodeVersion();
process.env.TZ = "UTC";
const { values: options } = parseArgs({
  options: {
    rows: { type: "string", default: "100000" },
    database: { type: "string", default: "sqlite" },
    rounds: { type: "string", default: "6" },
    seconds: { type: "string", default: "4" },
    "compare-with": { type: "string" },
    /** The build the other checkout's servers serve (its `npx react-router build`, inside it); this checkout's by default. */
    "compare-build": { type: "string" },
    /** Only the requests whose name contains this text. */
    only: { type: "string" },
    /** Each request as fast as the server answers it on 8 kept-alive connections, instead of at its fixed rate. */
    saturate: { type: "boolean", default: false },
  },
});
const rows = Number(options.rows);
const rounds = Number(options.rounds);
const roundMs = Number(options.seconds) * 1000;
const log = benchLog(Date.now());

type Read = { name: string; rate: number; request: (cookie: string) => LoadRequest };
/** Each at a rate the app answers well below its saturation, so no round measures a queue. */
const ALL_READS: Read[] = [
  {
    name: "GET /api/auth/session (the floor)",
    rate: 200,
    request: (cookie) => ({ method: "GET", path: "/api/auth/session", headers: { cookie, accept: "application/json" } }),
  },
  {
    name: "GET /api/reports?page=1&limit=20",
    rate: 120,
    request: (cookie) => ({ method: "GET", path: "/api/reports?page=1&limit=20", headers: { cookie, accept: "application/json" } }),
  },
  {
    name: "GET /en/reports?limit=50 (the page)",
    rate: 40,
    request: (cookie) => ({ method: "GET", path: "/en/reports?limit=50", headers: { cookie, accept: "text/html" } }),
  },
];
const READS = ALL_READS.filter((read) => !options.only || read.name.includes(options.only));

type Configuration = { label: string; checkout: string; build?: string | undefined; production: boolean };
const checkouts = [
  { name: "this checkout", dir: root, build: undefined },
  ...(options["compare-with"]
    ? [
        {
          name: path.basename(path.resolve(options["compare-with"])),
          dir: path.resolve(options["compare-with"]),
          build: options["compare-build"] ? path.resolve(options["compare-build"]) : undefined,
        },
      ]
    : []),
];
const configurations: Configuration[] = checkouts.flatMap((checkout) => [
  { label: `${checkout.name}, production`, checkout: checkout.dir, build: checkout.build, production: true },
  { label: `${checkout.name}, bare`, checkout: checkout.dir, build: checkout.build, production: false },
]);

const databaseUrl =
  options.database === "postgresql"
    ? (process.env.BENCH_POSTGRES_URL ?? `postgresql://postgres@127.0.0.1:5432/assessment_bench_${rows}`)
    : `file:${path.join(root, "data/bench", `bench-${rows}.db`)}`;
const world = await ensureBenchDatabase(databaseUrl, rows, log);
const buildDir = path.join(root, "build-bench");
// Built on every run: a build left from an earlier checkout would be measured as this one.
await buildForBench(buildDir, log);

const env = { ...appServerEnv({ databaseUrl, buildDir, sessionSecret: randomBytes(32).toString("hex") }), ...NO_LOAD_SHEDDING };
mkdirSync(path.join(root, "data/bench"), { recursive: true });
const servers = new Map<Configuration, { server: Server; cookie: string }>();
try {
  for (const [index, configuration] of configurations.entries()) {
    const server = await startServer(
      "app",
      path.join(configuration.checkout, "server/start.ts"),
      { ...env, ...(configuration.build ? { BUILD_DIR: configuration.build } : {}), ACCESS_LOG: String(configuration.production) },
      configuration.production ? { stdoutTo: path.join(root, "data/bench", `request-cost-${index}.log`) } : {},
    );
    servers.set(configuration, { server, cookie: (await signIn(server.url, world.adminEmail)).cookie });
  }
  log(`${configurations.length} servers: ${configurations.map((c) => c.label).join("; ")}`);

  const cpuPerRequest = new Map<string, number[]>();
  const key = (read: Read, configuration: Configuration) => `${read.name}\n${configuration.label}`;
  const round = async (read: Read, configuration: Configuration, durationMs: number) => {
    const { server, cookie } = servers.get(configuration)!;
    const before = processCpuMs(server.process.pid);
    const result = await runLoadProcess({
      target: server.url,
      requests: [read.request(cookie)],
      ...(options.saturate ? { mode: "throughput" as const, connections: 8 } : { mode: "rate" as const, rate: read.rate, connections: 64 }),
      durationMs,
      forwardedFor: true,
      ...(configuration.production ? { acceptEncoding: PRODUCTION_ACCEPT_ENCODING } : {}),
    });
    const after = processCpuMs(server.process.pid);
    if (result.errors > 0) throw new Error(`${read.name} on ${configuration.label}: ${result.errors} errors, the first: ${result.firstError}`);
    if (before === undefined || after === undefined) throw new Error("/proc does not tell the servers' CPU time");
    return (after - before) / result.completed;
  };
  for (const read of READS) {
    log(`${read.name}: warm-up`);
    for (const configuration of configurations) await round(read, configuration, 2000);
    for (let index = 0; index < rounds; index += 1) {
      const order = configurations.map((_, at) => configurations[(at + index) % configurations.length]!);
      for (const configuration of order) {
        const ms = await round(read, configuration, roundMs);
        cpuPerRequest.set(key(read, configuration), [...(cpuPerRequest.get(key(read, configuration)) ?? []), ms]);
      }
    }
  }

  const lines = [
    `CPU ms per request (median of ${rounds} rounds of ${roundMs / 1000} s, lowest–highest round), and the bytes of one answer; ${rows.toLocaleString("en")} submissions, ${options.database === "postgresql" ? "PostgreSQL" : "SQLite"}.`,
    "",
    `| request | ${configurations.map((c) => c.label).join(" | ")} |`,
    `| --- | ${configurations.map(() => "---").join(" | ")} |`,
  ];
  for (const read of READS) {
    const cells = await Promise.all(
      configurations.map(async (configuration) => {
        const values = [...cpuPerRequest.get(key(read, configuration))!].sort((a, b) => a - b);
        const { server, cookie } = servers.get(configuration)!;
        const bytes = await answerBytes(server.url, read.request(cookie), configuration.production);
        return `${values[Math.floor(values.length / 2)]!.toFixed(3)} (${values[0]!.toFixed(3)}–${values.at(-1)!.toFixed(3)}) · ${bytes.toLocaleString("en")} B`;
      }),
    );
    lines.push(`| ${read.name} @ ${options.saturate ? "saturation" : `${read.rate}/s`} | ${cells.join(" | ")} |`);
  }
  // The same configuration of the two checkouts runs in every round, seconds apart: the median of
  // the rounds' ratios moves less than the ratio of the medians when the machine's speed drifts.
  if (checkouts.length === 2) {
    lines.push("", `Change against ${checkouts[1]!.name}, the median of the rounds' ratios (each round measures both, seconds apart):`, "");
    for (const read of READS) {
      const changes = (["production", "bare"] as const).map((mode) => {
        const [mine, theirs] = configurations
          .filter((configuration) => configuration.production === (mode === "production"))
          .map((c) => cpuPerRequest.get(key(read, c))!);
        const ratios = mine!.map((ms, at) => ms / theirs![at]!).sort((a, b) => a - b);
        return `${mode} ${percentChange(ratios[Math.floor(ratios.length / 2)]!)} (rounds ${percentChange(ratios[0]!)} to ${percentChange(ratios.at(-1)!)})`;
      });
      lines.push(`- ${read.name}: ${changes.join("; ")}`);
    }
  }
  console.log(`\n${lines.join("\n")}\n`);
} finally {
  await Promise.all([...servers.values()].map(({ server }) => server.stop()));
}

function percentChange(ratio: number): string {
  return `${ratio >= 1 ? "+" : "−"}${Math.abs((ratio - 1) * 100).toFixed(1)} %`;
}

/** The bytes of one answer as sent (compressed when the configuration asks for it). */
function answerBytes(url: string, request: LoadRequest, production: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(request.path, url);
    const headers = { ...request.headers, ...(production ? { "accept-encoding": PRODUCTION_ACCEPT_ENCODING } : {}) };
    http
      .get(target, { headers }, (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => resolve(bytes));
      })
      .on("error", reject);
  });
}
