-- CreateTable
CREATE TABLE "LlmResponse" (
    "key" TEXT NOT NULL,
    "requestedModel" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "promptHash" TEXT NOT NULL DEFAULT '',
    "params" JSONB NOT NULL DEFAULT '{}',
    "content" TEXT NOT NULL,
    "finishReason" TEXT,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "costUsd" DOUBLE PRECISION,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LlmResponse_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "LlmResponse_promptHash_idx" ON "LlmResponse"("promptHash");

