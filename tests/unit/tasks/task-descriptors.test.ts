/**
 * A task type is its descriptor (lib/tasks) plus its UI component: (a) every task type of the
 * schema has a descriptor with every part, its storage naming real columns; (b) every place
 * outside lib/tasks that names a task type is listed here with why, so a new place that would
 * have to change with each new task type fails this test.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { ZodObject } from "zod";
import { AnnotationKind, TaskType } from "@/lib/generated/prisma/enums";
import { ANNOTATION_KINDS } from "@/lib/annotation/values";
import { referenceGradeValue, saveRequest, VALUE_SCHEMAS } from "@/lib/annotation/value-schemas";
import { DEFAULT_COMMENT_QUESTIONS } from "@/lib/annotation/comment-questions";
import { TASK_LIST, TASKS } from "@/lib/tasks";
import { ITEM_TABLES, type TaskDescriptor } from "@/lib/tasks/types";
import { TASK_QUERIES } from "@/lib/data/task-queries";
import type { TaskQueries } from "@/lib/data/annotation-rows";

const ROOT = path.resolve(__dirname, "../../..");
const TASK_TYPES = Object.values(TaskType);
const study = { likertDimensions: ["conciseness", "relevance"], likertMin: 1, likertMax: 5, commentQuestions: DEFAULT_COMMENT_QUESTIONS };

/** Each model of prisma/schema.prisma: its table (name or @@map), field names and their columns (name or @map). */
function schemaModels(): Map<string, { table: string; fields: Set<string>; columns: Map<string, string> }> {
  const text = readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8");
  const models = new Map<string, { table: string; fields: Set<string>; columns: Map<string, string> }>();
  for (const [, name, body] of text.matchAll(/^model (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const declared = [...body.matchAll(/^\s+(\w+)\s+\S[^\n]*/gm)];
    const columns = new Map(declared.map((m) => [m[1], /@map\("(\w+)"\)/.exec(m[0])?.[1] ?? m[1]]));
    models.set(name, { table: /@@map\("(\w+)"\)/.exec(body)?.[1] ?? name, fields: new Set(columns.keys()), columns });
  }
  return models;
}

/** The parts every descriptor must have, as a list of problems (empty when complete). */
function problems(type: string, task: TaskDescriptor | undefined, queries: TaskQueries | null = TASK_QUERIES[type as TaskType] ?? null): string[] {
  if (!task) return [`${type}: no descriptor in lib/tasks (TASKS)`];
  const out: string[] = [];
  const need = (ok: unknown, part: string) => {
    if (!ok) out.push(`${type}: ${part}`);
  };
  need(task.task === type, "task names another type");
  need(typeof task.name === "string" && task.name.length > 0, "name");
  need(typeof task.timeKey === "string" && task.timeKey.length > 0, "timeKey");
  need(task.itemKind in ITEM_TABLES, "itemKind");
  need(typeof task.label === "string" && task.label.length > 0 && typeof task.annotationName === "string" && task.annotationName.length > 0, "label and annotationName");
  for (const part of ["questions", "answer", "stored", "missing", "appliesTo", "consensusColumn"] as const) need(typeof task[part] === "function", part);
  need(Array.isArray(task.shortcuts) && task.shortcuts.every((s) => s.keys.length > 0 && s.description.length > 0), "shortcuts (each with its keys and what it does)");
  const codebook = typeof task.codebook === "function" ? task.codebook(study) : [];
  need(codebook.length > 0 && codebook.every((section) => section.title.length > 0 && (section.entries.length > 0 || Boolean(section.summary))), "codebook (titled sections with entries or a summary)");
  need(typeof queries?.readWorkspace === "function" && typeof queries.itemAnnotations === "function", "queries in lib/data (TASK_QUERIES: readWorkspace, itemAnnotations)");
  need(task.export?.of === task.itemKind && typeof task.export.values === "function" && typeof task.export.ratings === "function", "export (of its item kind, values, ratings)");
  const kinds = Object.entries(task.values ?? {});
  need(kinds.length > 0, "values (at least one save kind)");
  for (const [kind, value] of kinds) {
    need(typeof value.schema?.safeParse === "function" && value.schema === VALUE_SCHEMAS[kind as keyof typeof VALUE_SCHEMAS], `values.${kind}.schema (the save request's value schema)`);
    need((Object.values(AnnotationKind) as string[]).includes(value.history), `values.${kind}.history`);
    if (value.row) need(JSON.stringify(value.row.fields.map((f) => f.name).sort()) === JSON.stringify(Object.keys((value.schema as ZodObject).shape).sort()), `values.${kind}.row.fields are the value's fields`);
    else need(typeof queries?.saveTarget === "function", `queries' saveTarget (${kind} is not stored in the row)`);
  }
  const model = schemaModels().get(task.storage?.model?.replace(/^./, (c) => c.toUpperCase()) ?? "");
  need(model && model.table === task.storage.table, "storage: model and table of prisma/schema.prisma");
  if (model) {
    const { column, field, relation } = task.storage.item;
    for (const name of ["annotatorId", "version", "timeSpentMs", "importRunId", "importedFile", field, relation, ...kinds.flatMap(([, v]) => v.row?.fields.map((f) => f.name) ?? [])]) need(model.fields.has(name), `storage: field ${name}`);
    need(model.columns.get(field) === column, `storage: column ${column} (of field ${field})`);
  }
  const questions = typeof task.questions === "function" ? task.questions(study) : [];
  need(questions.length > 0 && questions.every((q) => q.task === type && q.scale.length > 0), "questions (of this task, with a scale)");
  const judged = typeof task.judgeQuestions === "function" ? task.judgeQuestions(study) : [];
  need(judged.length > 0 && judged.every((q) => q.task === type && typeof q.apply === "function" && task.values[q.kind] !== undefined), "judgeQuestions (of this task, each stored as one of its save kinds)");
  for (const q of questions) {
    const column = task.answer(q);
    need(("text" in column && column.text.length > 0) || ("jsonNumber" in column && model?.fields.has(column.jsonNumber)), `answer of question ${q.key}`);
  }
  return out;
}

describe("task descriptors", () => {
  test("the saves are derived from the descriptors: the one-statement save and the row writes name no task's table, model or column", () => {
    const names = TASK_LIST.flatMap((t) => [t.storage.table, t.storage.model, t.storage.item.column, ...Object.values(t.values).flatMap((v) => v.row?.fields.map((f) => f.name) ?? [])]);
    for (const file of ["lib/data/annotation-statement.ts", "lib/data/annotation-rows.ts"]) {
      const code = readFileSync(path.join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      expect(names.filter((name) => new RegExp(`\\b${name}\\b`).test(code)), file).toEqual([]);
    }
  });

  test("every task type of the schema has a descriptor with every part", () => {
    expect(TASK_TYPES.flatMap((type) => problems(type, TASKS[type]))).toEqual([]);
    expect(TASK_LIST.map((t) => t.task).sort()).toEqual([...TASK_TYPES].sort());
  });

  test("a descriptor without a part, or with storage the schema lacks, is caught", () => {
    const { missing: _missing, ...withoutMissing } = TASKS.REFERENCE_GRADING;
    expect(problems("REFERENCE_GRADING", withoutMissing as TaskDescriptor)).toEqual(["REFERENCE_GRADING: missing"]);
    const badStorage = { ...TASKS.COMMENT_FILTERING, storage: { ...TASKS.COMMENT_FILTERING.storage, item: { column: "reviewCommentId", field: "reviewCommentId", relation: "reviewComment" } } };
    expect(problems("COMMENT_FILTERING", badStorage)).toEqual(["COMMENT_FILTERING: storage: field reviewCommentId", "COMMENT_FILTERING: storage: field reviewComment", "COMMENT_FILTERING: storage: column reviewCommentId (of field reviewCommentId)"]);
    const fieldAsColumn = { ...TASKS.COMMENT_FILTERING, storage: { ...TASKS.COMMENT_FILTERING.storage, item: { ...TASKS.COMMENT_FILTERING.storage.item, column: "reviewId" } } };
    expect(problems("COMMENT_FILTERING", fieldAsColumn)).toEqual(["COMMENT_FILTERING: storage: column reviewId (of field reviewId)"]);
    expect(problems("PULL_REQUEST_REVIEW", undefined)).toEqual(["PULL_REQUEST_REVIEW: no descriptor in lib/tasks (TASKS)"]);
    const ownSchema = { ...TASKS.REFERENCE_GRADING, values: { grade: { ...TASKS.REFERENCE_GRADING.values.grade!, schema: referenceGradeValue.extend({}) } } };
    expect(problems("REFERENCE_GRADING", ownSchema)).toEqual(["REFERENCE_GRADING: values.grade.schema (the save request's value schema)"]);
    const { codebook: _codebook, shortcuts: _shortcuts, ...withoutUi } = TASKS.COMMENT_FILTERING;
    expect(problems("COMMENT_FILTERING", withoutUi as TaskDescriptor)).toEqual(["COMMENT_FILTERING: shortcuts (each with its keys and what it does)", "COMMENT_FILTERING: codebook (titled sections with entries or a summary)"]);
    const { judgeQuestions: _judgeQuestions, ...withoutJudge } = TASKS.REFERENCE_GRADING;
    expect(problems("REFERENCE_GRADING", withoutJudge as TaskDescriptor)).toEqual(["REFERENCE_GRADING: judgeQuestions (of this task, each stored as one of its save kinds)"]);
    expect(problems("REFERENCE_GRADING", { ...TASKS.REFERENCE_GRADING, judgeQuestions: TASKS.COMMENT_FILTERING.judgeQuestions })).toEqual(["REFERENCE_GRADING: judgeQuestions (of this task, each stored as one of its save kinds)"]);
    expect(problems("COMMENT_FILTERING", TASKS.COMMENT_FILTERING, null)).toEqual(["COMMENT_FILTERING: queries in lib/data (TASK_QUERIES: readWorkspace, itemAnnotations)"]);
    const { saveTarget: _saveTarget, ...withoutSaveTarget } = TASK_QUERIES.REVIEW_RATING;
    expect(problems("REVIEW_RATING", TASKS.REVIEW_RATING, withoutSaveTarget)).toEqual(["REVIEW_RATING: queries' saveTarget (rating is not stored in the row)", "REVIEW_RATING: queries' saveTarget (necessity is not stored in the row)"]);
  });

  test("every save kind belongs to exactly one task, and every time key to one", () => {
    const kinds = saveRequest.options.map((o) => o.shape.kind.value);
    expect(kinds.map((kind) => TASK_LIST.filter((t) => t.values[kind] !== undefined).length)).toEqual(kinds.map(() => 1));
    expect([...ANNOTATION_KINDS].sort()).toEqual([...kinds].sort());
    expect(new Set(TASK_LIST.map((t) => t.timeKey)).size).toBe(TASK_LIST.length);
  });
});

/**
 * Files outside lib/tasks that name a task type, and why. PROTOCOL: a rule of one paper's
 * protocol about particular tasks (CRScore's two stages, its Table 1 of claims, GradedReviews'
 * workbook) or the demo study's data, which a new task type leaves as it is. PER_TASK: what lists every task; a new task
 * type extends these (file formats, and its queries in lib/data), and the list says why each is
 * not in the descriptor.
 */
const PROTOCOL: Record<string, string> = {
  "app/studies/[slug]/adjudicate/[task]/[itemId]/page.tsx": "claims link to their consolidation (CRScore §4.2)",
  "app/studies/[slug]/page.tsx": "the stage-order toggle of CRScore's two stages; comments per system (c-CRAB Table 6, Figure 6) in a study with comment questions",
  "app/studies/[slug]/settings/page.tsx": "a study with comment questions edits them (c-CRAB §4.2.1, §4.4.3, §5.2, §5.3)",
  "components/new-study-form.tsx": "a study with comment questions starts from c-CRAB's (§5.2, §5.3, §4.4.3)",
  "components/dashboard/agreement-tables.ts": "claims link to their consolidation (CRScore §4.2)",
  "lib/annotation/stage-order.ts": "CRScore's stage order: claim verification before review rating",
  "lib/annotation/waiting.ts": "stage 2 waits for stage 1 (CRScore §4.2)",
  "lib/data/annotations.ts": "stage 2 waits for the annotator's own stage 1 (CRScore §4.2)",
  "lib/data/assignment-admin.ts": "consolidation reads stage 1's assignments (CRScore §4.2)",
  "lib/data/assignments.ts": "stage 2 waits for stage 1 (CRScore §4.2)",
  "lib/data/comment-questions.ts": "editing comment questions counts the lead decisions on them",
  "lib/data/comment-systems.ts": "c-CRAB Table 6 and Figure 6 read the comment questions' consensus (§5.2, §5.3)",
  "lib/data/exports.ts": "the GradedReviews workbook's consensus grades",
  "lib/data/judge-runs.ts": "a judge grading a review reads the reference review beside it (GradedReviews §5.2)",
  "lib/data/quality.ts": "claims are listed by position; reference grading leaves out the reference review (GradedReviews §4.3)",
  "lib/data/reports.ts": "CRScore Table 1 (claim quality) beside claim verification's agreement",
  "lib/data/study-settings.ts": "Likert dimensions are review rating's questions (CRScore Table 7)",
  "lib/data/study-waiting.ts": "code changes ready for consolidation (CRScore §4.2)",
  "lib/data/tools-report.ts": "c-CRAB Table 5 and Figure 7 read the comment questions' consensus (§4.3.2, §5.3)",
  "lib/import/crscore-phase1.ts": "the CRScore phase-1 sheets are claim verification",
  "lib/import/crscore-phase2.ts": "the CRScore phase-2 sheets are review rating",
  "lib/import/gradedreviews.ts": "the GradedReviews workbook is reference grading",
  "lib/judges/rater-presets.ts": "each paper's judge prompt answers its own task: GradedReviews §5.2 grades, CRScore's LLM-as-a-judge ratings, c-CRAB §4.2.1 comment filtering",
  "lib/import/plan.ts": "history kind REVIEW_RATING of imported ratings (an AnnotationKind)",
  "lib/metric-runs/tau.ts": "CRScore's τ is tuned on review rating's relevance (§4.3)",
  "lib/seed/demo/pull-request.ts": "demo data: a skipped comment filtering",
  "lib/seed/write.ts": "history kind REVIEW_RATING of seeded ratings (an AnnotationKind)",
};

const PER_TASK: Record<string, string> = {
  "lib/import/jsonl.ts": "file format: the jsonl format's fields per task (docs/jsonl-format.md)",
  "lib/seed/demo/index.ts": "file format: the demo study's task list",
  "lib/seed/plan.ts": "file format: the demo study's annotations per task",
  "lib/data/task-queries.ts": "each task's own queries (TASK_QUERIES), one file per annotation aggregate in lib/data",
};

/** Source files under `dir` (TypeScript), relative to the root. */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(path.join(ROOT, file)).isDirectory()) return file === "lib/generated" || file === "lib/tasks" ? [] : sources(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** The task types a file's code (comments left out) names, as strings, keys or TaskType members. */
function tasksNamed(file: string): Set<string> {
  const code = readFileSync(path.join(ROOT, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return new Set(TASK_TYPES.filter((type) => new RegExp(`\\b${type}\\b`).test(code)));
}

describe("where task types are read", () => {
  const found = new Map(["lib", "app", "components"].flatMap(sources).map((file) => [file.split(path.sep).join("/"), tasksNamed(file)] as const).filter(([, types]) => types.size > 0));

  test("every file naming a task type outside lib/tasks is listed with why", () => {
    const unlisted = [...found.keys()].filter((file) => !(file in PROTOCOL) && !(file in PER_TASK));
    expect(unlisted, "read the descriptor (lib/tasks) instead, or list the file with why").toEqual([]);
    const gone = [...Object.keys(PROTOCOL), ...Object.keys(PER_TASK)].filter((file) => !found.has(file));
    expect(gone, "no longer names a task type: drop it from the list").toEqual([]);
  });

  test("only the PER_TASK files list every task type", () => {
    const everyTask = [...found].filter(([, types]) => types.size === TASK_TYPES.length).map(([file]) => file);
    expect(everyTask.filter((file) => !(file in PER_TASK))).toEqual([]);
  });
});
