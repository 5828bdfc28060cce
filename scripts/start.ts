import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { assertNodeVersion } from "./lib/node-version.ts";

/**
 * `npm start`: validates the configuration, applies pending migrations, builds the app when no
 * build exists, seeds the demo world into an empty database, and serves on PORT.
 */
assertNodeVersion();

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

const { applyPendingMigrations } = await import("./lib/migrations.ts");
const applied = await applyPendingMigrations(env.DATABASE_URL);
if (applied.length > 0) console.log(`Applied ${applied.length} migration(s): ${applied.join(", ")}`);
const { refreshSearchTextAfter } = await import("./lib/search-text.ts");
await refreshSearchTextAfter(env.DATABASE_URL, applied, console.log);

if (!existsSync(path.resolve(root, process.env.BUILD_DIR ?? "build", "server/index.js"))) {
  console.log("No build found: building the app first (npm run build)…");
  const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit", cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { createDatabase } = await import("../app/lib/db.server.ts");
const { DEMO_LOGINS, isDatabaseEmpty, seedDemoWorld } = await import("./lib/seed.ts");
const { DEFAULT_DEVELOPMENT_PASSWORD } = await import("../app/lib/auth/credentials.server.ts");
const seedDb = createDatabase(env.DATABASE_URL);
if (await isDatabaseEmpty(seedDb)) {
  const production = env.NODE_ENV === "production";
  // The development password is refused at login in production, so a first production start
  // without SEED_PASSWORD gets a random one, shown once.
  const password = env.SEED_PASSWORD ?? (production ? randomBytes(12).toString("base64url") : DEFAULT_DEVELOPMENT_PASSWORD);
  await seedDemoWorld(seedDb, { password });
  console.log("Seeded the demo world.");
  if (!production || !env.SEED_PASSWORD) {
    console.log("Demo logins:");
    for (const login of DEMO_LOGINS) console.log(`  ${login.email.padEnd(24)} ${login.role}`);
    if (!env.SEED_PASSWORD) console.log(`  password: ${password}${production ? "   (shown once; store it now)" : ""}`);
    else console.log("  password: the value of SEED_PASSWORD");
  }
}
await seedDb.$disconnect();

const { startServer, stopOnSignals } = await import("./server.ts");
const running = await startServer({
  port: env.PORT,
  trustProxy: env.TRUST_PROXY,
  accessLog: env.ACCESS_LOG,
  loadShedding: { maxLagMs: env.LOAD_SHED_LAG_MS, maxInFlight: env.LOAD_SHED_MAX_IN_FLIGHT },
  shutdownTimeoutSeconds: env.SHUTDOWN_TIMEOUT,
});
stopOnSignals(running);
console.log(`Assessment Service listening on http://localhost:${env.PORT} (links use ${env.APP_URL})`);
