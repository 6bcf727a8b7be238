-- A score's reference to its review is checked once per statement instead of once per row.
-- The foreign key ran its check (an SPI query locking the review FOR KEY SHARE) for every row:
-- 40 % of PostgreSQL's CPU for a chunk of 3,000 CRScore rows, whose three columns name the same
-- review (scripts/bench/score-floor.ts). These triggers keep what the foreign key guaranteed:
-- - a stored score names a review that exists: after each INSERT or UPDATE statement the
--   distinct reviews of its rows are locked FOR KEY SHARE, as the foreign key's check locks them,
--   so none can be deleted before the transaction ends, and one that is missing (or deleted by a
--   transaction that committed meanwhile) fails the statement with foreign_key_violation;
-- - deleting, truncating or renaming a review deletes or follows its scores (ON DELETE CASCADE,
--   ON UPDATE CASCADE).

ALTER TABLE "MetricScore" DROP CONSTRAINT "MetricScore_candidateReviewId_fkey";

CREATE FUNCTION "MetricScore_reviews_exist"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing text;
BEGIN
  SELECT n.id INTO missing
  FROM (SELECT DISTINCT "candidateReviewId" AS id FROM new_scores) n
  WHERE NOT EXISTS (SELECT 1 FROM "CandidateReview" r WHERE r.id = n.id FOR KEY SHARE OF r)
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'a metric score names review %, which does not exist', missing
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, COLUMN = 'candidateReviewId';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "MetricScore_reviews_exist_after_insert" AFTER INSERT ON "MetricScore"
  REFERENCING NEW TABLE AS new_scores FOR EACH STATEMENT EXECUTE FUNCTION "MetricScore_reviews_exist"();
CREATE TRIGGER "MetricScore_reviews_exist_after_update" AFTER UPDATE ON "MetricScore"
  REFERENCING NEW TABLE AS new_scores FOR EACH STATEMENT EXECUTE FUNCTION "MetricScore_reviews_exist"();

CREATE FUNCTION "CandidateReview_delete_scores"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE "MetricScore";
  ELSE
    DELETE FROM "MetricScore" s USING old_reviews o WHERE s."candidateReviewId" = o.id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "CandidateReview_delete_scores_after_delete" AFTER DELETE ON "CandidateReview"
  REFERENCING OLD TABLE AS old_reviews FOR EACH STATEMENT EXECUTE FUNCTION "CandidateReview_delete_scores"();
CREATE TRIGGER "CandidateReview_delete_scores_after_truncate" AFTER TRUNCATE ON "CandidateReview"
  FOR EACH STATEMENT EXECUTE FUNCTION "CandidateReview_delete_scores"();

CREATE FUNCTION "CandidateReview_move_scores"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "MetricScore" SET "candidateReviewId" = NEW.id WHERE "candidateReviewId" = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER "CandidateReview_move_scores_after_update" AFTER UPDATE OF id ON "CandidateReview"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION "CandidateReview_move_scores"();
