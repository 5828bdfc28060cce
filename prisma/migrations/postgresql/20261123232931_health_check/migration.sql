-- CreateTable
CREATE TABLE "HealthCheck" (
    "instance" TEXT NOT NULL,
    "checkedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "HealthCheck_pkey" PRIMARY KEY ("instance")
);
