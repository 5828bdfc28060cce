import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/**
 * Debian's Chromium, driven by playwright-core; no browser is ever downloaded. `.ci/run` installs
 * it; elsewhere `apt-get install chromium` (or set CHROMIUM_PATH).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` or set CHROMIUM_PATH.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Without the background-networking flags Chromium keeps trying to reach Google's hosts.
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}
