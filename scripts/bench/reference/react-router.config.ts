import type { Config } from "@react-router/dev/config";

// The reference app of the bench (./server.ts): server rendering as the app has it, built where
// the bench asks (BUILD_DIR, under data/bench/), never into the source tree.
export default {
  ssr: true,
  buildDirectory: process.env.BUILD_DIR ?? "../../../data/bench/reference-build",
} satisfies Config;
