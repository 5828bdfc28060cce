import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
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

export type Server = {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
  /** What the server has written to stdout and stderr so far (the last MiB), to tell why a request failed. */
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

export async function startServer(name: string, script: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  // taskset runs node in its own process (exec): the pid is the server's.
  const [command, args] = pinnedTo(SERVER_CPU, process.execPath, [...heapFlags, ...tsxLoader, script]);
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...startEnv, ...env, PORT: String(port), TZ: "UTC" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2 ** 21) output = output.slice(-(2 ** 20));
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  runningServers.add(child);
  child.once("exit", () => runningServers.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start-up:\n${output}`);
    try {
      const response = await fetch(`${url}${name === "app" ? "/healthz" : "/api/reports"}`);
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not start within 120 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    process: child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
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
