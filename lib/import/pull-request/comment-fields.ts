/**
 * Checks shared by the comment formats: ids, systems, sides and line numbers as files write
 * them, and the id a comment without one is given.
 */
import { createHash } from "node:crypto";
import type { DiffSide } from "@/lib/generated/prisma/enums";
import type { JsonObject, JsonValue } from "../bundle";

/** A review tool posting as a GitHub App has a login ending in "[bot]" (coderabbitai[bot], github-actions[bot]). */
const BOT_LOGIN = /\[bot\]$/i;

/**
 * The system of a comment from its author: a bot's login without "[bot]" (the tool), else
 * "human" (a human reviewer; the login stays the comment's author).
 */
export function systemOfAuthor(login: string, userType?: unknown): string {
  if (BOT_LOGIN.test(login)) return login.replace(BOT_LOGIN, "");
  return userType === "Bot" && login !== "" ? login : "human";
}

/** An id written as a number or a string, as text; null when it is neither. */
export function idText(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return null;
}

/** The id of a comment its file gives none: the same comment always gets the same id, so a second import finds it. */
export function derivedCommentId(parts: { path: string; side: string | null; line: number | null; author: string; body: string }): string {
  const hash = createHash("sha256").update(JSON.stringify([parts.path, parts.side, parts.line, parts.author, parts.body])).digest("hex");
  return `h-${hash.slice(0, 16)}`;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** A side: LEFT or RIGHT in any case; null and absent are "not stated". */
export function sideOf(value: unknown): Checked<DiffSide | null> {
  if (value === null || value === undefined) return { ok: true, value: null };
  if (typeof value === "string" && /^(left|right)$/i.test(value)) return { ok: true, value: value.toUpperCase() as DiffSide };
  return { ok: false, message: `expected "LEFT" (the old file) or "RIGHT" (the new file), not ${JSON.stringify(value)}` };
}

/** A 1-based line number; null and absent are "not stated". */
export function lineOf(value: unknown): Checked<number | null> {
  if (value === null || value === undefined) return { ok: true, value: null };
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 2 ** 31 - 1) return { ok: true, value };
  return { ok: false, message: `expected a line number from 1, not ${JSON.stringify(value)}` };
}

/** The object without its null values and without `keys`. */
export function otherFields(record: Record<string, unknown>, keys: ReadonlySet<string>): JsonObject {
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(record)) {
    if (!keys.has(key) && value !== null && value !== undefined) rest[key] = value as JsonValue;
  }
  return rest;
}
