import { format } from "node:util";
import { redactSecrets } from "../app/lib/log-redaction.ts";

/**
 * Every line the server process writes through `console` passes through the redaction of
 * app/lib/log-redaction.ts, whatever wrote it (our code, React Router, Prisma, a dependency):
 * an error message that quotes a query's parameters or a URL must not put a token in the log.
 */
export function installLogRedaction(): void {
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const write = console[level].bind(console);
    console[level] = (...args: unknown[]) => write(redactSecrets(format(...args)));
  }
}
