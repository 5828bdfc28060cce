import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import PostalMime from "postal-mime";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { api } from "../support/api.ts";
import { signIn, TEST_ENCRYPTION_KEY } from "../support/global-setup.ts";
import { createTestDatabase } from "../support/test-database.ts";
import { startInstance } from "../support/instance.ts";
import { waitFor } from "../support/wait.ts";

/**
 * `npm run dev` is the production server with the app taken from the source through Vite (ADR
 * 58): on a fresh database it seeds the demo world and prints its logins, serves pages and the
 * browser's modules, and its job worker sends what the app queues (without SMTP_URL, as files in
 * the data folder).
 */
const root = path.resolve(import.meta.dirname, "../..");
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/**
 * What a developer's shell has: no NODE_ENV, SMTP_URL or SEED_PASSWORD, the default job polling,
 * and not Vitest's marker (which leaves the app's plugins out of vite.config.ts).
 */
const DEVELOPER = { NODE_ENV: "", SMTP_URL: "", SEED_PASSWORD: "", JOB_POLL_MS: "", VITEST: "" };

/** The messages written to the data folder's mail/ so far (development has no SMTP_URL), oldest first. */
async function writtenMail(dataDir: string): Promise<{ to: string[]; subject: string }[]> {
  const folder = path.join(dataDir, "mail");
  const files = existsSync(folder) ? readdirSync(folder).sort() : [];
  return Promise.all(
    files.map(async (name) => {
      const mail = await PostalMime.parse(readFileSync(path.join(folder, name)));
      return { to: (mail.to ?? []).map((to) => to.address ?? ""), subject: mail.subject ?? "" };
    }),
  );
}

describe("npm run dev", { timeout: 180_000 }, () => {
  it("given a fresh database, should seed the demo world, serve the source, and deliver a queued e-mail", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "assessment-dev-"));
    const database = await createTestDatabase(dataDir);
    cleanup.push(database.drop);
    const instance = await startInstance({ command: "npm run dev", databaseUrl: database.url, env: { ...DEVELOPER, DATA_DIR: dataDir } });
    cleanup.push(instance.stop);
    expect(instance.output()).toContain("Seeded the demo world. Demo logins:");
    expect(instance.output()).toMatch(/admin@demo\.test\s+ADMIN/);

    // The page comes from the source: it loads its modules from Vite, which serves them.
    const page = await fetch(`${instance.baseUrl}/en/login`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('href="/app/root.tsx"');
    const module = await fetch(`${instance.baseUrl}/app/root.tsx`);
    expect(module.status).toBe(200);
    expect(module.headers.get("content-type")).toContain("javascript");

    // A link e-mailed to a respondent is a queued job: the dev server's job worker sends it.
    const password = /password: (\S+)/.exec(instance.output())![1]!;
    const admin = await signIn(instance.baseUrl, "admin@demo.test", password);
    const as = { base: instance.baseUrl, cookie: `${admin.session}; ${admin.csrfCookie}`, headers: { "x-csrf-token": admin.csrfToken } };
    const forms = await api("GET", "/api/forms?published=true&limit=1", as);
    const students = await api("GET", "/api/students?limit=100", as);
    const student = students.body.students.find((s: { email: string | null }) => s.email === "student@demo.test");
    const bulk = await api("POST", "/api/submissions/bulk", { ...as, json: { formId: forms.body.forms[0].id, studentIds: [student.id], send: true } });
    expect(bulk.status, bulk.text).toBe(201);
    const mail = await waitFor(
      () => writtenMail(dataDir),
      (written) => written.length > 0,
      "the link e-mail",
    );
    expect(mail).toEqual([{ to: ["student@demo.test"], subject: `A test for you: ${forms.body.forms[0].title}` }]);

    await instance.stop();
    expect(instance.output()).toContain("Stopped.");
  });

  it("given NODE_ENV=production, should refuse to start and point to the build", async () => {
    const result = spawnSync("npm", ["run", "dev", "--silent"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        SESSION_SECRET: "an-operator-chosen-session-secret-of-enough-length",
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        SMTP_URL: "smtp://127.0.0.1:9",
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "assessment-dev-")),
        PORT: String(await freePort()),
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(`${result.stdout}${result.stderr}`).toContain("npm run build, then npm start");
  });
});
