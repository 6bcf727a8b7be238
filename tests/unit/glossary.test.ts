/**
 * The code speaks docs/glossary.md: the back-ticked names of its Retired lists appear nowhere in
 * lib/, app/, components/, scripts/ or e2e/, as an identifier, a quoted save or report kind, a
 * CLI flag, a route or a file name, except where ALLOWED says why. A name wrapped in quotes
 * ("CandidateReview", 'DONE') is a storage name in SQL or a schema @map, which the glossary keeps.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["lib", "app", "components", "scripts", "e2e"];
const SOURCE = /\.(ts|tsx|js|mjs)$/;

/** Back-ticked in a Retired list but not retired: the new names the same sentence gives, and names it says are kept. */
const NOT_RETIRED = new Set([
  '"review" | "system"', // the validity report's levels after `--level segment`
  "--window-size", "windowSize", "windows", // what replaces batchSize
  "SaveKind", // what AnnotationKindKey was the same as
  "ReportJob.kind", // the field whose value "correlation" is retired
  "author", // a review comment's login, beside its system
  "sessionVersion", // what SignedInUser added to SessionAccount
  "components/workspace/review-choice-task.tsx", // keeps its name: shared by two tasks
  "crscore-phase1", "crscore-phase2", // the sheets' format names, kept
  "llm-judge-crscore-*", // the metric that is CRScore's LLM-as-a-judge
]);

/**
 * Retired in one sense only (`item` for a code change, `comment` for a note, `DONE` for a
 * submitted assignment, `user` for an account, ...): the same word is right in its other senses
 * (an item of an agreement table, a review comment, a finished job, GitHub's user object), so a
 * text search cannot tell them apart; reviews keep them out.
 */
const ONE_SENSE_ONLY = new Set(["item", "change", "diff", "comment", "system", "reference", "segment", "DONE", "WorkspaceData.item", "/studies/SLUG/items/ID", "createdBy", "rating", "grading", "filtering", "filter", "claims", "batches", "correlate", "--params KEY"]);

/** Where a retired name is right, and why: path prefix -> names (or "*"). */
const ALLOWED: Record<string, readonly string[]> = {
  // The reference implementations' vocabulary (sacreBLEU, SciPy) is kept to check against them.
  "lib/metrics/": ["*"],
  "lib/stats/": ["*"],
  // File formats keep their spelling (the jsonl format's `commentFilters`), mapped to the glossary's names there.
  "lib/import/": ["commentFilters", '"claim"'], // and CRScore's sheets' "claim" column
  "lib/export/": ["commentFilters"],
  // The command line refuses a retired command or flag by naming its replacement.
  "lib/cli/": ["create-user", "--batch-size", "--level segment", "--params KEY"],
  // The accounts page's old address redirects to the new one.
  "next.config.js": ["/admin/users", "users"],
  // The demo study's code changes are source code of their own (their `User` classes and `users` tables).
  "lib/seed/demo/java.ts": ["User", "user", "users"],
  "lib/seed/demo/python.ts": ["User", "user", "users"],
  "lib/seed/demo/pull-request.ts": ["User", "user", "users"],
  // Other programs' words for their own users: next-auth's Session.user and its callbacks' user,
  // the PostgreSQL server's operating-system user, GitHub's user object of a review comment,
  // Node's process.cpuUsage().user, a URL's user info, the chat API's user message, and English
  // prose about people using a program.
  "lib/auth/options.ts": ["user"],
  "lib/auth/session.ts": ["user"],
  "e2e/authorization-matrix.spec.ts": ["user"],
  "lib/db/embedded-postgres.ts": ["user"],
  "lib/db/test-database.ts": ["user"],
  "lib/export/github-comments.ts": ["user"],
  "lib/import/pull-request/": ["user"],
  "lib/cli/run.ts": ["user", "users"],
  "lib/judges/": ["user"], // the chat API's message roles (system, user)
  "scripts/bench/": ["user"],
  "components/diff-view/highlight.ts": ["users"],
  "components/workspace/workspace.tsx": ["users"],
  "e2e/global-setup.ts": ["user"],
  // "claim" and "added" in their other senses than the retired save kinds: a stage-2 reference's
  // origin (a claim, a smell, added by an annotator), the item sets' table of claims
  // (?table=claim), table columns (the claim, the claims added), a changed file's status, and
  // words shown to people.
  "lib/annotation/stage2.ts": ['"claim"', '"added"'],
  "components/workspace/rating-task.tsx": ['"claim"'],
  "lib/data/item-sets.ts": ['"claim"'],
  "app/studies/[slug]/item-sets/page.tsx": ['"claim"'],
  "components/item-set-forms.tsx": ['"claim"'],
  "app/studies/[slug]/consolidate/": ['"claim"', '"added"'],
  "components/dashboard/agreement-tables.ts": ['"added"'],
  "components/pull-request/file-section.tsx": ['"added"'],
  "components/study-waiting.tsx": ['"claim"'],
  // pg-boss's own option for how many jobs one fetch or handler takes (the job queue, not agreement windows).
  "lib/jobs/work.ts": ["batchSize"],
  "lib/metric-runs/drain.ts": ["batchSize"],
  "lib/pseudo-refs/runs.ts": ["batchSize"],
};

/**
 * Names not renamed yet, with the files that still use them. Exact: a file that stops using one
 * must leave this list, and no other file may start.
 */
const PENDING: Record<string, readonly string[]> = {
};

/** The back-ticked names of the glossary's Retired lists (and of "... are retired" sentences), without NOT_RETIRED. */
export function retiredNames(glossary: string): string[] {
  const names = new Set<string>();
  for (const paragraph of glossary.split(/\n(?=- |#|\n)/)) {
    const flat = paragraph.replace(/\s*\n\s*/g, " ");
    const spans = [...flat.matchAll(/[Rr]etired(?: before use)?:?(.*)$/g)].map((m) => m[1]);
    for (const m of flat.matchAll(/((?:[^.;]|\.(?=\S))*) are retired/g)) spans.push(m[1]);
    for (const span of spans) {
      for (const m of span.matchAll(/`([^`]+)`/g)) {
        // "`x` becomes `y`", "write `y`": y is the new name.
        if (/\b(becomes?|write)\s+(`[^`]*`\s*(,|and)\s*)*$/.test(span.slice(0, m.index))) continue;
        if (!NOT_RETIRED.has(m[1])) names.add(m[1]);
      }
    }
  }
  return [...names].sort();
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** How a retired name is found in source text: an identifier not wrapped in quotes; anything else (a quoted kind, a flag, a route, a file name) as written. */
export function pattern(name: string): RegExp {
  if (/^[A-Za-z_$][\w$]*$/.test(name)) return new RegExp(`(?<![\\w$"'-])${escape(name)}(?![\\w$"'-])`);
  const file = /^(?:.*\/)?([\w.-]+\.(?:ts|tsx))$/.exec(name);
  if (file) return new RegExp(`(?<![\\w-])${escape(file[1].replace(/\.tsx?$/, ""))}(?:\\.tsx?)?(?![\\w-])`);
  return new RegExp(`(?<![\\w-])${escape(name)}(?![\\w-])`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return rel === "lib/generated" ? [] : sourceFiles(rel);
    return SOURCE.test(entry.name) ? [rel] : [];
  });
}

const allowed = (file: string, name: string) => Object.entries(ALLOWED).some(([prefix, names]) => file.startsWith(prefix) && (names.includes("*") || names.includes(name)));

/** Each checked retired name -> the files (by path, or by name for a retired file name) that use it. */
export function uses(names: readonly string[], files: readonly { path: string; text: string }[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const name of names) {
    if (ONE_SENSE_ONLY.has(name)) continue;
    const re = pattern(name);
    const hits = files.filter((f) => !allowed(f.path, name) && (re.test(f.text) || re.test(path.basename(f.path)))).map((f) => f.path);
    if (hits.length > 0) found.set(name, hits.sort());
  }
  return found;
}

/** The keys of the TaskWorkspace interface (lib/tasks/types.ts): its lines two spaces in. */
export function workspaceKeys(types: string): string[] {
  const body = /^export interface TaskWorkspace \{\n(.*?)^\}/ms.exec(types);
  if (!body) throw new Error("no TaskWorkspace interface");
  return [...body[1].matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]);
}

describe("the glossary's retired names", () => {
  const names = retiredNames(readFileSync(path.join(ROOT, "docs/glossary.md"), "utf8"));

  test("are read from docs/glossary.md's Retired lists", () => {
    for (const name of ["CandidateReview", "candidateReviewId", "User", "userId", "SessionUser", "StudyUser", "Actor", "create-user", "/admin/users", "taskType", '"claim"', "--batch-size", "paramsKey", "correlation-report.ts", "filter-task.tsx", "CLAIM_CODES", "studyGraders"]) expect(names).toContain(name);
    for (const name of NOT_RETIRED) expect(names).not.toContain(name);
  });

  test("are found as identifiers, quoted kinds, flags, routes and file names, but not as quoted storage names", () => {
    const old = [
      { path: "lib/data/x.ts", text: 'const r = await db.candidateReview.findMany({ where: { candidateReviewId: id } });' },
      { path: "lib/data/y.ts", text: 'await save({ kind: "claim" }); run(["--batch-size", "10"]); link("/admin/users");' },
      { path: "components/workspace/filter-task.tsx", text: "export {};" },
      { path: "lib/data/z.ts", text: 'Prisma.sql`SELECT "candidateReviewId" FROM "CandidateReview" WHERE status = \'DONE\'`' },
      { path: "lib/metrics/bleu.ts", text: "const paramsKey = 1;" },
    ];
    expect(Object.fromEntries(uses(names, old))).toEqual({
      candidateReview: ["lib/data/x.ts"],
      candidateReviewId: ["lib/data/x.ts"],
      '"claim"': ["lib/data/y.ts"],
      "--batch-size": ["lib/data/y.ts"],
      "/admin/users": ["lib/data/y.ts"],
      "filter-task.tsx": ["components/workspace/filter-task.tsx"],
    });
  });

  test("are not the keys of the workspace's task parts, which are the tasks' names", () => {
    // "claims", "rating", ... are words of other senses too (ONE_SENSE_ONLY), so the search above
    // skips them; the keys are checked where they are declared: TaskWorkspace in lib/tasks/types.ts.
    const keys = workspaceKeys(readFileSync(path.join(ROOT, "lib/tasks/types.ts"), "utf8"));
    const tasks = [...readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8").match(/^enum TaskType \{\n([^}]*)\}/m)![1].matchAll(/^\s*([A-Z_]+)\s*$/gm)].map((m) => m[1]);
    expect(tasks.length).toBeGreaterThan(0);
    expect(keys.sort()).toEqual(tasks.map((t) => t.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())).sort());
    const glossary = readFileSync(path.join(ROOT, "docs/glossary.md"), "utf8").replace(/\s*\n\s*/g, " ");
    const named = [...glossary.match(/part of the workspace is keyed by the task: ((?:`\w+`(?:, )?)+)/)![1].matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(keys).toEqual(expect.arrayContaining(named));
    for (const retired of ["claims", "rating", "grading", "filtering"]) expect(names).toContain(retired);
    expect(keys.filter((k) => names.includes(k))).toEqual([]);
  });

  test("workspace keys are read from TaskWorkspace's own lines, not its parts' fields", () => {
    const text = "export interface TaskWorkspace {\n  claims?: {\n    references: string[];\n  };\n  /** c */\n  rating?: { reviews: string[] };\n}\n\nexport interface Other {\n  grading: number;\n}\n";
    expect(workspaceKeys(text)).toEqual(["claims", "rating"]);
  });

  test("are used nowhere in the code except where allowed, and the pending ones only where listed", () => {
    const files = [...FOLDERS.flatMap(sourceFiles), "next.config.js"].map((p) => ({ path: p, text: readFileSync(path.join(ROOT, p), "utf8") }));
    expect(Object.fromEntries(uses(names, files))).toEqual(PENDING);
  });
});
