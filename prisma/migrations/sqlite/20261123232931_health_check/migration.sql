-- CreateTable
CREATE TABLE "HealthCheck" (
    "instance" TEXT NOT NULL PRIMARY KEY,
    "checkedAt" DATETIME NOT NULL
);
