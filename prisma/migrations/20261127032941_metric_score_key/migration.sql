-- A score's key (review, metric, paramsKey) becomes MetricScore's primary key: the cuid id and the
-- (metric, paramsKey) index go, so each stored score writes one index entry instead of three
-- (scripts/bench/score-floor.ts: PostgreSQL CPU per 5,164 scores 80 -> 50 ms). Its prefix
-- serves the cascade from CandidateReview and every read, which go by review.

-- DropIndex
DROP INDEX "MetricScore_metric_paramsKey_idx";

-- DropIndex
DROP INDEX "MetricScore_candidateReviewId_metric_paramsKey_key";

-- AlterTable
ALTER TABLE "MetricScore" DROP CONSTRAINT "MetricScore_pkey",
DROP COLUMN "id",
ADD CONSTRAINT "MetricScore_pkey" PRIMARY KEY ("candidateReviewId", "metric", "paramsKey");

