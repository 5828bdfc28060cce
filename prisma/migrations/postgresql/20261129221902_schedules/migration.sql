-- Schedules (docs/api-contract.md §18, ADR 76).
-- CreateTable
CREATE TABLE "Schedule" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "groupId" TEXT,
    "studentIds" JSONB NOT NULL DEFAULT '[]',
    "candidateIds" JSONB NOT NULL DEFAULT '[]',
    "startsOn" TEXT NOT NULL,
    "everyDays" INTEGER NOT NULL,
    "endsOn" TEXT,
    "count" INTEGER,
    "send" BOOLEAN NOT NULL DEFAULT false,
    "remindAfterDays" INTEGER,
    "expiresAfterDays" INTEGER,
    "nextOn" TEXT NOT NULL,
    "occurrencesRun" INTEGER NOT NULL DEFAULT 0,
    "pausedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "Schedule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScheduleOccurrence" (
    "id" TEXT NOT NULL,
    "scheduleId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "ranAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL,
    "created" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "reason" TEXT,

    CONSTRAINT "ScheduleOccurrence_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Schedule_organizationId_deletedAt_createdAt_idx" ON "Schedule"("organizationId", "deletedAt", "createdAt");

-- CreateIndex
CREATE INDEX "Schedule_createdById_deletedAt_createdAt_idx" ON "Schedule"("createdById", "deletedAt", "createdAt");

-- CreateIndex
CREATE INDEX "Schedule_formId_idx" ON "Schedule"("formId");

-- CreateIndex
CREATE INDEX "Schedule_groupId_idx" ON "Schedule"("groupId");

-- CreateIndex
CREATE UNIQUE INDEX "ScheduleOccurrence_scheduleId_day_key" ON "ScheduleOccurrence"("scheduleId", "day");

-- CreateIndex
CREATE INDEX "Job_concurrencyKey_idx" ON "Job"("concurrencyKey");

-- AddForeignKey
ALTER TABLE "Schedule" ADD CONSTRAINT "Schedule_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Schedule" ADD CONSTRAINT "Schedule_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Schedule" ADD CONSTRAINT "Schedule_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Schedule" ADD CONSTRAINT "Schedule_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Group"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduleOccurrence" ADD CONSTRAINT "ScheduleOccurrence_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "Schedule"("id") ON DELETE CASCADE ON UPDATE CASCADE;
