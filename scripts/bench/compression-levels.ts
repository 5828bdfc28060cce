import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { assertNodeVersion } from "../../server/node-version.ts";
import { ensureBenchDatabase } from "./dataset.ts";
import { benchLog } from "./log.ts";
import { appServerEnv, buildForBench, NO_LOAD_SHEDDING, root, startServer } from "./processes.ts";
import { signIn } from "./sign-in.ts";

/**
 * What each compression setting costs and saves on the answers that are compressed most: the
 * reports list as JSON and the reports page (ADR 96). The answers are taken from the app once,
 * uncompressed, then each setting compresses each of them the way the app has `compression` do it
 * (a zlib stream per answer, the answer written in one piece: server/compression.ts hands the
 * compressor what one turn of the event loop wrote, and the reports page is written in one turn
 * but for its last few bytes), in rounds that take turns. CPU time is this process's, every
 * thread counted (zlib works in the thread pool), per answer. Smaller pieces of the JSON list
 * (1, 2, 4 KB) tell where compressing stops paying: the threshold.
 *
 *   npx tsx scripts/bench/compression-levels.ts [--rows 100000] [--rounds 5] [--answers 200]
 */
assertNodeVersion();
process.env.TZ = "UTC";
const { values: options } = parseArgs({
  options: {
    rows: { type: "string", default: "100000" },
    rounds: { type: "string", default: "5" },
    /** Answers compressed per setting and round. */
    answers: { type: "string", default: "200" },
  },
});
const rows = Number(options.rows);
const rounds = Number(options.rounds);
const answers = Number(options.answers);
const log = benchLog(Date.now());

const { BROTLI_PARAM_QUALITY } = zlib.constants;
type Setting = { name: string; make: () => zlib.BrotliCompress | zlib.Gzip };
const brotli = (quality: number): Setting => ({
  name: `br ${quality}`,
  make: () => zlib.createBrotliCompress({ params: { [BROTLI_PARAM_QUALITY]: quality } }),
});
const SETTINGS: Setting[] = [
  { name: "gzip 1", make: () => zlib.createGzip({ level: 1 }) },
  { name: "gzip 6", make: () => zlib.createGzip({ level: 6 }) },
  { name: "gzip 9", make: () => zlib.createGzip({ level: 9 }) },
  brotli(1),
  brotli(2),
  brotli(3),
  brotli(4),
  brotli(5),
  brotli(6),
  brotli(11),
];

const databaseUrl = `file:${path.join(root, "data/bench", `bench-${rows}.db`)}`;
const world = await ensureBenchDatabase(databaseUrl, rows, log);
const buildDir = path.join(root, "build-bench");
if (!existsSync(path.join(buildDir, "server/index.js"))) await buildForBench(buildDir, log);
const server = await startServer("app", "server/start.ts", {
  ...appServerEnv({ databaseUrl, buildDir, sessionSecret: randomBytes(32).toString("hex") }),
  ...NO_LOAD_SHEDDING,
  ACCESS_LOG: "false",
});
/** An answer, and the size of the pieces it reaches the compressor in (whole unless said). */
type Body = { name: string; body: Buffer; pieces?: number };
let bodies: Body[];
try {
  const { cookie } = await signIn(server.url, world.adminEmail);
  // No Accept-Encoding: the app answers uncompressed.
  const fetchBody = async (pathAndQuery: string, accept: string) => {
    const response = await fetch(`${server.url}${pathAndQuery}`, { headers: { cookie, accept, "accept-encoding": "identity" } });
    if (!response.ok) throw new Error(`${pathAndQuery} answered ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  };
  const list = await fetchBody("/api/reports?page=1&limit=20", "application/json");
  const page = await fetchBody("/en/reports?limit=50", "text/html");
  bodies = [
    { name: "GET /en/reports?limit=50 (the page)", body: page },
    // A streamed answer that reaches the compressor over several turns (a page's deferred part, an
    // export): React's 2 KB pieces, the smallest it writes.
    { name: "the page in 2 KB pieces", body: page, pieces: 2048 },
    { name: "GET /api/reports?page=1&limit=20", body: list },
    ...[4096, 2048, 1024].map((size) => ({ name: `the list's first ${size / 1024} KB`, body: list.subarray(0, size) })),
  ];
} finally {
  await server.stop();
}

/** Compresses one answer as `compression` does: a stream, the answer written, then ended. */
function compress(setting: Setting, { body, pieces = body.length }: Body): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = setting.make();
    let bytes = 0;
    stream.on("data", (chunk: Buffer) => (bytes += chunk.length));
    stream.on("end", () => resolve(bytes));
    stream.on("error", reject);
    for (let at = 0; at < body.length; at += pieces) stream.write(body.subarray(at, at + pieces));
    stream.end();
  });
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const results = new Map<string, { ms: number[]; bytes: number }>();
for (const body of bodies) {
  for (const setting of SETTINGS) for (let i = 0; i < 20; i += 1) await compress(setting, body);
  for (let round = 0; round < rounds; round += 1) {
    const order = SETTINGS.map((_, at) => SETTINGS[(at + round) % SETTINGS.length]!);
    for (const setting of order) {
      const before = cpuMs();
      let bytes = 0;
      for (let i = 0; i < answers; i += 1) bytes = await compress(setting, body);
      const key = `${body.name}\n${setting.name}`;
      const entry = results.get(key) ?? { ms: [], bytes };
      entry.ms.push((cpuMs() - before) / answers);
      results.set(key, entry);
    }
  }
  log(`${body.name}: done`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`\nCPU ms per answer (median of ${rounds} rounds of ${answers}, lowest–highest round) and its bytes; ${rows.toLocaleString("en")} submissions.\n`);
console.log(`| setting | ${bodies.map((body) => `${body.name} (${body.body.length.toLocaleString("en")} B)`).join(" | ")} |`);
console.log(`| --- | ${bodies.map(() => "---").join(" | ")} |`);
for (const setting of SETTINGS) {
  const cells = bodies.map((body) => {
    const { ms, bytes } = results.get(`${body.name}\n${setting.name}`)!;
    const sorted = [...ms].sort((a, b) => a - b);
    return `${median(ms).toFixed(3)} (${sorted[0]!.toFixed(3)}–${sorted.at(-1)!.toFixed(3)}) · ${bytes.toLocaleString("en")} B`;
  });
  console.log(`| ${setting.name} | ${cells.join(" | ")} |`);
}
