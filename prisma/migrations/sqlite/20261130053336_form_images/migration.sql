-- AlterTable
ALTER TABLE "Option" ADD COLUMN "imageAlt" TEXT;
ALTER TABLE "Option" ADD COLUMN "imageId" TEXT;

-- AlterTable
ALTER TABLE "Question" ADD COLUMN "imageAlt" TEXT;
ALTER TABLE "Question" ADD COLUMN "imageId" TEXT;

-- CreateTable
CREATE TABLE "FormImage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" BLOB NOT NULL,
    "byteLength" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT NOT NULL,
    CONSTRAINT "FormImage_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "FormImage_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "FormImage_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "FormImage_formId_idx" ON "FormImage"("formId");
