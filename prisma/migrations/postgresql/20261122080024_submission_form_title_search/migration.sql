-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "formTitle" TEXT;

-- Backfill (hand-written): the title every completed submission captured in its snapshot
-- ("scoredAgainst" is JSONB).
UPDATE "Submission" SET "formTitle" = "scoredAgainst"->'form'->>'title' WHERE "scoredAgainst" IS NOT NULL;

-- Substring search index (hand-written; docs/decisions/0011-substring-search.md). Prisma does not
-- model these objects: the drift check (scripts/lib/migrations.ts, SEARCH_INDEX_OBJECTS) ignores
-- exactly them, and checks that they exist after the migrations ran.
--
-- A trigram GIN index serves `"searchText" LIKE '%term%'` for terms of three characters or more
-- ("searchText" is folded, so matching is case- and accent-insensitive). pg_trgm is a trusted
-- extension (PostgreSQL 13+): the database owner may create it without being a superuser.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "Submission_searchText_trgm_idx" ON "Submission" USING gin ("searchText" gin_trgm_ops);
