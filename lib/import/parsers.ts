/** The parser of each import format. */
import { parseCrscorePhase1 } from "./crscore-phase1";
import { parseCrscorePhase2 } from "./crscore-phase2";
import type { BundleFormat } from "./formats";
import { parseGradedReviews } from "./gradedreviews";
import { parseJsonl } from "./jsonl";
import type { Parser } from "./parser";

export const PARSERS: Record<BundleFormat, Parser> = {
  jsonl: parseJsonl,
  "crscore-phase1": parseCrscorePhase1,
  "crscore-phase2": parseCrscorePhase2,
  gradedreviews: parseGradedReviews,
};
