import { setTimeout as pause } from "node:timers/promises";

/**
 * The one polling loop of the suite: reads `read` until `done` holds for its value (a job run by
 * the suite's server, a row it writes, a process that answers), and answers that value. Tests never
 * wait for time to pass (docs/development.md); this waits for a condition and only paces its reads.
 * `what` names, on a timeout, what was awaited (a function when it depends on the last value).
 */
export async function waitFor<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string | ((last: T) => string),
  { timeoutMs = 15_000, everyMs = 50 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${typeof what === "function" ? what(value) : what}`);
    await pause(everyMs);
  }
}

/** `waitFor` for a condition with no value worth answering. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string),
  options?: { timeoutMs?: number; everyMs?: number },
): Promise<void> {
  await waitFor(condition, (holds) => holds, what, options);
}
