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
