/**
 * What in a study waits for its lead, counted for the study's page: code changes the calibration
 * rounds hold until a round is released (lib/data/round-gate), code changes whose stage 1 every
 * annotator has finished and that are not consolidated yet (CRScore §4.2; under the stage order
 * their stage 2 waits for it), and per task the claims or reviews with an open disagreement
 * (rated differently, not adjudicated: the adjudication queue of any question). The
 * disagreements are computed once per state of the study's data (lib/data/report-cache).
 */
import "server-only";
import { perItemAgreement } from "@/lib/agreement";
import { questionTable } from "@/lib/analysis/agreement-report";
import { gatherTaskColumns } from "@/lib/data/task-answers";
import { requireStudy } from "@/lib/data/studies";
import { cachedForState, studyFingerprint } from "@/lib/data/report-cache";
import { stageOrderOn } from "@/lib/annotation/stage-order";
import { db } from "@/lib/db/client";
import { storedConsensus } from "@/lib/data/consensus";
import { heldByRounds } from "@/lib/data/round-gate";
import { requireLedStudy } from "@/lib/data/study-access";
import type { TaskType } from "@/lib/generated/prisma/client";
import { openDisagreement } from "@/lib/tasks/consensus";
import type { SessionAccount } from "@/lib/auth/authenticate";

export interface StudyWaiting {
  /** Null for a study without calibration rounds. */
  round: { codeChanges: number; nextRound: number | null } | null;
  /** Null for a study without claim verification. */
  consolidation: { codeChanges: number; stage2Waits: boolean } | null;
  /** Per task of the study, the claims or reviews with an open disagreement. */
  adjudication: { task: TaskType; items: number }[];
}

const FINISHED = ["DONE", "SKIPPED"] as const;

/** The counts of what waits for the lead in a study they lead (404 otherwise). */
export async function studyWaiting(account: Pick<SessionAccount, "id" | "role">, slug: string): Promise<StudyWaiting> {
  const study = await requireLedStudy(account, slug);
  const [rounds, heldCodeChanges, readyCodeChanges, adjudication] = await Promise.all([
    db.calibrationRound.findMany({ where: { studyId: study.id }, orderBy: { number: "asc" }, select: { number: true, releasedAt: true } }),
    db.codeChange.count({ where: { studyId: study.id, ...heldByRounds } }),
    study.tasks.includes("CLAIM_VERIFICATION")
      ? db.codeChange.count({
          where: {
            studyId: study.id,
            consolidatedAt: null,
            AND: [{ assignments: { some: { task: "CLAIM_VERIFICATION", status: "DONE" } } }, { assignments: { none: { task: "CLAIM_VERIFICATION", status: { notIn: [...FINISHED] } } } }],
          },
        })
      : null,
    studyFingerprint(study.id, false).then((fingerprint) => cachedForState("waiting-adjudication", study.id, {}, fingerprint, () => openDisagreements(study.id))),
  ]);
  return {
    round: rounds.length ? { codeChanges: heldCodeChanges, nextRound: rounds.find((r) => r.releasedAt === null)?.number ?? null } : null,
    consolidation: readyCodeChanges === null ? null : { codeChanges: readyCodeChanges, stage2Waits: stageOrderOn(study) },
    adjudication,
  };
}

/** Per task, the items (claims or reviews) with an open disagreement on at least one question. */
async function openDisagreements(studyId: string): Promise<StudyWaiting["adjudication"]> {
  const study = await requireStudy({ id: studyId });
  const out: StudyWaiting["adjudication"] = [];
  for (const task of study.tasks) {
    const [data, stored] = await Promise.all([gatherTaskColumns(study, task, db, { gold: "include" }), storedConsensus(db, study.id, task)]);
    const open = new Set<string>();
    for (const column of data.questions) {
      for (const p of perItemAgreement(questionTable(data, column))) {
        if (openDisagreement(p, stored.get(p.item)?.has(column.question.key) ?? false)) open.add(p.item);
      }
    }
    out.push({ task, items: open.size });
  }
  return out;
}
