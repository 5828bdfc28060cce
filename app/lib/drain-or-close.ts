import { type EventEmitter, once } from "node:events";

/** Until `stream` drains or `output` closes; the listener that did not fire is removed (a wait per batch would otherwise leave one each time). */
export async function drainOrClose(stream: EventEmitter, output: EventEmitter): Promise<void> {
  const done = new AbortController();
  const waits = [once(stream, "drain", { signal: done.signal }), once(output, "close", { signal: done.signal })];
  try {
    await Promise.race(waits);
  } finally {
    done.abort();
    await Promise.allSettled(waits);
  }
}
