import { randomBytes } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { assertNodeVersion } from "../../server/node-version.ts";
import { openSqlClient } from "../../app/lib/sql-client.server.ts";
import { ensureBenchDatabase } from "./dataset.ts";
import { benchLog } from "./log.ts";
import { appServerEnv, NO_LOAD_SHEDDING, root, runLoadProcess, startServer, type Server } from "./processes.ts";
import { processCpuMs } from "./server-threads.ts";
import { signIn } from "./sign-in.ts";

/**
 * The floor's CPU time per request: `GET /api/auth/session` (or `--path`) sent to one or more
 * builds of the app at once, in alternating rounds, each server's process CPU time (every thread,
 * user and system) divided by the requests it answered in the round. On a machine shared with
 * other work, CPU time per request moves far less than requests per second: a round where another
 * process took the core is slower, not dearer. Used to compare two builds of the same code base
 * (ADR 95, ADR 97):
 *
 *   BUILD_DIR=build-main npx react-router build     (the other commit checked out; build-* is ignored)
 *   npx react-router build                           (this one, into build/)
 *   tsx scripts/bench/floor-cpu.ts --builds build-main,build --database postgresql --as teacher
 *   tsx scripts/bench/floor-cpu.ts --builds build-main,build --rows 50000 --path '/api/reports?page=500&limit=20'
 *
 * A build directory must be inside the project: the server loads its bundle as an ES module,
 * which Node decides from the package.json above it.
 *
 * The servers run as `npm start` runs them (processes.ts), on a small data set of the bench's
 * own (2,000 submissions unless `--rows`, each size its own database), pinned to the first core
 * with the load generator on the second.
 */
assertNodeVersion();
process.env.TZ = "UTC";
const { values: options } = parseArgs({
  options: {
    builds: { type: "string", default: "build" },
    database: { type: "string", default: "sqlite" },
    /** admin: the bench's caller; teacher: a teacher who is staff of three groups (ADR 86). */
    as: { type: "string", default: "admin" },
    /** The request measured, a GET answered 200 to the caller. */
    path: { type: "string", default: "/api/auth/session" },
    /** Submissions in the data set; a quarter are the administrator's organization's (page 500 of 20 needs 40,000). */
    rows: { type: "string", default: "2000" },
    rounds: { type: "string", default: "6" },
    "round-ms": { type: "string", default: "4000" },
    connections: { type: "string", default: "8" },
    /** `npm start`'s access log (on unless ACCESS_LOG=false); off by default, as the bench measures. */
    "access-log": { type: "boolean", default: false },
    /** A V8 CPU profile of each server (node --cpu-prof) written into this directory when it stops. */
    "cpu-prof-dir": { type: "string" },
  },
});
const started = Date.now();
const log = benchLog(started);
const builds = options.builds.split(",").map((dir) => path.resolve(root, dir));
const rows = Number(options.rows);
/** The first size keeps its old name, so its cached data set is reused. */
const sized = rows === 2000 ? "" : `-${rows}`;
const databaseUrl =
  options.database === "postgresql"
    ? (process.env.BENCH_POSTGRES_URL ?? `postgresql://postgres@127.0.0.1:5432/assessment_floor_cpu${sized.replace("-", "_")}`)
    : `file:${path.join(root, "data/bench", `floor-cpu${sized}.db`)}`;

const world = await ensureBenchDatabase(databaseUrl, rows, log);
const email = options.as === "teacher" ? await staffedTeacher(world.teacherId) : world.adminEmail;

/** The teacher's e-mail, once the teacher is staff of three groups with two colleagues each. */
async function staffedTeacher(teacherId: string): Promise<string> {
  const client = openSqlClient(databaseUrl);
  try {
    const [teacher] = await client.all<{ email: string; organizationId: string }>(`SELECT "email", "organizationId" FROM "User" WHERE "id" = ?`, [teacherId]);
    const [staffed] = await client.all<{ count: number | string }>(`SELECT COUNT(*) AS "count" FROM "GroupStaff" WHERE "userId" = ?`, [teacherId]);
    if (Number(staffed!.count) > 0) return teacher!.email;
    const colleagues = await client.all<{ id: string }>(
      `SELECT "id" FROM "User" WHERE "organizationId" = ? AND "role" = 'TEACHER' AND "id" <> ? ORDER BY "id" LIMIT 2`,
      [teacher!.organizationId, teacherId],
    );
    const now = new Date();
    await client.transaction(async (tx) => {
      for (let index = 0; index < 3; index += 1) {
        const groupId = `cfloor${randomBytes(10).toString("hex")}`;
        await tx.run(`INSERT INTO "Group" ("id", "organizationId", "name", "searchName", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`, [
          groupId,
          teacher!.organizationId,
          `Floor class ${index}`,
          `floor class ${index}`,
          now,
          now,
        ]);
        for (const [userId, role] of [[teacherId, "OWNER"], ...colleagues.map((colleague) => [colleague.id, "EDITOR"])] as const) {
          await tx.run(`INSERT INTO "GroupStaff" ("id", "groupId", "userId", "role", "createdAt") VALUES (?, ?, ?, ?, ?)`, [
            `cfloor${randomBytes(10).toString("hex")}`,
            groupId,
            userId,
            role,
            now,
          ]);
        }
      }
    });
    return teacher!.email;
  } finally {
    await client.close();
  }
}

const secret = randomBytes(32).toString("hex");
const servers: { build: string; server: Server; cookie: string; perRequestMs: number[]; rps: number[] }[] = [];
try {
  for (const build of builds) {
    const server = await startServer("app", "server/start.ts", {
      ...appServerEnv({ databaseUrl, buildDir: build, sessionSecret: secret }),
      ...NO_LOAD_SHEDDING,
      ...(options["access-log"] ? {} : { ACCESS_LOG: "false" }),
      ...(options["cpu-prof-dir"] ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(options["cpu-prof-dir"])}` } : {}),
    });
    servers.push({ build, server, cookie: (await signIn(server.url, email)).cookie, perRequestMs: [], rps: [] });
  }
  const round = async (entry: (typeof servers)[number], durationMs: number) => {
    const pid = entry.server.process.pid!;
    const before = processCpuMs(pid)!;
    const result = await runLoadProcess({
      target: entry.server.url,
      requests: [{ method: "GET", path: options.path, headers: { cookie: entry.cookie, accept: "application/json" } }],
      mode: "throughput",
      connections: Number(options.connections),
      durationMs,
    });
    const cpuMs = processCpuMs(pid)! - before;
    if (result.errors > 0 || Object.keys(result.statuses).some((status) => status !== "200")) {
      throw new Error(`${entry.build}: ${JSON.stringify(result.statuses)} ${result.firstError ?? ""}`);
    }
    return { cpuMs, completed: result.completed, rps: result.rps };
  };
  // Warm-up: each server's code compiled and its caches filled before anything is counted.
  for (const entry of servers) await round(entry, 3000);
  const rounds = Number(options.rounds);
  // The profiles' timestamps are µs of the monotonic clock: this window keeps their measured rounds.
  const measuredFromUs = process.hrtime.bigint() / 1000n;
  for (let index = 0; index < rounds; index += 1) {
    // Alternating order, so that neither build always runs right after the other.
    const order = index % 2 === 0 ? servers : [...servers].reverse();
    for (const entry of order) {
      const { cpuMs, completed, rps } = await round(entry, Number(options["round-ms"]));
      entry.perRequestMs.push(cpuMs / completed);
      entry.rps.push(rps);
      log(
        `round ${index + 1} ${path.relative(root, entry.build) || entry.build}: ${((cpuMs / completed) * 1000).toFixed(0)} µs CPU per request, ${rps.toFixed(0)} req/s`,
      );
    }
  }
  if (options["cpu-prof-dir"]) {
    const pids = servers.map((entry) => `${path.relative(root, entry.build) || entry.build} pid ${entry.server.process.pid}`).join(", ");
    log(`profiles: ${pids}; measured rounds from ${measuredFromUs} to ${process.hrtime.bigint() / 1000n} µs (monotonic)`);
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  console.log(`\nGET ${options.path} as ${options.as} on ${options.database} (${rows} rows), ${rounds} alternating rounds of ${options["round-ms"]} ms:`);
  for (const entry of servers) {
    const perRequest = entry.perRequestMs.map((ms) => (ms * 1000).toFixed(0)).join(", ");
    console.log(
      `  ${entry.build}: median ${(median(entry.perRequestMs) * 1000).toFixed(0)} µs CPU per request (rounds: ${perRequest}); median ${median(entry.rps).toFixed(0)} req/s`,
    );
  }
  // Each round's ratio to the first build's in the same round: drift in the machine's load moves both.
  for (const entry of servers.slice(1)) {
    const ratios = entry.perRequestMs.map((ms, index) => ms / servers[0]!.perRequestMs[index]!);
    console.log(
      `  ${entry.build} / ${servers[0]!.build}, round by round: median ${median(ratios).toFixed(2)} (${ratios.map((ratio) => ratio.toFixed(2)).join(", ")})`,
    );
  }
} finally {
  for (const entry of servers) await entry.server.stop();
}
