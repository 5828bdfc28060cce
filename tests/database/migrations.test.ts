import pg from "pg";
import { describe, expect, it } from "vitest";
import { diffSchemaAgainstMigrations, providerOf, handWrittenObjectsMissingAfterMigrations } from "../../server/database/migrations.ts";
import { inject } from "vitest";

describe("migrations", () => {
  it("given the committed migrations of the database under test, should match prisma/schema.prisma exactly", async () => {
    const provider = providerOf(inject("databaseUrl"));
    const drift = await diffSchemaAgainstMigrations(provider);
    expect(drift, `The schema and the ${provider} migrations differ; run npm run db:migration:create -- <name>`).toBe("");
  });

  it("given a database built from the committed migrations, should have every hand-written object (search index, version triggers)", async () => {
    const provider = providerOf(inject("databaseUrl"));
    expect(await handWrittenObjectsMissingAfterMigrations(provider)).toEqual([]);
  });
});

// PostgreSQL only: SQLite has no autovacuum of dead rows and no visibility map.
if (providerOf(inject("databaseUrl")) === "postgresql")
  describe("autovacuum of results (PostgreSQL)", () => {
    // ADR 38: with the defaults, a million results waited for 200,000 changes before a vacuum, and
    // the lists' index-only scans fetched every newer result from the heap until then.
    it("given the migrated database, should vacuum Submission after half a percent of its rows change or arrive", async () => {
      const client = new pg.Client({ connectionString: inject("databaseUrl") });
      await client.connect();
      try {
        const { rows } = await client.query<{ reloptions: string[] | null }>(`SELECT reloptions FROM pg_class WHERE oid = '"Submission"'::regclass`);
        expect(rows[0]?.reloptions).toEqual(
          expect.arrayContaining([
            "autovacuum_vacuum_scale_factor=0.005",
            "autovacuum_vacuum_insert_scale_factor=0.005",
            "autovacuum_analyze_scale_factor=0.02",
          ]),
        );
      } finally {
        await client.end();
      }
    });
  });
