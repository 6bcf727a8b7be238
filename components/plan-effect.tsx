import type { GeneratePreview } from "@/lib/data/assignment-admin";

/** What a previewed plan does to the stored assignments (the rounds and the assignments pages' previews). */
export function PlanEffectText({ effect, testId }: { effect: GeneratePreview["effect"]; testId: string }) {
  return (
    <p data-testid={testId}>
      Assignments: {effect.create} new, {effect.update} moved in their queues, {effect.remove} unopened removed, {effect.keep} started kept.
    </p>
  );
}
