-- AlterTable
ALTER TABLE "Option" ADD COLUMN     "imageAlt" TEXT,
ADD COLUMN     "imageId" TEXT;

-- AlterTable
ALTER TABLE "Question" ADD COLUMN     "imageAlt" TEXT,
ADD COLUMN     "imageId" TEXT;

-- CreateTable
CREATE TABLE "FormImage" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "byteLength" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT NOT NULL,

    CONSTRAINT "FormImage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FormImage_formId_idx" ON "FormImage"("formId");

-- AddForeignKey
ALTER TABLE "FormImage" ADD CONSTRAINT "FormImage_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FormImage" ADD CONSTRAINT "FormImage_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FormImage" ADD CONSTRAINT "FormImage_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
