/**
 * The writes every task's annotation table takes alike, derived from the task's descriptor
 * (`storage`, and a save kind's `row`): the transaction's create and update of a value stored
 * in the annotation row's own columns, and the active time added to an annotation. Also the
 * shapes of what each task's own queries take and give (lib/data/task-queries.ts).
 */
import "server-only";
import { Prisma, type PrismaClient } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Stored } from "@/lib/annotation/versioning";
import type { Question, StudyScales } from "@/lib/analysis/questions";
import type { SaveRequest } from "@/lib/annotation/values";
import { ITEM_TABLES, itemOfAssignmentSql, itemOfAssignmentWhere, type ItemAnnotation, type RowStorage, type TaskDescriptor, type TaskWorkspace } from "@/lib/tasks/types";

export type Tx = Prisma.TransactionClient;
export type Db = PrismaClient;

export interface WorkspaceContext {
  client: Db | Tx;
  accountId: string;
  codeChangeId: string;
  /** stageOrder: the study keeps CRScore's stage order (lib/annotation/stage-order). */
  study: StudyScales & { hideSystemNames: boolean; stageOrder: boolean };
  /** Seed of the annotator's own order of the item's reviews. */
  reviewSeed: number;
}

/** Where one save writes: the stored annotation and how to create, update or remove it. */
export interface SaveTarget<V> {
  /** The stored annotation, or null when there is none yet. */
  current: (Stored<V> & { id: string }) | null;
  create(value: V): Promise<string>;
  /** Writes the value if the stored version is still `baseVersion`; false when it is not. */
  update(id: string, baseVersion: number, value: V): Promise<boolean>;
  remove?(id: string, baseVersion: number): Promise<boolean>;
}

export interface SaveContext {
  tx: Tx;
  annotatorId: string;
  codeChangeId: string;
  studyId: string;
}

/** What each task reads and writes itself (`TASK_QUERIES`, lib/data/task-queries.ts). */
export interface TaskQueries {
  /** The task's part of the workspace for one annotator and item. */
  readWorkspace(ctx: WorkspaceContext): Promise<TaskWorkspace>;
  /** Where a save of one of the task's kinds without row storage writes (refuses ids outside the item with 404). */
  saveTarget?(ctx: SaveContext, request: SaveRequest): Promise<SaveTarget<unknown>>;
  /**
   * Checks a value against the study's own settings, which the schema cannot know (the
   * questions a study asks); throws INVALID_INPUT naming the problem. Reads only through the
   * annotator's own assignment, and does nothing when that finds nothing (the save then refuses).
   */
  check?(client: Db, annotatorId: string, request: SaveRequest): Promise<void>;
  /** Each annotator's annotation of one item: values per question and their note, for adjudication. */
  itemAnnotations(client: Db | Tx, itemId: string, questions: Question[]): Promise<ItemAnnotation[]>;
}

interface AnnotationRow {
  id: string;
  version: number;
  [field: string]: unknown;
}

const importSelect = { importedFile: true, importRun: { select: { createdAt: true, createdBy: { select: { name: true } } } } } as const;

interface ImportedAnnotation {
  importedFile: string | null;
  importRun: { createdAt: Date; createdBy: { name: string } | null } | null;
}

/** The part of a Prisma delegate these writes use; every annotation model has it (`AnnotationModel`). */
interface AnnotationDelegate {
  findUnique(args: { where: Record<string, unknown> }): Promise<AnnotationRow | null>;
  findFirst(args: { where: Record<string, unknown>; select: typeof importSelect }): Promise<ImportedAnnotation | null>;
  count(args: { where: Record<string, unknown> }): Promise<number>;
  create(args: { data: Record<string, unknown> }): Promise<AnnotationRow>;
  updateMany(args: { where: Record<string, unknown>; data: Record<string, unknown> }): Promise<{ count: number }>;
}

const delegate = (client: Tx | Db, task: TaskDescriptor) => client[task.storage.model] as unknown as AnnotationDelegate;

/** Where a save of a row-stored value writes: the annotator's row on an item of the code change that meets the kind's condition (404 otherwise: a forged id writes nothing). */
export async function rowSaveTarget({ tx, annotatorId, codeChangeId }: SaveContext, task: TaskDescriptor, row: RowStorage, targetId: string): Promise<SaveTarget<unknown>> {
  const items = Prisma.raw(`"${ITEM_TABLES[task.itemKind]}"`);
  const found = await tx.$queryRaw<{ id: string }[]>`SELECT t.id FROM ${items} t, (SELECT ${codeChangeId}::text AS id) x WHERE t.id = ${targetId} AND ${Prisma.raw(itemOfAssignmentSql(task.itemKind, "t", "x.id"))} AND ${Prisma.raw(row.itemCondition)}`;
  if (found.length === 0) throw new AppError("NOT_FOUND", { message: row.notFound });
  const { field } = task.storage.item;
  const fields = (value: unknown) => Object.fromEntries(row.fields.map((f) => [f.name, (value as Record<string, unknown>)[f.name]]));
  const annotations = delegate(tx, task);
  const current = await annotations.findUnique({ where: { [`annotatorId_${field}`]: { annotatorId, [field]: targetId } } });
  return {
    current: current && { id: current.id, version: current.version, value: fields(current) },
    create: async (value) => (await annotations.create({ data: { annotatorId, [field]: targetId, ...fields(value) } })).id,
    update: async (id, base, value) => (await annotations.updateMany({ where: { id, annotatorId, version: base }, data: { ...fields(value), version: { increment: 1 } } })).count === 1,
  };
}

/** Adds active time to the annotator's own annotation of one item of the code change (none when there is no such annotation). */
export async function addAnnotationTime(tx: Tx, task: TaskDescriptor, accountId: string, itemId: string, codeChangeId: string, ms: number): Promise<void> {
  const { field, relation } = task.storage.item;
  await delegate(tx, task).updateMany({ where: { annotatorId: accountId, [field]: itemId, [relation]: itemOfAssignmentWhere(task.itemKind, codeChangeId) }, data: { timeSpentMs: { increment: ms } } });
}

/** One of the account's annotations of the task on the code change that an import wrote, if any. */
export function importedAnnotation(client: Tx | Db, task: TaskDescriptor, accountId: string, codeChangeId: string): Promise<ImportedAnnotation | null> {
  return delegate(client, task).findFirst({ where: { annotatorId: accountId, importRunId: { not: null }, [task.storage.item.relation]: itemOfAssignmentWhere(task.itemKind, codeChangeId) }, select: importSelect });
}

/** How many annotations of the task the study holds. */
export function countAnnotations(client: Tx | Db, task: TaskDescriptor, studyId: string): Promise<number> {
  return delegate(client, task).count({ where: { [task.storage.item.relation]: { codeChange: { studyId } } } });
}
