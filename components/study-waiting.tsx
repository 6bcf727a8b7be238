import Link from "next/link";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import type { StudyWaiting } from "@/lib/data/study-waiting";
import { TASKS } from "@/lib/tasks";

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const link = "text-blue-700 hover:underline";

/** What waits for the lead in the study, each with the page where the lead acts on it. */
export function StudyWaitingList({ slug, waiting }: { slug: string; waiting: StudyWaiting }) {
  const base = `/studies/${encodeURIComponent(slug)}`;
  return (
    <section aria-label="Waiting for you">
      <h2 className="mb-2 text-lg font-medium">Waiting for you</h2>
      <ul className="space-y-1 rounded border border-slate-200 bg-white p-3 text-sm">
        {waiting.round && (
          <li data-testid="waiting-round">
            {count(waiting.round.codeChanges, "code change")} waiting for a round release
            {waiting.round.nextRound === null ? " (every round is released)" : ` (round ${waiting.round.nextRound} is next)`}:{" "}
            <Link href={`${base}/rounds`} prefetch={false} className={link}>
              Calibration rounds
            </Link>
          </li>
        )}
        {waiting.consolidation && (
          <li data-testid="waiting-consolidation">
            {count(waiting.consolidation.codeChanges, "code change")} waiting for consolidation (stage 1 finished by every annotator){waiting.consolidation.stage2Waits ? "; their stage 2 opens once consolidated" : ""}:{" "}
            <Link href={`${base}/consolidate`} prefetch={false} className={link}>
              Consolidate stage 1
            </Link>
          </li>
        )}
        {waiting.adjudication.map(({ task, items }) => (
          <li key={task} data-testid="waiting-adjudication">
            {count(items, TASKS[task].itemKind === "review" ? "review" : "claim")} with open disagreements waiting for adjudication in {TASK_LABELS[task].toLowerCase()}:{" "}
            <Link href={`${base}/adjudicate?task=${task}`} prefetch={false} className={link}>
              Adjudicate {TASK_LABELS[task].toLowerCase()}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
