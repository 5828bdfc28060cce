import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// The app's modules it imports name each other by `~/` (the app's tsconfig paths); the drivers
// stay outside the server bundle, as in the app's own build (vite.config.ts at the root).
export default defineConfig({
  plugins: [reactRouter()],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "../../../app") } },
  ssr: { external: ["better-sqlite3", "pg", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg"] },
});
