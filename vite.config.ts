import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Vitest runs the API tests against the built server over HTTP, so it needs no app plugins.
  plugins: process.env.VITEST ? [] : [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  // Native and driver packages stay outside the server bundle.
  ssr: { external: ["better-sqlite3", "pg", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg"] },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    // Two files at a time: most of a file's time is spent waiting on the server or on Chromium, so
    // two keep both cores of these machines busy (measured: 6 min 36 s one at a time, 5 min two).
    maxWorkers: 2,
    projects: [
      // Pure functions: no database, no server, so `vitest run --project unit` starts in a second.
      { test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        // Services and loaders imported and called in the test process, each worker on a database
        // of its own (tests/support/services-setup.ts): no build, no server, so watch mode reruns
        // them on the code just saved (ADR 63).
        test: {
          name: "services",
          include: ["tests/services/**/*.test.ts"],
          globalSetup: ["tests/support/services-setup.ts"],
          setupFiles: ["tests/support/services-worker.ts"],
          // A worker runs its files one after another in one module graph, with the Prisma client
          // already warm: 7 s for the project instead of 17 s with a fresh worker per file. Each
          // test makes its own organization, so what one file leaves cannot change another's.
          isolate: false,
        },
      },
      {
        test: {
          name: "http",
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/unit/**", "tests/services/**"],
          // Every other test file talks to the one server the global setup builds and starts.
          globalSetup: ["tests/support/global-setup.ts"],
          // expect.poll waits for a page to settle; Vitest's default of 1 s was too short on a
          // loaded two-core machine (CI on PostgreSQL, 2026-11-28: a new group's heading and a
          // date error each appeared after it). A passing poll returns as soon as it passes.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
