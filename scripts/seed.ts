// Fills an empty database with the demo world (server/demo-world.ts).
//
//   npm run db:seed
//
// DATABASE_URL    the database to seed (default file:./data/app.db); it must be migrated already
// SEED_PASSWORD   the password every demo user gets (default: the development password, which
//                 is refused at sign-in when NODE_ENV=production)
//
// A database that already has an organization is left alone: the seed prints so and exits 0.

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../app/lib/auth/password.server.ts";
import { describeDatabase, resolveDatabaseUrl } from "../server/database/database-url.ts";
import { DEMO_LOGINS, isDatabaseEmpty, seedDemoWorld } from "../server/demo-world.ts";

const DEFAULT_DATABASE_URL = "file:./data/app.db";

async function main(): Promise<number> {
  // Empty variables count as unset, as in app/lib/env.server.ts.
  const databaseUrl = resolveDatabaseUrl(process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL);
  const seedPassword = process.env.SEED_PASSWORD || undefined;
  if (seedPassword !== undefined && (seedPassword.length < PASSWORD_MIN_LENGTH || seedPassword.length > PASSWORD_MAX_LENGTH)) {
    console.error(`SEED_PASSWORD must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`);
    return 1;
  }

  // app/lib/db.server.ts creates the app's singleton client from env() as soon as it is imported
  // (and credentials.server.ts imports it), so import them only after DATABASE_URL holds the URL
  // seeded here: the singleton then points at the same database and is never used.
  process.env.DATABASE_URL = databaseUrl;
  let createDatabase: typeof import("../app/lib/db.server.ts").createDatabase;
  let defaultPassword: string;
  try {
    ({ createDatabase } = await import("../app/lib/db.server.ts"));
    ({ DEFAULT_DEVELOPMENT_PASSWORD: defaultPassword } = await import("../app/features/auth/credentials.server.ts"));
  } catch (error) {
    if (error instanceof Error && error.name === "ConfigurationError") {
      console.error(error.message);
      return 1;
    }
    throw error;
  }

  const db = createDatabase(databaseUrl);
  try {
    if (!(await isDatabaseEmpty(db))) {
      console.log(`${describeDatabase(databaseUrl)} already has organizations: already seeded, nothing to do.`);
      return 0;
    }
    console.log(`Seeding ${describeDatabase(databaseUrl)} ...`);
    await seedDemoWorld(db, { password: seedPassword ?? defaultPassword, log: (line) => console.log(`  ${line}`) });
  } finally {
    await db.$disconnect();
  }

  console.log("\nDemo logins:");
  const width = Math.max(...DEMO_LOGINS.map((login) => login.email.length));
  for (const login of DEMO_LOGINS) {
    console.log(`  ${login.email.padEnd(width)}  ${login.role.padEnd(11)}  ${login.organization}`);
  }
  if (seedPassword !== undefined) {
    console.log("Password: the value of SEED_PASSWORD.");
  } else {
    console.log(`Password: ${defaultPassword} (the development default; set SEED_PASSWORD to choose another).`);
    if (process.env.NODE_ENV === "production") {
      console.log("Note: with NODE_ENV=production this password is refused at sign-in; use “Forgot password”.");
    }
  }
  return 0;
}

/** Prisma's own errors end with a readable sentence; anything else gets its stack. */
function explain(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && /^P\d{4}$/.test(code)) {
    const summary = error.message.trim().split("\n").at(-1)?.trim() ?? error.message;
    const hint = code === "P2021" ? "\nThe database has no tables yet: run `npm run db:migrate` first." : "";
    return `${summary} (${code})${hint}`;
  }
  return error.stack ?? error.message;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`Seeding failed: ${explain(error)}`);
    process.exitCode = 1;
  },
);
