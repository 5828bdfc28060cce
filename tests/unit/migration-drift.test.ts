import { describe, expect, it } from "vitest";
import { HAND_WRITTEN_OBJECTS, withoutHandWrittenDrops } from "../../server/database/migrations.ts";

/** A step as the schema engine writes it for SQLite. */
const sqliteDropTable = (name: string) => `-- DropTable\nPRAGMA foreign_keys=off;\nDROP TABLE "${name}";\nPRAGMA foreign_keys=on;\n`;

describe("withoutHandWrittenDrops", () => {
  it("given only drops of the SQLite search tables, should report no drift", () => {
    const script = HAND_WRITTEN_OBJECTS.sqlite.tables.map(sqliteDropTable).join("\n");
    expect(withoutHandWrittenDrops("sqlite", script)).toBe("");
  });

  it("given only the drop of the trigram index, should report no drift on PostgreSQL", () => {
    expect(withoutHandWrittenDrops("postgresql", `-- DropIndex\nDROP INDEX "Submission_searchText_trgm_idx";\n`)).toBe("");
  });

  it("given other changes besides, should keep exactly those", () => {
    const other = `-- AlterTable\nALTER TABLE "Submission" ADD COLUMN "notes" TEXT;\n`;
    const result = withoutHandWrittenDrops("sqlite", `${sqliteDropTable("Submission_search_data")}\n${other}`);
    expect(result).toContain(`ALTER TABLE "Submission" ADD COLUMN "notes" TEXT;`);
    expect(result).not.toContain("Submission_search_data");
  });

  it("given a drop of any object not on the list, should keep it as drift", () => {
    for (const script of [sqliteDropTable("Submission_search_extra"), sqliteDropTable("Student"), `-- DropIndex\nDROP INDEX "Submission_formId_idx";\n`]) {
      expect(withoutHandWrittenDrops("sqlite", script), script).toBe(script);
      expect(withoutHandWrittenDrops("postgresql", script), script).toBe(script);
    }
  });

  it("given a listed name in a step that does more than drop it, or under the other database, should keep it", () => {
    const twoDrops = `-- DropTable\nPRAGMA foreign_keys=off;\nDROP TABLE "Submission_search";\nDROP TABLE "Student";\nPRAGMA foreign_keys=on;\n`;
    expect(withoutHandWrittenDrops("sqlite", twoDrops)).toBe(twoDrops);
    const pgIndexOnSqlite = `-- DropIndex\nDROP INDEX "Submission_searchText_trgm_idx";\n`;
    expect(withoutHandWrittenDrops("sqlite", pgIndexOnSqlite)).toBe(pgIndexOnSqlite);
    const sqliteTableOnPg = sqliteDropTable("Submission_search");
    expect(withoutHandWrittenDrops("postgresql", sqliteTableOnPg)).toBe(sqliteTableOnPg);
  });
});
