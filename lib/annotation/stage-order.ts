/**
 * CRScore's stage order (§4.2): review rating (stage 2) uses the pseudo-references that stage 1
 * produced, so every annotator rates an item against the same consolidated set. With the study
 * setting on, stage 2 of an item opens only once a lead has consolidated its stage 1, and
 * necessity ("is this pseudo-reference necessary for a review to mention") is asked in stage 2
 * over the consolidated set, smells included (Appendix, phase 2), not in stage 1. The
 * setting is on by default for studies with both stages (CRScore-style); a lead may turn it
 * on or off (Study.stageOrder). It means nothing without both stages: a study whose lead removed
 * one (settings page) is never held by it, whatever the stored setting.
 */
import type { TaskType } from "@/lib/generated/prisma/enums";

export interface StageOrderSetting {
  stageOrder: boolean | null;
  tasks: readonly TaskType[];
}

export function stageOrderOn(study: StageOrderSetting): boolean {
  return study.tasks.includes("CLAIM_VERIFICATION") && study.tasks.includes("REVIEW_RATING") && (study.stageOrder ?? true);
}

export const WAITING_FOR_CONSOLIDATION = "Stage 2 of this item opens once a lead has consolidated its stage 1 (claim verification), so that every annotator rates against the same pseudo-references.";
