import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { availableParallelism } from "node:os";
import { z } from "zod";

/**
 * The service's configuration, read once from the environment and validated at start-up so a bad
 * value stops the process with a message naming the variable instead of failing later.
 */
const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["1", "0", "true", "false", "yes", "no", ""]))
  .transform((value) => value === "1" || value === "true" || value === "yes");

/**
 * The background jobs' lease and its renewal (app/features/jobs/jobs.server.ts, ADR 46): an instance
 * that dies frees its jobs within the lease; while a job runs, its instance renews the lease every
 * heartbeat, so a slow mail server or endpoint never gets a second copy from another instance.
 */
export const DEFAULT_JOB_LEASE_MS = 60_000;
export const DEFAULT_JOB_HEARTBEAT_MS = 15_000;

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .trim()
      .regex(/^(file:|postgres:\/\/|postgresql:\/\/)/, "must start with file:, postgres:// or postgresql://")
      .default("file:./data/app.db"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_URL: z.url({ protocol: /^https?$/ }).optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    SESSION_MAX_AGE: z.coerce
      .number()
      .int()
      .min(60)
      .default(30 * 24 * 60 * 60),
    SEED_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
    TRUST_PROXY: booleanFlag.default(false),
    /**
     * Load shedding (server/load-shedding.ts): how long a request may have waited to be served, and
     * how many may be in progress, before new ones get 503 (server/start.ts: a wait of 1 s by
     * default). LOAD_SHED_LAG_MS is the wait's former name (it measured the event loop's lag
     * alone), still read when the new one is not set.
     */
    LOAD_SHED_MAX_WAIT_MS: z.coerce.number().int().min(10).max(60_000).optional(),
    LOAD_SHED_LAG_MS: z.coerce.number().int().min(10).max(60_000).optional(),
    LOAD_SHED_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(64),
    /** Connections open at once; a connection past it is answered 503 and closed (server/main.ts). */
    LOAD_SHED_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(5000),
    /** Requests from one client address whose bodies may be arriving at once; past it, 429. */
    BODIES_IN_TRANSIT_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(32),
    /** Seconds SIGTERM waits for requests in progress before closing their connections. */
    SHUTDOWN_TIMEOUT: z.coerce.number().int().min(0).max(600).default(10),
    /** Worker threads that render report PDFs (server/pdf-pool.ts); default: the cores but one. */
    PDF_WORKERS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(Math.max(1, availableParallelism() - 1)),
    /** Reports exports (CSV, XLSX) made at once, each in a worker thread of its own (ADR 34); more wait in line. */
    EXPORT_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
    /** How often this instance looks for due background jobs, e-mails of links (ADR 20). */
    JOB_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
    /**
     * The job lease and how often a running job renews it. An operator lengthens the lease when the
     * database may be unreachable for longer than it (a failover): renewals fail meanwhile, and a
     * lease that runs out lets another instance send the same e-mail again. A shorter lease frees
     * a crashed instance's jobs sooner, at the cost of more frequent renewals; tests use a lease of
     * seconds to watch several of them go by.
     */
    JOB_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(DEFAULT_JOB_LEASE_MS),
    JOB_HEARTBEAT_MS: z.coerce.number().int().min(100).max(1_800_000).default(DEFAULT_JOB_HEARTBEAT_MS),
    /**
     * E-mails a staff user's actions may queue (links, reminders; ADR 45): per organization in 24
     * hours, and per user in an hour. Sign-in codes, reset links and invitations are not counted.
     */
    MAIL_QUOTA_ORGANIZATION_PER_DAY: z.coerce.number().int().min(1).max(10_000_000).default(2000),
    MAIL_QUOTA_USER_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(500),
    /**
     * Submits from public test links one client address may make in 10 minutes (ADR 47); draft
     * saves get ten times as many. Each link has its own, tight limit besides.
     */
    TEST_LINK_SUBMITS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000_000).default(5000),
    /**
     * Lets webhooks post to loopback, private and link-local addresses. Off: an endpoint that is, or
     * resolves to, such an address is refused (ADR 30). For development and tests only.
     */
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: booleanFlag.default(false),
    /** One line per request on standard output (server/access-log.ts). */
    ACCESS_LOG: booleanFlag.default(true),
    /** 32 bytes, base64 or hex: encrypts second-factor secrets at rest. */
    ENCRYPTION_KEY: z
      .string()
      .refine((value) => decodeKey(value) !== null, "must be 32 bytes, base64 or hex encoded")
      .optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
    MAIL_FROM: z.string().min(3).default("Assessment Service <no-reply@localhost>"),
    OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_PROVIDER_NAME: z.string().min(1).default("your organization's account"),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required in production" });
    }
    if (env.NODE_ENV === "production" && !env.ENCRYPTION_KEY) {
      ctx.addIssue({ code: "custom", path: ["ENCRYPTION_KEY"], message: "is required in production" });
    }
    // Without it sign-in codes, reset links and invitations would go nowhere.
    if (env.NODE_ENV === "production" && !env.SMTP_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SMTP_URL"],
        message: "is required in production (smtp://… or smtps://…): codes, reset links and invitations are e-mailed",
      });
    }
    // A renewal that comes late (a slow database, a busy event loop) must not lose the lease.
    if (env.JOB_HEARTBEAT_MS * 2 > env.JOB_LEASE_MS) {
      ctx.addIssue({ code: "custom", path: ["JOB_HEARTBEAT_MS"], message: "must be at most half of JOB_LEASE_MS, so that a lease is renewed at least twice" });
    }
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["OIDC_ISSUER"],
        message: "set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none of them",
      });
    }
  });

export type Env = z.infer<typeof envSchema> & {
  APP_URL: string;
  SESSION_SECRET: string;
  /** The decoded ENCRYPTION_KEY (or the generated development key). */
  encryptionKey: Buffer;
  /** Absolute path of the data folder (SQLite file, generated secrets, outgoing mail in development). */
  dataDir: string;
  databaseProvider: "sqlite" | "postgresql";
};

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty variables count as unset, as a shell user would expect from `FOO= npm start`.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "environment"}: ${issue.message}`);
    throw new ConfigurationError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    dataDir,
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    SESSION_SECRET: env.SESSION_SECRET ?? readOrCreateSecret(dataDir, "session-secret"),
    encryptionKey: decodeKey(env.ENCRYPTION_KEY ?? readOrCreateSecret(dataDir, "encryption-key"))!,
    databaseProvider: /^postgres(ql)?:\/\//.test(env.DATABASE_URL) ? "postgresql" : "sqlite",
  };
}

/** A 32-byte key given as base64, base64url or hex; null when it is anything else. */
function decodeKey(value: string): Buffer | null {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  const decoded = Buffer.from(trimmed, /[-_]/.test(trimmed) ? "base64url" : "base64");
  return decoded.length === 32 ? decoded : null;
}

/** Outside production a missing secret is generated once and kept in the data folder. */
function readOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
