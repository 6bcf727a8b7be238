/**
 * `test-outcomes` export: every stored test outcome of the study's review systems, one per line
 * in the outcomes JSONL that `import-test-results` reads (docs/test-results.md), so an export
 * imports back unchanged: `pr` (the pull request's id), `system`, `test`, `outcome`, and
 * `comment` (the id of the human comment the test encodes), `durationSeconds` and `message` when
 * known. Also each human comment's outcomes, as the `github-comments` export carries them.
 */
import type { TestStatus } from "@/lib/generated/prisma/enums";

/** One stored outcome as the exports read it (lib/data/exports.ts). */
export interface ExportedTestOutcome {
  pullRequest: string;
  system: string;
  testId: string;
  status: TestStatus;
  /** The id (in the pull request) of the human comment the test is tied to; null when none. */
  comment: string | null;
  /** The stored id of that comment, to find a comment's outcomes. */
  commentId: string | null;
  durationSeconds: number | null;
  message: string;
}

/** The outcome as the outcomes JSONL writes it: passed, failed, error or skipped. */
const outcomeOf = (status: TestStatus) => status.toLowerCase();

/** One line of the outcomes JSONL. */
export function testOutcomeLine(o: ExportedTestOutcome): Record<string, unknown> {
  return {
    pr: o.pullRequest,
    system: o.system,
    test: o.testId,
    outcome: outcomeOf(o.status),
    ...(o.comment === null ? {} : { comment: o.comment }),
    ...(o.durationSeconds === null ? {} : { durationSeconds: o.durationSeconds }),
    ...(o.message === "" ? {} : { message: o.message }),
  };
}

/** The export's lines in the order given (pull request, system, test). */
export function* testOutcomesExport(outcomes: readonly ExportedTestOutcome[]): Generator<string> {
  for (const o of outcomes) yield `${JSON.stringify(testOutcomeLine(o))}\n`;
}

/** Each human comment's test outcomes as `github-comments` writes them: by stored comment id, `{system, test, outcome}` per outcome. */
export function outcomesByComment(outcomes: readonly ExportedTestOutcome[]): Map<string, { system: string; test: string; outcome: string }[]> {
  const out = new Map<string, { system: string; test: string; outcome: string }[]>();
  for (const o of outcomes) {
    if (o.commentId === null) continue;
    out.set(o.commentId, [...(out.get(o.commentId) ?? []), { system: o.system, test: o.testId, outcome: outcomeOf(o.status) }]);
  }
  return out;
}
