-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Answer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "submissionId" TEXT NOT NULL,
    "questionId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "questionText" TEXT NOT NULL,
    "questionType" TEXT NOT NULL,
    "optionIds" JSONB NOT NULL,
    "optionTexts" JSONB NOT NULL,
    "text" TEXT,
    "score" REAL NOT NULL,
    "maxScore" REAL NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Answer_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Answer" ("createdAt", "id", "maxScore", "optionIds", "optionTexts", "position", "questionId", "questionText", "questionType", "score", "submissionId", "text") SELECT "createdAt", "id", "maxScore", "optionIds", "optionTexts", "position", "questionId", "questionText", "questionType", "score", "submissionId", "text" FROM "Answer";
DROP TABLE "Answer";
ALTER TABLE "new_Answer" RENAME TO "Answer";
CREATE INDEX "Answer_submissionId_position_idx" ON "Answer"("submissionId", "position");
CREATE INDEX "Answer_questionId_idx" ON "Answer"("questionId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
