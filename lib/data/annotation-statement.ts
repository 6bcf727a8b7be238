/**
 * The common save as one SQL statement: creating or updating, on one's own assignment, an
 * annotation whose value is stored in the row's own columns (a save kind with `row` storage in
 * its task's descriptor, lib/tasks: a claim judgement, reference grade or comment-filter label).
 * One statement checks the account (active, and the session version of the token), ownership and study membership of an annotator not paused (as annotatingStudyWhere in
 * lib/data/study-access), task, skip state and target, writes the row with
 * its version check (not held by the calibration rounds, lib/data/round-gate), appends the history row and starts the assignment; PostgreSQL runs it
 * atomically, so there is no BEGIN/COMMIT and no read-then-write round trip.
 *
 * It only ever does what the transaction in lib/data/annotations.ts would do with the same
 * outcome; whenever it writes nothing (a stale version, a repeated value, a refusal, a race
 * with another save) the caller falls back to that transaction, which decides and explains.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { SessionClaims } from "@/lib/auth/session";
import { sql } from "@/lib/db/client";
import type { SaveKind, SaveRequest } from "@/lib/annotation/values";
import { taskOfKind } from "@/lib/tasks";
import { ITEM_TABLES, itemOfAssignmentSql, type RowStorage, type TaskDescriptor } from "@/lib/tasks/types";
import { NOT_HELD_BY_ROUNDS_SQL } from "@/lib/data/round-gate";
import { ADMITTED_MEMBER_SQL } from "@/lib/data/study-access";

const NOW = `(now() AT TIME ZONE 'UTC')`;

/**
 * The statement of a save kind stored in the annotation row's own columns (the descriptor's
 * `storage` and the kind's `row`). Parameters: $1 assignment, $2 account, $3 target, $4 base
 * version, $5 new value (JSON), $6 session version, then the fields, then (creating) the new row's id.
 */
function statement(task: TaskDescriptor, kind: SaveKind, row: RowStorage, creating: boolean): string {
  const q = (name: string) => `"${name}"`;
  const shape = { table: task.storage.table, target: { column: task.storage.item.column, table: ITEM_TABLES[task.itemKind], condition: row.itemCondition }, fields: row.fields };
  const fields = shape.fields.map((f, i) => ({ column: q(f.name), param: `$${i + 7}::${f.type}` }));
  const newId = `$${shape.fields.length + 7}`;
  const own = `own AS (
    SELECT a."id", a."status" FROM "Assignment" a
    WHERE a."id" = $1 AND a."userId" = $2 AND a."taskType" = '${task.task}' AND a."status" <> 'SKIPPED' AND ${NOT_HELD_BY_ROUNDS_SQL}
      AND EXISTS (SELECT 1 FROM "User" u WHERE u."id" = $2 AND u."active" AND u."sessionVersion" = $6::integer)
      AND EXISTS (SELECT 1 FROM "Study" s WHERE s."id" = a."studyId" AND (s."createdById" = $2 OR EXISTS (SELECT 1 FROM "StudyMember" m WHERE m."studyId" = s."id" AND m."userId" = $2 AND m."pausedAt" IS NULL AND ${ADMITTED_MEMBER_SQL})))
      AND EXISTS (SELECT 1 FROM ${q(shape.target.table)} t WHERE t."id" = $3 AND ${itemOfAssignmentSql(task.itemKind, "t", 'a."codeChangeId"')} AND ${shape.target.condition}))`;
  const saved = creating
    ? `saved AS (
    INSERT INTO ${q(shape.table)} ("id", "annotatorId", ${q(shape.target.column)}, ${fields.map((f) => f.column).join(", ")}, "updatedAt")
    SELECT ${newId}, $2, $3, ${fields.map((f) => f.param).join(", ")}, ${NOW} FROM own WHERE $4::integer = 0
    ON CONFLICT ("annotatorId", ${q(shape.target.column)}) DO NOTHING
    RETURNING "id", "version", NULL::jsonb AS "oldValue")`
    : `old AS (
    SELECT x."id", jsonb_build_object(${shape.fields.map((f) => `'${f.name}', x.${q(f.name)}`).join(", ")}) AS "value"
    FROM ${q(shape.table)} x, own WHERE x."annotatorId" = $2 AND x.${q(shape.target.column)} = $3 AND x."version" = $4),
  saved AS (
    UPDATE ${q(shape.table)} x SET ${fields.map((f) => `${f.column} = ${f.param}`).join(", ")}, "version" = x."version" + 1, "updatedAt" = ${NOW}
    FROM old WHERE x."id" = old."id" AND x."version" = $4
      AND (${fields.map((f) => `x.${f.column}`).join(", ")}) IS DISTINCT FROM (${fields.map((f) => f.param).join(", ")})
    RETURNING x."id", x."version", old."value" AS "oldValue")`;
  return `WITH ${own},
  ${saved},
  history AS (
    INSERT INTO "AnnotationHistory" ("kind", "annotationId", "userId", "action", "baseVersion", "oldValue", "newValue")
    SELECT '${task.values[kind]!.history}', saved."id", $2, '${creating ? "CREATE" : "UPDATE"}', $4, saved."oldValue", $5::jsonb FROM saved),
  started AS (
    UPDATE "Assignment" a SET "status" = 'IN_PROGRESS', "startedAt" = ${NOW}, "updatedAt" = ${NOW}
    FROM own WHERE a."id" = own."id" AND own."status" = 'PENDING' AND EXISTS (SELECT 1 FROM saved))
  SELECT "id", "version" FROM saved`;
}

const STATEMENTS = new Map<string, { name: string; text: string }>();

/**
 * Saves in one statement when the save is a plain create (base version 0) or update (base
 * version still stored, value different); null when it wrote nothing and the caller must decide.
 */
export async function saveInOneStatement(session: SessionClaims, request: SaveRequest): Promise<{ id: string; version: number; value: unknown; changed: true } | null> {
  const task = taskOfKind(request.kind);
  const row = task.values[request.kind]!.row;
  if (!row || session.sessionVersion === undefined) return null;
  const creating = request.baseVersion === 0;
  const key = `save-${request.kind}-${creating ? "create" : "update"}`;
  if (!STATEMENTS.has(key)) STATEMENTS.set(key, { name: key, text: statement(task, request.kind, row, creating) });
  const value = request.value as Record<string, unknown>;
  const rows = await sql<{ id: string; version: number }>(STATEMENTS.get(key)!, [
    request.assignmentId,
    session.id,
    request.targetId,
    request.baseVersion,
    JSON.stringify(request.value),
    session.sessionVersion,
    ...row.fields.map((f) => value[f.name] ?? null),
    ...(creating ? [randomUUID()] : []),
  ]);
  return rows.length === 1 ? { id: rows[0].id, version: Number(rows[0].version), value: request.value, changed: true } : null;
}
