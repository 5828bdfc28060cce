import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyPendingMigrations, providerOf } from "../../server/database/migrations.ts";
import { refreshSearchTextAfter } from "../../server/database/search-text.ts";
import { createTestDatabase } from "./test-database.ts";

/**
 * The `services` project's databases: one per worker that may run its files, of the suite's kind
 * (TEST_DATABASE), each migrated as `npm start` migrates (server/start.ts), none seeded: every test
 * makes the organization it reads (tests/support/services.ts). They are the project's own, apart
 * from the database of the `http` project's server, and are dropped when the run ends (in watch
 * mode, when it stops).
 */
declare module "vitest" {
  export interface ProvidedContext {
    /** The database URL of each worker: VITEST_POOL_ID 1 uses the first. */
    servicesDatabases: string[];
    /** A folder of the run's own, for each worker's DATA_DIR. */
    servicesDataDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "assessment-services-"));
  // VITEST_POOL_ID goes from 1 to the largest number of workers the run may start.
  const workers = Math.max(project.globalConfig.maxWorkers, project.config.maxWorkers);
  const databases = await Promise.all(
    Array.from({ length: workers }, async (_, index) => {
      const database = await createTestDatabase(dataDir, `services_${index + 1}`);
      const applied = await applyPendingMigrations(database.url);
      await refreshSearchTextAfter(database.url, applied, console.log);
      return database;
    }),
  );
  project.provide(
    "servicesDatabases",
    databases.map((database) => database.url),
  );
  project.provide("servicesDataDir", dataDir);
  // Vitest exits without the teardown when the run is stopped by a signal or another project's
  // global setup refuses it (the http project refuses watch mode): the databases go all the same.
  const removeOnExit = () =>
    removeNow(
      dataDir,
      databases.map((database) => database.url),
    );
  process.once("exit", removeOnExit);
  return async () => {
    process.off("exit", removeOnExit);
    await Promise.all(databases.map((database) => database.drop()));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

/** What the teardown removes, done from an `exit` listener, where only synchronous work runs. */
function removeNow(dataDir: string, urls: string[]) {
  rmSync(dataDir, { recursive: true, force: true });
  const postgres = urls.filter((url) => providerOf(url) === "postgresql");
  if (postgres.length === 0) return;
  spawnSync(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "drop-test-databases.ts"), ...postgres], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    stdio: "inherit",
    timeout: 30_000,
  });
}
