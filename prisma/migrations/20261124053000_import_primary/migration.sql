-- Table 1 verdict policy (issue 11): an import may declare its annotator's judgements primary.
ALTER TABLE "ImportRun" ADD COLUMN "primary" BOOLEAN NOT NULL DEFAULT false;
