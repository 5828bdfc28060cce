import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../app/lib/db.server.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { TEST_ENCRYPTION_KEY } from "../support/global-setup.ts";
import { createTestDatabase } from "../support/test-database.ts";
import { startInstance, type Instance } from "../support/instance.ts";

/**
 * Installing and starting the service as an operator does (ADR 16): production refuses what would
 * silently go wrong (no SMTP_URL, a database that does not exist, another ENCRYPTION_KEY), never
 * seeds demo data, and `npm run setup` creates a working first administrator. Instances started
 * together on one empty database all come up.
 */
const root = path.resolve(import.meta.dirname, "../..");
const PRODUCTION = {
  NODE_ENV: "production",
  SESSION_SECRET: "an-operator-chosen-session-secret-of-enough-length",
  ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  SMTP_URL: "smtp://127.0.0.1:9",
};
const cleanup: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function scratchDatabase() {
  const database = await createTestDatabase(mkdtempSync(path.join(tmpdir(), "assessment-install-")));
  cleanup.push(database.drop);
  return database.url;
}

function run(script: string, args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "assessment-data-")), ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function started(databaseUrl: string, env: Record<string, string>): Promise<Instance> {
  const instance = await startInstance({ databaseUrl, env });
  cleanup.push(instance.stop);
  return instance;
}

describe("production start-up", { timeout: 180_000 }, () => {
  it("given no SMTP_URL, should exit with a message naming it", async () => {
    const { SMTP_URL: _, ...withoutSmtp } = PRODUCTION;
    const result = run("server/start.ts", [], { ...withoutSmtp, SMTP_URL: "", DATABASE_URL: await scratchDatabase(), PORT: String(await freePort()) });
    expect(result.status).toBe(1);
    expect(result.output).toContain("SMTP_URL");
  });

  it("given a database that does not exist, should exit without creating it and point to the setup command", async () => {
    const mistyped = path.join(mkdtempSync(path.join(tmpdir(), "assessment-typo-")), "dta", "app.db");
    const result = run("server/start.ts", [], { ...PRODUCTION, DATABASE_URL: `file:${mistyped}`, PORT: String(await freePort()) });
    expect(result.status).toBe(1);
    expect(result.output).toContain("npm run setup");
    expect(existsSync(path.dirname(mistyped))).toBe(false);

    const empty = run("server/start.ts", [], { ...PRODUCTION, DATABASE_URL: await scratchDatabase(), PORT: String(await freePort()) });
    expect(empty.status).toBe(1);
    expect(empty.output).toContain("npm run setup");
  });

  it("given the setup command, should create the organization and an administrator who signs in, and no demo data", async () => {
    const databaseUrl = await scratchDatabase();
    const setup = run(
      "scripts/setup.ts",
      [
        "--org",
        "Escola Aurora",
        "--admin-email",
        "Ana@Aurora.example",
        "--time-zone",
        "America/Sao_Paulo",
        "--name",
        "Ana Souza",
        "--language",
        "pt-BR",
        "--print-link",
      ],
      { ...PRODUCTION, DATABASE_URL: databaseUrl },
    );
    expect(setup.status, setup.output).toBe(0);
    const link = /https?:\/\/\S+\/pt-BR\/reset-password\?token=(\S+)/.exec(setup.output);
    expect(link, setup.output).not.toBeNull();
    // A kind that is neither a school nor a clinic is refused before anything is written.
    const hospital = run(
      "scripts/setup.ts",
      ["--org", "Other", "--admin-email", "x@aurora.example", "--time-zone", "UTC", "--kind", "hospital", "--print-link"],
      {
        ...PRODUCTION,
        DATABASE_URL: databaseUrl,
      },
    );
    expect(hospital.status).toBe(1);
    expect(hospital.output).toContain("--kind: must be school or clinic");
    // A second setup on the same database is refused.
    const again = run("scripts/setup.ts", ["--org", "Other", "--admin-email", "x@aurora.example", "--time-zone", "UTC", "--print-link"], {
      ...PRODUCTION,
      DATABASE_URL: databaseUrl,
    });
    expect(again.status).toBe(1);
    expect(again.output).toContain("already has an organization");

    const instance = await started(databaseUrl, PRODUCTION);
    expect(instance.output()).not.toContain("Demo");
    const password = "a-long-and-private-passphrase-2026";
    const reset = await fetch(`${instance.baseUrl}/api/auth/reset-password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: decodeURIComponent(link![1]!), password }),
    });
    expect(reset.status, await reset.clone().text()).toBe(200);

    const csrf = await fetch(`${instance.baseUrl}/api/auth/csrf`);
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signIn = await fetch(`${instance.baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: csrfCookie },
      body: JSON.stringify({ email: "ana@aurora.example", password, csrfToken }),
    });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const session = signIn.headers.getSetCookie()[0]!.split(";")[0]!;
    const me = await (await fetch(`${instance.baseUrl}/api/user/profile`, { headers: { cookie: session } })).json();
    expect(me).toMatchObject({ email: "ana@aurora.example", name: "Ana Souza", role: "ADMIN", organization: { name: "Escola Aurora" } });

    const db = createDatabase(databaseUrl);
    try {
      expect(await db.organization.findMany({ select: { name: true, timeZone: true, kind: true } })).toEqual([
        { name: "Escola Aurora", timeZone: "America/Sao_Paulo", kind: "SCHOOL" },
      ]);
      expect(await db.student.count()).toBe(0);
      expect(await db.submission.count()).toBe(0);
    } finally {
      await db.$disconnect();
    }
    await instance.stop();

    // Started again with another ENCRYPTION_KEY (a restore without its key): a clear refusal.
    const wrongKey = run("server/start.ts", [], {
      ...PRODUCTION,
      ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
      DATABASE_URL: databaseUrl,
      PORT: String(await freePort()),
    });
    expect(wrongKey.status).toBe(1);
    expect(wrongKey.output).toContain("ENCRYPTION_KEY is not the key this database was set up with");
  });
});

describe("a clinic's installation", { timeout: 180_000 }, () => {
  it("given --kind clinic, should create the organization as a clinic", async () => {
    const databaseUrl = await scratchDatabase();
    const setup = run(
      "scripts/setup.ts",
      ["--org", "Clínica Mar", "--admin-email", "rui@mar.example", "--time-zone", "Europe/Lisbon", "--kind", "Clinic", "--print-link"],
      { ...PRODUCTION, DATABASE_URL: databaseUrl },
    );
    expect(setup.status, setup.output).toBe(0);
    expect(setup.output).toContain('Created "Clínica Mar" (a clinic, Europe/Lisbon)');
    const db = createDatabase(databaseUrl);
    try {
      expect(await db.organization.findMany({ select: { name: true, kind: true } })).toEqual([{ name: "Clínica Mar", kind: "CLINIC" }]);
    } finally {
      await db.$disconnect();
    }
  });
});

describe("development start-up", { timeout: 180_000 }, () => {
  // SQLite whatever the suite's database: the default `npm install && npm start` path.
  it("given a SQLite path whose folder does not exist yet (a fresh checkout), should create it and seed the demo world", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "assessment-fresh-")), "data", "app.db");
    const instance = await started(`file:${file}`, {});
    expect(instance.output()).toContain("Seeded the demo world");
    expect(existsSync(file)).toBe(true);
  });
});

describe("instances started together", { timeout: 240_000 }, () => {
  it("given two instances started at once on one empty database, should bring both up with one demo world", async () => {
    const databaseUrl = await scratchDatabase();
    const [first, second] = await Promise.all([started(databaseUrl, {}), started(databaseUrl, {})]);
    for (const instance of [first, second]) expect((await fetch(`${instance.baseUrl}/healthz`)).status).toBe(200);
    const db = createDatabase(databaseUrl);
    try {
      expect(await db.organization.count({ where: { name: "Demo School" } })).toBe(1);
    } finally {
      await db.$disconnect();
    }
  });
});
