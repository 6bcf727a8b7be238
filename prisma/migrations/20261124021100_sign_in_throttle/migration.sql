-- Sign-in throttling in PostgreSQL (issue 9): attempts counted per account e-mail and per client
-- address before the password is checked; replaces the per-user failure counter.
CREATE TABLE "SignInThrottle" (
    "key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "admittedAt" TIMESTAMPTZ(6) NOT NULL,
    "attemptId" TEXT NOT NULL,
    "lastAttemptAt" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "SignInThrottle_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "SignInThrottle_lastAttemptAt_idx" ON "SignInThrottle"("lastAttemptAt");

ALTER TABLE "User" DROP COLUMN "failedLoginCount",
DROP COLUMN "lastFailedLoginAt";
