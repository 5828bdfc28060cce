import { describe, expect, it } from "vitest";
import { SEARCH_INDEX_OBJECTS, withoutSearchIndexDrops } from "../../scripts/lib/migrations.ts";

/** A step as the schema engine writes it for SQLite. */
const sqliteDropTable = (name: string) => `-- DropTable\nPRAGMA foreign_keys=off;\nDROP TABLE "${name}";\nPRAGMA foreign_keys=on;\n`;

describe("withoutSearchIndexDrops", () => {
  it("given only drops of the SQLite search tables, should report no drift", () => {
    const script = SEARCH_INDEX_OBJECTS.sqlite.tables.map(sqliteDropTable).join("\n");
    expect(withoutSearchIndexDrops("sqlite", script)).toBe("");
  });

  it("given only the drop of the trigram index, should report no drift on PostgreSQL", () => {
    expect(withoutSearchIndexDrops("postgresql", `-- DropIndex\nDROP INDEX "Submission_searchText_trgm_idx";\n`)).toBe("");
  });

  it("given other changes besides, should keep exactly those", () => {
    const other = `-- AlterTable\nALTER TABLE "Submission" ADD COLUMN "notes" TEXT;\n`;
    const result = withoutSearchIndexDrops("sqlite", `${sqliteDropTable("Submission_search_data")}\n${other}`);
    expect(result).toContain(`ALTER TABLE "Submission" ADD COLUMN "notes" TEXT;`);
    expect(result).not.toContain("Submission_search_data");
  });

  it("given a drop of any object not on the list, should keep it as drift", () => {
    for (const script of [
      sqliteDropTable("Submission_search_extra"),
      sqliteDropTable("Student"),
      `-- DropIndex\nDROP INDEX "Submission_formId_idx";\n`,
    ]) {
      expect(withoutSearchIndexDrops("sqlite", script), script).toBe(script);
      expect(withoutSearchIndexDrops("postgresql", script), script).toBe(script);
    }
  });

  it("given a listed name in a step that does more than drop it, or under the other database, should keep it", () => {
    const twoDrops = `-- DropTable\nPRAGMA foreign_keys=off;\nDROP TABLE "Submission_search";\nDROP TABLE "Student";\nPRAGMA foreign_keys=on;\n`;
    expect(withoutSearchIndexDrops("sqlite", twoDrops)).toBe(twoDrops);
    const pgIndexOnSqlite = `-- DropIndex\nDROP INDEX "Submission_searchText_trgm_idx";\n`;
    expect(withoutSearchIndexDrops("sqlite", pgIndexOnSqlite)).toBe(pgIndexOnSqlite);
    const sqliteTableOnPg = sqliteDropTable("Submission_search");
    expect(withoutSearchIndexDrops("postgresql", sqliteTableOnPg)).toBe(sqliteTableOnPg);
  });
});
