-- The life of a link (contract §10). Written by hand as ALTER TABLE rather than the engine's
-- table rebuild: a rebuild drops the Submission triggers of ADR 11 and 13 (search index, version).
ALTER TABLE "Submission" ADD COLUMN "openedAt" DATETIME;
ALTER TABLE "Submission" ADD COLUMN "sentAt" DATETIME;
ALTER TABLE "Submission" ADD COLUMN "sendCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Submission" ADD COLUMN "remindedAt" DATETIME;
ALTER TABLE "Submission" ADD COLUMN "revokedAt" DATETIME;
