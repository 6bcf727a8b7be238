-- Session version (issue 9): a new password or a deactivation ends the account's sessions.
ALTER TABLE "User" ADD COLUMN "sessionVersion" INTEGER NOT NULL DEFAULT 0;
