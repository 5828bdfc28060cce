import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

/**
 * How fast the servers' core is at a given moment. These machines are virtual: the same code on
 * the same core has measured up to twice as fast in one run as in another, with no steal time in
 * /proc/stat (another guest on the same physical core, or on its caches, takes its share unseen).
 * The bench times a fixed piece of work on the servers' core just before and just after every
 * fixed-rate round, while both servers are idle, so that each round's figures can be read with
 * the core's speed beside them and a slow core told from a slow server
 * (docs/decisions/0012-benchmarks.md).
 *
 * The work is a chain of dependent reads over 32 MiB, each at an address the previous one gave
 * (the caches and memory, as the servers' heaps and SQLite's pages use them), then integer
 * arithmetic (the core itself): about 45 ms at full speed on these machines.
 *
 * Run as a script (`node scripts/bench/core-speed.ts`, pinned by the caller), it times the work
 * once for each line it reads and writes the milliseconds. Written in plain erasable TypeScript
 * so Node runs it without a loader.
 */
const WORDS = 1 << 23;
const CHAIN_STEPS = 150_000;
const ARITHMETIC_STEPS = 15_000_000;

function timeWork(table: Int32Array): { ms: number; checksum: number } {
  const started = process.hrtime.bigint();
  let index = 0;
  let checksum = 0;
  for (let step = 0; step < CHAIN_STEPS; step += 1) {
    index = (table[index]! ^ step) & (WORDS - 1);
    checksum = (checksum + index) | 0;
  }
  let value = checksum;
  for (let step = 0; step < ARITHMETIC_STEPS; step += 1) value = (Math.imul(value, 1_103_515_245) + 12_345) | 0;
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, checksum: value };
}

export type CoreSpeedProbe = {
  /** Times the work once on the probed core: milliseconds (lower is faster). */
  measure: () => Promise<number>;
  stop: () => void;
};

/** Starts the probe's process with `launch` (which pins it), warmed up and ready to measure. */
export async function startCoreSpeedProbe(launch: (script: string) => [string, string[]]): Promise<CoreSpeedProbe> {
  const [command, args] = launch(path.join(import.meta.dirname, "core-speed.ts"));
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const answers = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const measure = async () => {
    child.stdin!.write("measure\n");
    const answer = await answers.next();
    if (answer.done) throw new Error("the core speed probe stopped");
    return Number(answer.value);
  };
  // The first calls run before the work is compiled.
  for (let warmUp = 0; warmUp < 5; warmUp += 1) await measure();
  return { measure, stop: () => child.stdin!.end() };
}

/** Each round's speed as a share of the fastest probe of the run (100 = the core at its best). */
export function speedShares(probesMs: number[], fastestMs: number): number[] {
  return probesMs.map((ms) => Math.round((100 * fastestMs) / ms));
}

if (import.meta.main) {
  const table = new Int32Array(WORDS);
  // A fixed permutation-like scramble, so that each read's address depends on the previous one's value.
  for (let i = 0; i < WORDS; i += 1) table[i] = Math.imul(i, 2_654_435_761) >>> 3;
  let sink = 0;
  for await (const _ of createInterface({ input: process.stdin })) {
    const { ms, checksum } = timeWork(table);
    sink ^= checksum;
    process.stdout.write(`${ms.toFixed(3)}\n`);
  }
  if (sink === 42) process.stdout.write("");
}
