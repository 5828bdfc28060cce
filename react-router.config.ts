import type { Config } from "@react-router/dev/config";

export default {
  // Server rendering: pages work without JavaScript and hydrate when it is there.
  ssr: true,
} satisfies Config;
