import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { TEST_ENCRYPTION_KEY } from "./global-setup.ts";
import { waitUntil } from "./wait.ts";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Another instance of the service, started as `npm start` starts it (server/start.ts, or `npm
 * start` itself) or as `npm run dev` does, on the suite's database unless told otherwise: for what
 * needs its own process (signals, load shedding, a database that goes away, the development server).
 */
export type Instance = {
  baseUrl: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  stop: () => Promise<void>;
};

const COMMANDS = {
  "start.ts": [process.execPath, ["--import", "tsx", "server/start.ts"]],
  "npm start": ["npm", ["start", "--silent"]],
  "npm run dev": ["npm", ["run", "dev", "--silent"]],
} as const;

export async function startInstance(
  options: { env?: Record<string, string>; databaseUrl?: string; command?: keyof typeof COMMANDS; waitForHealth?: boolean; port?: number } = {},
): Promise<Instance> {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "assessment-instance-"));
  const env = {
    ...process.env,
    NODE_ENV: "test",
    PORT: String(port),
    APP_URL: baseUrl,
    DATABASE_URL: options.databaseUrl ?? inject("databaseUrl"),
    DATA_DIR: dataDir,
    SEED_PASSWORD: inject("seedPassword"),
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    TRUST_PROXY: "true",
    SMTP_URL: "smtp://127.0.0.1:9",
    // Its job worker stays idle unless a test wants it: it must not take the suite's e-mails to a
    // mail server that is not there.
    JOB_POLL_MS: "600000",
    // As for the suite's own server: a machine busy with the other test files lags its event loop
    // past the default 300 ms, and a new instance would shed the test's requests (seen: a 503 in
    // the backup test during a full run). Tests of shedding set their own limits.
    LOAD_SHED_MAX_WAIT_MS: "60000",
    // As for the suite's server: the demo users' e-mail counts are shared by every test file.
    MAIL_QUOTA_ORGANIZATION_PER_DAY: "10000000",
    MAIL_QUOTA_USER_PER_HOUR: "10000000",
    ...options.env,
  };
  const [command, args] = COMMANDS[options.command ?? "start.ts"];
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const instance: Instance = {
    baseUrl,
    port,
    process: child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
  if (options.waitForHealth !== false) await waitUntilHealthy(instance);
  return instance;
}

export async function waitUntilHealthy(instance: Instance, timeoutMs = 90_000): Promise<void> {
  await waitUntil(
    async () => {
      if (instance.process.exitCode !== null) throw new Error(`The instance exited (${instance.process.exitCode}):\n${instance.output()}`);
      return fetch(`${instance.baseUrl}/healthz`).then(
        (response) => response.status === 200,
        () => false,
      );
    },
    () => `the instance to become healthy:\n${instance.output()}`,
    { timeoutMs },
  );
}
