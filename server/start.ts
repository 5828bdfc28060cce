import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { assertNodeVersion } from "./node-version.ts";

/**
 * `npm start`: validates the configuration, applies pending migrations (under a lock shared by every
 * instance starting on the database), builds the app when no build exists, seeds the demo world
 * into an empty development database, checks ENCRYPTION_KEY, and serves on PORT. In production an
 * empty or missing database stops it: `npm run setup` creates an installation (ADR 16).
 *
 * `npm run dev` is the same with `--dev`: the app comes from the source through Vite instead of
 * the build, and edits apply without a restart (ADR 58). It refuses NODE_ENV=production.
 */
assertNodeVersion();
// A log reader that goes away (a closed pipe: a collector restarted, `npm start | tee` ended) must
// not stop the service. Node reports a failed write to standard output as an 'error' event, fatal
// without a listener, and the handler of an uncaught error would write to the same closed pipe.
// What would have been logged is dropped: there is nowhere left to say it.
for (const output of [process.stdout, process.stderr]) output.on("error", () => {});
const development = process.argv.includes("--dev");

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);

const { ConfigurationError, parseEnv } = await import("../app/lib/env.server.ts");
let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv();
} catch (error) {
  if (error instanceof ConfigurationError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
process.env.NODE_ENV = env.NODE_ENV;

const production = env.NODE_ENV === "production";
if (development && production) {
  console.error("npm run dev serves the source, not a build: for production run npm run build, then npm start.");
  process.exit(1);
}
const { InstallationError, ORGANIZATION_MISSING, assertDatabaseInstalled, verifyEncryptionKey, withStartupLock } = await import("./installation.ts");
const { describeDatabase } = await import("./database/database-url.ts");
const { applyPendingMigrations } = await import("./database/migrations.ts");
const { refreshSearchTextAfter } = await import("./database/search-text.ts");
const { createDatabase } = await import("../app/lib/db.server.ts");
const { DEMO_LOGINS, isDatabaseEmpty, seedDemoWorld } = await import("./demo-world.ts");
const { DEFAULT_DEVELOPMENT_PASSWORD } = await import("../app/features/auth/credentials.server.ts");

/**
 * Everything before serving runs under the start-up lock, so instances started together on one
 * database migrate and seed one after the other (the later ones find the work done).
 */
async function prepareDatabase(): Promise<void> {
  // Production never creates its database: that is the setup command's job (ADR 16).
  if (production) await assertDatabaseInstalled(env.DATABASE_URL, describeDatabase(env.DATABASE_URL));
  await withStartupLock(env.DATABASE_URL, async () => {
    const applied = await applyPendingMigrations(env.DATABASE_URL);
    if (applied.length > 0) console.log(`Applied ${applied.length} migration(s): ${applied.join(", ")}`);
    await refreshSearchTextAfter(env.DATABASE_URL, applied, console.log);
    const db = createDatabase(env.DATABASE_URL);
    try {
      if (await isDatabaseEmpty(db)) {
        if (production) throw new InstallationError(ORGANIZATION_MISSING);
        // Development starts with the demo world (`npm run db:seed` seeds it anywhere on request).
        const password = env.SEED_PASSWORD ?? DEFAULT_DEVELOPMENT_PASSWORD;
        await seedDemoWorld(db, { password });
        console.log("Seeded the demo world. Demo logins:");
        for (const login of DEMO_LOGINS) console.log(`  ${login.email.padEnd(24)} ${login.role}`);
        console.log(env.SEED_PASSWORD ? "  password: the value of SEED_PASSWORD" : `  password: ${password}`);
      }
      await verifyEncryptionKey(db);
    } finally {
      await db.$disconnect();
    }
  });
}

try {
  await prepareDatabase();
} catch (error) {
  if (!(error instanceof InstallationError)) throw error;
  console.error(error.message);
  process.exit(1);
}

if (!development && !existsSync(path.resolve(root, process.env.BUILD_DIR ?? "build", "server/index.js"))) {
  console.log("No build found: building the app first (npm run build)…");
  const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit", cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { startServer, stopOnSignals } = await import("./main.ts");
const running = await startServer({
  port: env.PORT,
  trustProxy: env.TRUST_PROXY,
  accessLog: env.ACCESS_LOG,
  loadShedding: {
    maxWaitMs: env.LOAD_SHED_MAX_WAIT_MS ?? env.LOAD_SHED_LAG_MS ?? 1000,
    maxInFlight: env.LOAD_SHED_MAX_IN_FLIGHT,
    maxConnections: env.LOAD_SHED_MAX_CONNECTIONS,
    maxReceivingPerAddress: env.BODIES_IN_TRANSIT_PER_ADDRESS,
  },
  shutdownTimeoutSeconds: env.SHUTDOWN_TIMEOUT,
  pdfWorkers: env.PDF_WORKERS,
  exportWorkers: env.EXPORT_WORKERS,
  databaseUrl: env.DATABASE_URL,
  app: development ? "vite" : "build",
});
stopOnSignals(running);
const served = development ? "the source through Vite, edits apply without a restart; " : "";
console.log(`Assessment Service listening on http://localhost:${env.PORT} (${served}links use ${env.APP_URL})`);
