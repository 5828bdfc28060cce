-- CreateEnum
CREATE TYPE "AuditActorKind" AS ENUM ('USER', 'TOKEN', 'RESPONDENT', 'SYSTEM');

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorKind" "AuditActorKind" NOT NULL,
    "actorId" TEXT,
    "actorName" TEXT,
    "tokenId" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "ip" TEXT,
    "requestId" TEXT,
    "details" JSONB,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_at_idx" ON "AuditEvent"("organizationId", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_targetType_targetId_at_idx" ON "AuditEvent"("organizationId", "targetType", "targetId", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_actorId_at_idx" ON "AuditEvent"("organizationId", "actorId", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_action_at_idx" ON "AuditEvent"("organizationId", "action", "at");

-- The audit log is append-only (docs/api-contract.md §20, ADR 87): no UPDATE or DELETE, whoever
-- sends it, except inside the retention job's transaction, which says so with
-- `SET LOCAL app.audit_retention = 'on'` before removing the events its policy has outlived.
CREATE FUNCTION "AuditEvent_append_only"() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('app.audit_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'The audit log is append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "AuditEvent_append_only"
  BEFORE UPDATE OR DELETE ON "AuditEvent"
  FOR EACH ROW EXECUTE FUNCTION "AuditEvent_append_only"();

CREATE TRIGGER "AuditEvent_no_truncate"
  BEFORE TRUNCATE ON "AuditEvent"
  FOR EACH STATEMENT EXECUTE FUNCTION "AuditEvent_append_only"();
