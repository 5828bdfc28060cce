import { readdirSync, readFileSync } from "node:fs";

/**
 * What a server's threads spent of the core during one fixed-rate round, from Linux's per-thread
 * counters (/proc/<pid>/task/<tid>/stat: user and system time, in clock ticks of 10 ms).
 *
 * The bench gives each server one core (processes.ts), and every thread of the process shares it:
 * the event loop, and V8's helper threads ("V8Worker": the optimizing compilers and the garbage
 * collector's concurrent work). On 2026-11-29 the rounds that stalled were rounds in which the
 * helper threads took 0.34–0.49 s of the core against 0.07–0.26 s in the others, V8 compiling
 * again code it had just dropped (docs/benchmarks.md, "the stalls measured"). Reported beside each
 * round, the two figures tell such a round from one where the core itself was slow (the core speed
 * probe) or where nothing in the server changed.
 */
export type ThreadTimes = { eventLoopMs: number; helpersMs: number };

const TICK_MS = 10;

/** The process's CPU time so far, split into its event loop (the thread whose id is the pid) and V8's helper threads; undefined where /proc cannot tell. */
export function threadTimes(pid: number | undefined): ThreadTimes | undefined {
  if (pid === undefined) return undefined;
  let eventLoopMs = 0;
  let helpersMs = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      } catch {
        continue; // the thread ended between the listing and the read
      }
      // The name is in parentheses and may hold spaces; the fields after it are space-separated.
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
      if (tid === String(pid)) eventLoopMs += ms;
      else if (name === "V8Worker") helpersMs += ms;
    }
  } catch {
    return undefined;
  }
  return { eventLoopMs, helpersMs };
}

/** What the threads spent between two readings. */
export function threadTimesBetween(before: ThreadTimes | undefined, after: ThreadTimes | undefined): ThreadTimes | undefined {
  if (!before || !after) return undefined;
  return { eventLoopMs: after.eventLoopMs - before.eventLoopMs, helpersMs: after.helpersMs - before.helpersMs };
}

/**
 * The process's CPU time so far, every thread counted: the event loop, V8's helpers, and the
 * thread pool, where compression and the access log's writes run. Undefined where /proc cannot tell.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}
