import path from "node:path";
import pg from "pg";

/** The server where PostgreSQL test databases are created and dropped. */
const adminUrl = () => process.env.TEST_POSTGRES_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function asAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database of the suite's kind: a SQLite file `<name>.db` in `dataDir`, or, when
 * TEST_DATABASE=postgresql, a PostgreSQL database of its own on the server of
 * TEST_POSTGRES_ADMIN_URL (the local one by default). `drop` removes the PostgreSQL database; the
 * caller removes `dataDir`.
 */
export async function createTestDatabase(dataDir: string, name = "test"): Promise<{ url: string; drop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE !== "postgresql") {
    return { url: `file:${path.join(dataDir, `${name}.db`)}`, drop: async () => {} };
  }
  const database = `assessment_${name}_${process.pid}_${Date.now()}`;
  await asAdmin(`CREATE DATABASE "${database}"`);
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  return { url: url.toString(), drop: () => dropTestDatabase(url.toString()) };
}

/** Drops the PostgreSQL database of `url`, even while connections to it are open. */
export async function dropTestDatabase(url: string): Promise<void> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  await asAdmin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
}
