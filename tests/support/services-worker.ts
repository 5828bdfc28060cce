import { mkdirSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";

/**
 * Runs in the worker before each file of the `services` project: points the app's configuration
 * (app/lib/env.server.ts, read on first use) at this worker's database, so that the services a
 * test imports run as they do in the server, on a database no other worker writes to.
 */
const poolId = Number(process.env.VITEST_POOL_ID ?? "1");
const databaseUrl = inject("servicesDatabases")[poolId - 1];
if (!databaseUrl) throw new Error(`No database for worker ${poolId}: the services project's global setup made ${inject("servicesDatabases").length}.`);

const dataDir = path.join(inject("servicesDataDir"), `worker-${poolId}`);
mkdirSync(dataDir, { recursive: true });
process.env.DATABASE_URL = databaseUrl;
process.env.DATA_DIR = dataDir;
// A name that never resolves: links and e-mails carry it, nothing is served there.
process.env.APP_URL = "http://assessment.test";
process.env.ENCRYPTION_KEY = Buffer.alloc(32, 9).toString("base64");
// What a service e-mails at once (sign-in codes, reset links) is written to DATA_DIR/mail, as in
// development; queued e-mails stay queued, as no job worker runs here.
delete process.env.SMTP_URL;
