-- Calibration rounds hold the items outside every round until the last round's release
-- (GradedReviews §4.2, batch-wise calibration), or until a lead opens them early.
ALTER TABLE "Study" ADD COLUMN "outsideRoundsOpenedAt" TIMESTAMP(3);
