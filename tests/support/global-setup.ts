import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_PROVIDER_NAME, startOidcProvider } from "./oidc-provider.ts";
import { startSmtpServer } from "./smtp-server.ts";
import { secretsInLog } from "./log-secrets.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { waitUntil } from "./wait.ts";
import { createTestDatabase } from "./test-database.ts";

/**
 * Starts the real service for the whole suite: a fresh database (a SQLite file, or a PostgreSQL
 * database when TEST_DATABASE=postgresql), migrated and seeded by `server/start.ts` exactly as
 * `npm start` does, and the built app serving HTTP on a free port. Tests talk to it over HTTP.
 */
export const SEED_PASSWORD = "test-seed-password";
/** The suite's ENCRYPTION_KEY: every instance started on the suite's database must use the same (ADR 16). */
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");
const root = path.resolve(import.meta.dirname, "../..");

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    seedPassword: string;
    sessions: Record<string, string>;
    /** The CSRF cookie and token that go with each demo session (for X-CSRF-Token). */
    csrf: Record<string, { cookie: string; token: string }>;
    /** Folder where the loopback SMTP server stores what the app sends (see tests/support/mail.ts). */
    smtpInbox: string;
    smtpUrl: string;
    /** The loopback OpenID provider the service signs in with (see tests/support/oidc-provider.ts). */
    oidcIssuer: string;
    /** The server's process id, to measure its memory. */
    serverPid: number;
    /** Everything the server has written to standard output and error so far. */
    serverLog: string;
  }
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string) {
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${output()}`);
      // Refused until it listens.
      return fetch(`${baseUrl}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
    },
    () => `the server to become healthy:\n${output()}`,
    { timeoutMs: 90_000, everyMs: 200 },
  );
}

/** Signs in like a script: CSRF token first, then the credentials (the suite's server, or another instance). */
export async function signIn(baseUrl: string, email: string, password = SEED_PASSWORD): Promise<{ session: string; csrfCookie: string; csrfToken: string }> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie },
    body: JSON.stringify({ email, password, csrfToken }),
  });
  if (response.status !== 200) throw new Error(`Sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  return { session: response.headers.getSetCookie()[0]!.split(";")[0]!, csrfCookie, csrfToken };
}

export const DEMO_USERS = [
  "superadmin@demo.test",
  "admin@demo.test",
  "teacher@demo.test",
  "teacher2@demo.test",
  "student@demo.test",
  "admin@other.test",
  "teacher@other.test",
];

/**
 * Watch mode would rerun these files against the server built when it started: a change to a
 * service or a loader would then pass or fail on the old code. Refused, with what to run instead.
 */
const WATCH_REFUSED =
  "The HTTP tests run against a built server, which watch mode would not rebuild: a rerun would test the old code. " +
  "Run them with `npx vitest run` (add a file path to run one), or watch the services and the pure functions, " +
  "which run in the test process on the code as saved, with `npx vitest --project services --project unit`.";

export default async function setup(project: TestProject) {
  if (project.globalConfig.watch) throw new Error(WATCH_REFUSED);
  if (process.env.TEST_SKIP_BUILD !== "1") {
    const { VITEST: _, VITEST_MODE: __, ...buildEnv } = process.env;
    const build = spawnSync("npx", ["react-router", "build"], {
      cwd: root,
      encoding: "utf8",
      // Vitest sets NODE_ENV=test, which would give a development build of React.
      env: { ...buildEnv, NODE_ENV: "production" },
    });
    if (build.status !== 0) throw new Error(`Build failed:\n${build.stdout}\n${build.stderr}`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "assessment-test-"));
  const database = await createTestDatabase(dataDir);
  const smtpInbox = path.join(dataDir, "smtp-inbox");
  const smtp = await startSmtpServer(smtpInbox);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The provider must answer discovery before the service's first OpenID sign-in.
  const oidc = await startOidcProvider(baseUrl);
  const serverLog = path.join(dataDir, "server.log");
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "server/start.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      APP_URL: baseUrl,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SEED_PASSWORD,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      // Tests choose their client address with X-Forwarded-For to exercise per-IP limits.
      TRUST_PROXY: "true",
      // The suite shares two cores with its browsers and PDF workers: a busy moment is not
      // overload here (load shedding has its own tests, with their own limits).
      LOAD_SHED_MAX_WAIT_MS: "60000",
      // Files run side by side: one file's 50 concurrent submits plus another's 40 sign-ups once
      // passed 64 requests in progress and shed a third file's request with 503.
      LOAD_SHED_MAX_IN_FLIGHT: "10000",
      // The webhook tests' receivers listen on loopback (ADR 30); a test instance checks the refusal.
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true",
      // Queued e-mails go out within a tenth of a second, so tests wait for them only briefly.
      JOB_POLL_MS: "100",
      // Every file e-mails as the same demo teacher and organization: the quotas (ADR 45) would
      // refuse a whole run's links. tests/api/mail-quotas.test.ts starts an instance with small ones.
      MAIL_QUOTA_ORGANIZATION_PER_DAY: "10000000",
      MAIL_QUOTA_USER_PER_HOUR: "10000000",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Assessment Service <no-reply@assessment.test>",
      OIDC_ISSUER: oidc.issuer,
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
      OIDC_PROVIDER_NAME,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const record = (chunk: Buffer) => {
    output += chunk;
    appendFileSync(serverLog, chunk);
  };
  child.stdout!.on("data", record);
  child.stderr!.on("data", record);
  await waitForHealth(baseUrl, child, () => output);

  const sessions: Record<string, string> = {};
  const csrf: Record<string, { cookie: string; token: string }> = {};
  for (const email of DEMO_USERS) {
    const signedIn = await signIn(baseUrl, email);
    sessions[email] = signedIn.session;
    csrf[signedIn.session] = { cookie: signedIn.csrfCookie, token: signedIn.csrfToken };
  }

  project.provide("baseUrl", baseUrl);
  project.provide("databaseUrl", database.url);
  project.provide("seedPassword", SEED_PASSWORD);
  project.provide("sessions", sessions);
  project.provide("csrf", csrf);
  project.provide("smtpInbox", smtpInbox);
  project.provide("smtpUrl", `smtp://127.0.0.1:${smtp.port}`);
  project.provide("oidcIssuer", oidc.issuer);
  project.provide("serverPid", child.pid!);
  project.provide("serverLog", serverLog);

  return async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    if (process.env.TEST_SHOW_SERVER_LOG === "1") console.log(output);
    // Why a request got 503, if one did: the lines the server writes when it sheds load or loses the database.
    const unavailable = output.split("\n").filter((line) => /^\[(load|database)\]/.test(line));
    if (unavailable.length > 0) console.log(`The shared server answered 503 for a while:\n${unavailable.join("\n")}`);
    // The whole run's log may not hold a secret the run created (tests/support/log-secrets.ts).
    const leaks = await secretsInLog(database.url, output, smtpInbox);
    await smtp.close();
    await oidc.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    if (leaks.length > 0) throw new Error(`The server log holds ${leaks.length} secret(s):\n${leaks.join("\n")}`);
  };
}
