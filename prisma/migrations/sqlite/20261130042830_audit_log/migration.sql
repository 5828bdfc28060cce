-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "actorName" TEXT,
    "tokenId" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "ip" TEXT,
    "requestId" TEXT,
    "details" JSONB
);

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_at_idx" ON "AuditEvent"("organizationId", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_targetType_targetId_at_idx" ON "AuditEvent"("organizationId", "targetType", "targetId", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_actorId_at_idx" ON "AuditEvent"("organizationId", "actorId", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_action_at_idx" ON "AuditEvent"("organizationId", "action", "at");
