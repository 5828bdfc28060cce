import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from "playwright-core";
import { baseUrl } from "./api.ts";

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

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * A browser context signed in with a session cookie the suite already holds (the global setup's
 * demo users, or a user a test made): no test pays for the sign-in form it is not about.
 */
export async function signedInContext(browser: Browser, sessionCookie: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const [name, ...value] = sessionCookie.split("=");
  await context.addCookies([{ name: name!, value: value.join("="), url: baseUrl() }]);
  return context;
}

/** One Chromium for a test file: launched before its tests, closed after them. */
export function sharedBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("The browser is launched before the file's tests run.");
    return browser;
  };
}

/**
 * Where what the browser tests saw is kept to be looked at, when asked for:
 * `SCREENSHOT_DIR=/tmp/shots npx vitest run tests/browser`. Unset (as in CI), nothing is captured:
 * a full-page capture is seconds of a busy machine's CPU that a test's verdict never reads.
 */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

/** The page (full length unless told) or the part of it, as `<name>.png` under SCREENSHOT_DIR. */
export async function screenshot(target: Page | Locator, name: string, { fullPage = true } = {}): Promise<void> {
  if (!SCREENSHOT_DIR) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, name.endsWith(".png") ? name : `${name}.png`);
  await ("goto" in target ? target.screenshot({ path: file, fullPage }) : target.screenshot({ path: file }));
}

/** A file the browser made (a printed PDF), kept under SCREENSHOT_DIR to be looked at. */
export function keepToLookAt(name: string, bytes: Uint8Array): void {
  if (!SCREENSHOT_DIR) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  writeFileSync(path.join(SCREENSHOT_DIR, name), bytes);
}
