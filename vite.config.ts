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
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every test file talks to the one server started by the global setup.
    fileParallelism: true,
  },
});
