import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../lib/free-port.ts";
import type { LoadJob, LoadResult } from "./load.ts";
import type { OverloadJob, OverloadResult } from "./overload.ts";

/** Child processes of the benchmark: the two servers under test and the load generator. */
export const root = path.resolve(import.meta.dirname, "../..");
const tsxLoader = ["--import", "tsx"];
const startScript = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start as string;
/**
 * The V8 flags (the young generation's floor, no memory reducer) and the environment (glibc's
 * arenas) `npm start` gives the server (package.json), given to both servers under test: they
 * decide how much an export grows the process and how the heap behaves after idleness (ADR 26,
 * ADR 34). Every flag between `node` and `--import` is taken, whatever its form.
 */
const heapFlags: string[] = (/\bnode\s+(.*?)\s+--import\b/.exec(startScript)?.[1] ?? "").split(/\s+/).filter((flag) => flag.startsWith("--"));
if (heapFlags.length === 0) throw new Error("package.json's start script gives Node no flags before --import: scripts/bench/processes.ts cannot read them");
const startEnv: Record<string, string> = Object.fromEntries([...startScript.matchAll(/(?:^|\s)([A-Z_]+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));

/**
 * The servers under test run on the first core and the load generator on the second (`taskset`),
 * so that neither takes the other's CPU time and both servers get the same share. Without taskset
 * or a second core, nothing is pinned (and the report says so).
 */
export const pinning = os.availableParallelism() >= 2 && spawnSync("taskset", ["-c", "0", "true"]).status === 0;
export const pinnedTo = (cpu: number, command: string, args: string[]): [string, string[]] =>
  pinning ? ["taskset", ["-c", String(cpu), command, ...args]] : [command, args];
export const SERVER_CPU = 0;
export const LOAD_CPU = 1;

/** What a browser's `Accept-Encoding` comes to for `npm start`'s compression (server/app.ts): Brotli, gzip otherwise. */
export const PRODUCTION_ACCEPT_ENCODING = "br, gzip";

/** The environment of the app as `npm start` runs it in production, on a bench database and build. */
export function appServerEnv(options: { databaseUrl: string; buildDir: string; sessionSecret: string }): Record<string, string> {
  return {
    DATABASE_URL: options.databaseUrl,
    NODE_ENV: "production",
    SESSION_SECRET: options.sessionSecret,
    BUILD_DIR: options.buildDir,
    // Fixed: the database keeps a check value of its key (ADR 16), and the bench database is reused.
    ENCRYPTION_KEY: "62656e6368206b65792c206e6f7420666f72207265616c2075736521212121ff",
    // Never sent to (the bench signs in without a second factor); production requires the variable.
    SMTP_URL: "smtp://127.0.0.1:9",
    TRUST_PROXY: "1",
    APP_URL: "http://127.0.0.1",
  };
}

/** The baseline sheds nothing; neither does the app while it is measured (the overload scenario keeps `npm start`'s limits). */
export const NO_LOAD_SHEDDING = { LOAD_SHED_MAX_IN_FLIGHT: "100000", LOAD_SHED_MAX_WAIT_MS: "60000" };

/** Builds the app for production into `buildDir`. */
export function buildForBench(buildDir: string, log: (message: string) => void): Promise<void> {
  log(`building the app (production) into ${path.relative(root, buildDir)}`);
  const child = spawn("npx", ["react-router", "build"], { cwd: root, env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: "production" }, stdio: "ignore" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`the build failed (exit ${code}): run \`npx react-router build\` to see why`))));
  });
}

export type Server = {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
  /** What the server has written to stdout (unless it goes to a file) and stderr so far (the last MiB), to tell why a request failed. */
  output: () => string;
};

/**
 * The servers still running: a bench stopped by Ctrl+C or a signal stops them too, instead of
 * leaving them serving (and logging into pipes nobody reads) on the machine.
 */
const runningServers = new Set<ChildProcess>();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const child of runningServers) child.kill("SIGKILL");
    process.exit(130);
  });
}

/**
 * Starts a server under test. With `stdoutTo`, its standard output goes to that file, as
 * production's goes to a log collector, instead of a pipe this process reads (its access log
 * would be read here, on the load generator's side of the machine); the file is removed when the
 * server stops.
 */
export async function startServer(name: string, script: string, env: Record<string, string>, options: { stdoutTo?: string } = {}): Promise<Server> {
  const port = await freePort();
  // taskset runs node in its own process (exec): the pid is the server's.
  const [command, args] = pinnedTo(SERVER_CPU, process.execPath, [...heapFlags, ...tsxLoader, script]);
  const stdoutFile = options.stdoutTo ? openSync(options.stdoutTo, "w") : undefined;
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...startEnv, ...env, PORT: String(port), TZ: "UTC" },
    stdio: ["ignore", stdoutFile ?? "pipe", "pipe"],
  });
  if (stdoutFile !== undefined) closeSync(stdoutFile);
  const removeStdoutFile = () => options.stdoutTo && rmSync(options.stdoutTo, { force: true });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2 ** 21) output = output.slice(-(2 ** 20));
  };
  child.stdout?.on("data", collect);
  child.stderr!.on("data", collect);
  runningServers.add(child);
  child.once("exit", () => runningServers.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start-up:\n${output}${stdoutTail(options.stdoutTo)}`);
    try {
      const response = await fetch(`${url}${name === "app" ? "/healthz" : "/api/reports"}`);
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not start within 120 s:\n${output}${stdoutTail(options.stdoutTo)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    process: child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        const stopped = () => {
          removeStdoutFile();
          resolve();
        };
        if (child.exitCode !== null) return stopped();
        child.once("exit", stopped);
        child.kill("SIGTERM");
      }),
  };
}

/** The last lines a server wrote to its standard output file, for an error message. */
function stdoutTail(file: string | undefined): string {
  if (!file) return "";
  try {
    return `\n(standard output, its end:)\n${readFileSync(file, "utf8").slice(-8000)}`;
  } catch {
    return "";
  }
}

/**
 * Anonymous resident memory of a process in MiB, from /proc (Linux): the heap and native
 * allocations, without the pages of the memory-mapped SQLite file, which count as resident once
 * read but belong to the page cache and are given back under pressure.
 */
export function residentMemoryMiB(pid: number): number {
  const match = /RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Runs one load job in a separate process. */
export function runLoadProcess(job: LoadJob): Promise<LoadResult> {
  return runInLoadProcess("scripts/bench/load.ts", job);
}

/** Runs the overload scenario's load (scripts/bench/overload.ts) in a separate process. */
export function runOverloadProcess(job: OverloadJob): Promise<OverloadResult> {
  return runInLoadProcess("scripts/bench/overload.ts", job);
}

/** A load generator script on the load generator's core, given its job as JSON on stdin; its answer is the JSON it writes. */
function runInLoadProcess<Result>(script: string, job: unknown): Promise<Result> {
  return new Promise((resolve, reject) => {
    const [command, args] = pinnedTo(LOAD_CPU, process.execPath, [path.join(root, script)]);
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      resolve(JSON.parse(output) as Result);
    });
    child.stdin.end(JSON.stringify(job));
  });
}
