import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { completeMedium } from "../support/assessment.ts";
import { createTestDatabase } from "../support/test-database.ts";
import { startInstance, type Instance } from "../support/instance.ts";

/**
 * The backup and restore of the README's production section (ADR 16): a backup of the serving
 * suite database, restored into a new database, serves the same report from a new instance.
 */
const root = path.resolve(import.meta.dirname, "../..");
const cleanup: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function run(mode: "backup" | "restore", file: string, databaseUrl: string) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/backup.ts", mode, file], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function signIn(instance: Instance, email: string): Promise<string> {
  const csrf = await fetch(`${instance.baseUrl}/api/auth/csrf`);
  const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${instance.baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ email, password: inject("seedPassword"), csrfToken }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

describe("backup and restore", { timeout: 240_000 }, () => {
  it("given a backup of the serving database restored into a new one, should serve the same report from a new instance", async () => {
    const { submit, student } = await completeMedium("teacher@demo.test");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "assessment-backup-")), "backup.bin");

    const backup = run("backup", file, inject("databaseUrl"));
    expect(backup.status, backup.output).toBe(0);
    // A backup never overwrites a file.
    expect(run("backup", file, inject("databaseUrl")).status).toBe(1);

    const restored = await createTestDatabase(mkdtempSync(path.join(tmpdir(), "assessment-restored-")));
    cleanup.push(restored.drop);
    const restore = run("restore", file, restored.url);
    expect(restore.status, restore.output).toBe(0);
    // Never over an existing database.
    expect(run("restore", file, restored.url).status).toBe(1);

    const instance = await startInstance({ databaseUrl: restored.url });
    cleanup.push(instance.stop);
    const cookie = await signIn(instance, "teacher@demo.test");
    const report = await fetch(`${instance.baseUrl}/api/reports/${submit.submissionId}`, { headers: { cookie } });
    expect(report.status).toBe(200);
    const body = (await report.json()) as { id: string; totalScore: number; respondent: { name: string } };
    expect(body).toMatchObject({ id: submit.submissionId, totalScore: 1, respondent: { name: student.name } });
  });
});
