/** Inputs a study's settings and the New study form share. */
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import type { TaskType } from "@/lib/generated/prisma/enums";

export const TASK_TYPES = Object.keys(TASK_LABELS) as TaskType[];
export const FIELD_INPUT = "rounded border border-slate-500 px-2 py-1";

/** The chosen task types with `task` switched on or off, in the product's task order. */
export function withTask(chosen: readonly TaskType[], task: TaskType, on: boolean): TaskType[] {
  return TASK_TYPES.filter((t) => (t === task ? on : chosen.includes(t)));
}

/** The Likert scale's two ends. */
export function LikertScaleInputs({ min, max, onChange }: { min: number; max: number; onChange: (scale: { likertMin: number; likertMax: number }) => void }) {
  return (
    <div className="flex flex-wrap gap-3">
      <label className="text-sm">
        Scale from
        <input type="number" min={0} max={9} value={min} onChange={(e) => onChange({ likertMin: Number(e.target.value), likertMax: max })} className={`ml-1 w-16 ${FIELD_INPUT}`} />
      </label>
      <label className="text-sm">
        to
        <input type="number" min={1} max={10} value={max} onChange={(e) => onChange({ likertMin: min, likertMax: Number(e.target.value) })} className={`ml-1 w-16 ${FIELD_INPUT}`} />
      </label>
    </div>
  );
}
