-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "formTitle" TEXT;

-- Backfill (hand-written): the title every completed submission captured in its snapshot.
UPDATE "Submission" SET "formTitle" = json_extract("scoredAgainst", '$.form.title') WHERE "scoredAgainst" IS NOT NULL;

-- Substring search index (hand-written; docs/decisions/0011-substring-search.md). Prisma does not
-- model these objects: the drift check (scripts/lib/migrations.ts, SEARCH_INDEX_OBJECTS) ignores
-- exactly them, and checks that they exist after the migrations ran.
--
-- An FTS5 table with the trigram tokenizer answers any substring of three characters or more of
-- "searchText" (which is folded, so matching is case- and accent-insensitive). It is an external
-- content table (content='Submission'): it keeps only the index, reads the text from "Submission"
-- when it needs it, can be rebuilt from it with INSERT ... VALUES('rebuild') and checked against
-- it with 'integrity-check'. A contentless table (content='') would be as small but can be neither
-- rebuilt nor checked against its source. It is keyed by the rowid of "Submission", which is kept
-- by UPDATE and VACUUM but NOT by a table rebuild: a later migration that redefines "Submission"
-- (Prisma's "RedefineTables": CREATE new_Submission, INSERT ... SELECT, DROP, RENAME) drops these
-- triggers and renumbers the rows, so it must recreate the triggers and then run 'rebuild'.
CREATE VIRTUAL TABLE "Submission_search" USING fts5(
    "searchText",
    content='Submission',
    content_rowid='rowid',
    tokenize='trigram'
);

-- Kept in sync by triggers. A row whose "searchText" is NULL (not completed) is indexed as an
-- empty document, exactly as 'rebuild' does, so the 'delete' of any row always finds what was
-- indexed. The 'delete' command must be given the old text: that is what it removes from the index.
CREATE TRIGGER "Submission_search_insert" AFTER INSERT ON "Submission" BEGIN
    INSERT INTO "Submission_search" (rowid, "searchText") VALUES (new.rowid, new."searchText");
END;

CREATE TRIGGER "Submission_search_update" AFTER UPDATE OF "searchText" ON "Submission" BEGIN
    INSERT INTO "Submission_search" ("Submission_search", rowid, "searchText") VALUES ('delete', old.rowid, old."searchText");
    INSERT INTO "Submission_search" (rowid, "searchText") VALUES (new.rowid, new."searchText");
END;

CREATE TRIGGER "Submission_search_delete" AFTER DELETE ON "Submission" BEGIN
    INSERT INTO "Submission_search" ("Submission_search", rowid, "searchText") VALUES ('delete', old.rowid, old."searchText");
END;

-- The rows that exist already.
INSERT INTO "Submission_search" ("Submission_search") VALUES ('rebuild');
