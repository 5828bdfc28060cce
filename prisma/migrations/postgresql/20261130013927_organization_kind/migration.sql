-- An organization is a school or a clinic (docs/api-contract.md §18, ADR 81).
-- CreateEnum
CREATE TYPE "OrganizationKind" AS ENUM ('SCHOOL', 'CLINIC');

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "kind" "OrganizationKind" NOT NULL DEFAULT 'SCHOOL';
