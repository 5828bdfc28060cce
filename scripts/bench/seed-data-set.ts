import { assertNodeVersion } from "../../server/node-version.ts";
import { ensureBenchDatabase } from "./dataset.ts";
import { benchLog } from "./log.ts";

/**
 * Seeds (or reuses) one bench data set in a process of its own:
 *
 *   tsx scripts/bench/seed-data-set.ts <database URL> <submissions>
 *
 * scripts/bench/run.ts starts it for the growth table's smaller data set while it seeds the full
 * one itself: SQLite's driver is synchronous, so two seeds in one process would take turns on one
 * core while the other stays idle.
 */
assertNodeVersion();
// Dates go to PostgreSQL as timestamps without a zone: write them in UTC, as the app does.
process.env.TZ = "UTC";
const [databaseUrl, rowsArgument] = process.argv.slice(2);
const rows = Number(rowsArgument);
if (!databaseUrl || !Number.isInteger(rows) || rows <= 0) {
  console.error("usage: tsx scripts/bench/seed-data-set.ts <database URL> <submissions>");
  process.exit(2);
}
// Lines timed from the run's start when run.ts gives it (it reads them late: see there).
await ensureBenchDatabase(databaseUrl, rows, benchLog(Number(process.env.BENCH_STARTED_AT ?? Date.now()), process.env.BENCH_LOG_PREFIX));
