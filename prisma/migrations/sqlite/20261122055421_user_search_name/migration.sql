-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "searchName" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL,
    "passwordHash" TEXT,
    "phone" TEXT,
    "locale" TEXT NOT NULL DEFAULT 'en',
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "twoFactorMethod" TEXT,
    "totpSecretEncrypted" TEXT,
    "totpLastUsedStep" INTEGER,
    "lastLoginAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "deletedAt" DATETIME,
    CONSTRAINT "User_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_User" ("createdAt", "deletedAt", "email", "id", "isActive", "lastLoginAt", "locale", "name", "organizationId", "passwordHash", "phone", "role", "totpLastUsedStep", "totpSecretEncrypted", "twoFactorMethod", "updatedAt") SELECT "createdAt", "deletedAt", "email", "id", "isActive", "lastLoginAt", "locale", "name", "organizationId", "passwordHash", "phone", "role", "totpLastUsedStep", "totpSecretEncrypted", "twoFactorMethod", "updatedAt" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE INDEX "User_organizationId_deletedAt_createdAt_idx" ON "User"("organizationId", "deletedAt", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
