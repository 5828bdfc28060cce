import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, parseEnv } from "../../app/lib/env.server.ts";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "env-test-"));

describe("parseEnv", () => {
  it("given nothing, should default to SQLite on port 3000 and keep a generated session secret", () => {
    const dir = dataDir();
    const env = parseEnv({ DATA_DIR: dir });
    expect(env).toMatchObject({ DATABASE_URL: "file:./data/app.db", PORT: 3000, APP_URL: "http://localhost:3000", databaseProvider: "sqlite" });
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, "session-secret"), "utf8").trim()).toBe(env.SESSION_SECRET);
    expect(parseEnv({ DATA_DIR: dir }).SESSION_SECRET).toBe(env.SESSION_SECRET);
  });

  it("given a PostgreSQL URL, should choose PostgreSQL", () => {
    expect(parseEnv({ DATA_DIR: dataDir(), DATABASE_URL: "postgresql://u@h/db" }).databaseProvider).toBe("postgresql");
  });

  it("given bad values, should name each variable in one message", () => {
    const attempt = () => parseEnv({ DATA_DIR: dataDir(), PORT: "eighty", DATABASE_URL: "mysql://x", APP_URL: "not a url", SESSION_SECRET: "short" });
    expect(attempt).toThrow(ConfigurationError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ["PORT", "DATABASE_URL", "APP_URL", "SESSION_SECRET"]) expect(message).toContain(`${name}:`);
    }
  });

  it("given the e-mail quotas, should default to 2,000 a day per organization and 500 an hour per user, and refuse a limit that is not a positive whole number", () => {
    expect(parseEnv({ DATA_DIR: dataDir() })).toMatchObject({ MAIL_QUOTA_ORGANIZATION_PER_DAY: 2000, MAIL_QUOTA_USER_PER_HOUR: 500 });
    expect(parseEnv({ DATA_DIR: dataDir(), MAIL_QUOTA_ORGANIZATION_PER_DAY: "50", MAIL_QUOTA_USER_PER_HOUR: "5" })).toMatchObject({
      MAIL_QUOTA_ORGANIZATION_PER_DAY: 50,
      MAIL_QUOTA_USER_PER_HOUR: 5,
    });
    expect(() => parseEnv({ DATA_DIR: dataDir(), MAIL_QUOTA_ORGANIZATION_PER_DAY: "0", MAIL_QUOTA_USER_PER_HOUR: "lots" })).toThrow(
      /MAIL_QUOTA_ORGANIZATION_PER_DAY:[\s\S]*MAIL_QUOTA_USER_PER_HOUR:/,
    );
  });

  it("given the job lease and its renewal, should default to 60 s and 15 s, and refuse a renewal less often than twice a lease", () => {
    expect(parseEnv({ DATA_DIR: dataDir() })).toMatchObject({ JOB_LEASE_MS: 60_000, JOB_HEARTBEAT_MS: 15_000 });
    expect(parseEnv({ DATA_DIR: dataDir(), JOB_LEASE_MS: "2000", JOB_HEARTBEAT_MS: "500" })).toMatchObject({ JOB_LEASE_MS: 2000, JOB_HEARTBEAT_MS: 500 });
    expect(() => parseEnv({ DATA_DIR: dataDir(), JOB_LEASE_MS: "20000" })).toThrow(/JOB_HEARTBEAT_MS: must be at most half of JOB_LEASE_MS/);
    expect(() => parseEnv({ DATA_DIR: dataDir(), JOB_LEASE_MS: "10" })).toThrow(/JOB_LEASE_MS:/);
  });

  it("given production without SESSION_SECRET, should refuse to start", () => {
    expect(() => parseEnv({ DATA_DIR: dataDir(), NODE_ENV: "production" })).toThrow(/SESSION_SECRET: is required in production/);
  });
});
