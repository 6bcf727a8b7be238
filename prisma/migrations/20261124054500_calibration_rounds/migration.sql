-- Calibration rounds (issue 12, item 2): ordered item sets every annotator labels, released one
-- after the other by a lead or by the study's rule on the closed round's agreement.
ALTER TABLE "Study" ADD COLUMN "roundCoefficient" TEXT NOT NULL DEFAULT 'fleiss',
ADD COLUMN "roundThreshold" DOUBLE PRECISION;

CREATE TABLE "CalibrationRound" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "itemSetId" TEXT NOT NULL,
    "releasedAt" TIMESTAMP(3),
    "releasedById" TEXT,
    "releasedHow" TEXT NOT NULL DEFAULT '',
    "notes" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CalibrationRound_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "CalibrationRound_itemSetId_key" ON "CalibrationRound"("itemSetId");
CREATE UNIQUE INDEX "CalibrationRound_studyId_number_key" ON "CalibrationRound"("studyId", "number");

ALTER TABLE "CalibrationRound" ADD CONSTRAINT "CalibrationRound_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "CalibrationRound" ADD CONSTRAINT "CalibrationRound_itemSetId_fkey" FOREIGN KEY ("itemSetId") REFERENCES "ItemSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;
