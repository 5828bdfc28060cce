import type { Config } from "@react-router/dev/config";

export default {
  // Server rendering: pages work without JavaScript and hydrate when it is there.
  ssr: true,
  // BUILD_DIR lets several checkouts' test runs build side by side without replacing each other's
  // assets; everything else uses the default.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
