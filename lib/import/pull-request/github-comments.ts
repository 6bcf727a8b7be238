/**
 * Review comments in GitHub's REST shape (GET /repos/{owner}/{repo}/pulls/{n}/comments, or
 * `gh api --paginate`): path, side, line, start_line, start_side, subject_type, body,
 * user.login, in_reply_to_id, id. Real exports are read as they come: nulls, extra keys, bots'
 * logins, deleted accounts (`user` null: "ghost"), bodies with CRLF line ends (stored with LF),
 * outdated comments (`line` null, only `original_line`) and old data with only a `position`
 * (or `original_position`) in the diff. What is read differently from what it says is a warning. A comment's
 * own `system` (or the export's `crjudge.system`) names its system; else `--system`; else its author.
 */
import type { JsonObject } from "../bundle";
import type { ErrorCollector, SourceLocation } from "../errors";
import { MAX_TEXT_CHARS } from "../text";
import { derivedCommentId, idText, lineOf, otherFields, sideOf, systemOfAuthor, type Checked } from "./comment-fields";
import type { LocatedValue } from "./json-values";
import type { AnchorInput, ReviewCommentInput } from "./types";

/** Keys stored in the comment's own columns. */
const COLUMN_KEYS = new Set(["id", "path", "side", "start_side", "line", "start_line", "subject_type", "body", "user", "in_reply_to_id", "system", "metadata", "crjudge"]);
/** GitHub's bookkeeping, not kept: links, the diff excerpt (the pull request has the diff), reactions and rendered bodies. */
const BOOKKEEPING_KEYS = new Set(["_links", "url", "pull_request_url", "node_id", "diff_hunk", "reactions", "author_association", "body_html", "body_text"]);
const DROPPED = new Set([...COLUMN_KEYS, ...BOOKKEEPING_KEYS]);

export interface GithubCommentOptions {
  /** The system of every comment of the file (a tool's comments posted from a shared account); else from each author. */
  system?: string;
  /** The head commit imported: an outdated comment written on it is read without a warning. */
  headSha?: string;
}

type Fields = Record<string, unknown>;

/** The login GitHub shows for a deleted account. */
const GHOST = "ghost";

/** The same commit: full hashes, or one an abbreviation of the other. */
const sameCommit = (a: unknown, b: string | undefined) => typeof a === "string" && a.length >= 7 && b !== undefined && b.length >= 7 && (a.startsWith(b) || b.startsWith(a));

/** Reports a problem of one comment: its field and what is wrong, the message naming the comment. */
type Report = (field: string | undefined, message: string) => void;

function checked<T>(result: Checked<T>, field: string, report: Report): T | undefined {
  if (result.ok) return result.value;
  report(field, result.message);
  return undefined;
}

/**
 * The anchor a GitHub comment states: the whole file, its lines (the current ones, else an
 * outdated comment's original ones), or old data's diff position.
 */
function anchorOf(record: Fields, name: string, options: GithubCommentOptions, report: Report, warnings: string[]): AnchorInput | undefined {
  const side = checked(sideOf(record.side), "side", report);
  const startSide = checked(sideOf(record.start_side), "start_side", report);
  if (record.subject_type === "file") return side === undefined ? undefined : { kind: "file", side };
  if (record.subject_type !== undefined && record.subject_type !== null && record.subject_type !== "line") {
    report("subject_type", `expected "line" or "file", not ${JSON.stringify(record.subject_type)}`);
    return undefined;
  }
  const line = checked(lineOf(record.line), "line", report);
  const startLine = checked(lineOf(record.start_line), "start_line", report);
  if (side === undefined || startSide === undefined || line === undefined || startLine === undefined) return undefined;
  if (line !== null) return { kind: "lines", side: side ?? "RIGHT", line, startLine, startSide: startLine === null ? null : (startSide ?? side ?? "RIGHT") };

  const onHead = sameCommit(record.original_commit_id, options.headSha);
  const originalLine = checked(lineOf(record.original_line), "original_line", report);
  const originalStart = checked(lineOf(record.original_start_line), "original_start_line", report);
  if (originalLine === undefined || originalStart === undefined) return undefined;
  if (originalLine !== null) {
    if (!onHead) warnings.push(`${name}: outdated (line is null): read at its original_line ${originalLine}, which it had on commit ${String(record.original_commit_id ?? "(not given)").slice(0, 12)}, not on the head imported; the line may have moved since`);
    return { kind: "lines", side: side ?? "RIGHT", line: originalLine, startLine: originalStart, startSide: originalStart === null ? null : (startSide ?? side ?? "RIGHT") };
  }
  for (const field of ["position", "original_position"] as const) {
    const position = checked(lineOf(record[field]), field, report);
    if (position === undefined) return undefined;
    if (position === null) continue;
    const commit = field === "position" ? record.commit_id : record.original_commit_id;
    if (!sameCommit(commit, options.headSha)) warnings.push(`${name}: has only a ${field} (${position}) in the diff of commit ${String(commit ?? "(not given)").slice(0, 12)}: read in the diff of the head imported, which may differ`);
    return { kind: "position", position };
  }
  warnings.push(`${name}: names no line (line, original_line and position are null): read as a comment on the whole file`);
  return { kind: "file", side };
}

/** One GitHub comment object; undefined after reporting what is wrong with it. */
function commentOf(value: unknown, at: SourceLocation, index: number, options: GithubCommentOptions, errors: ErrorCollector, warnings: string[]): ReviewCommentInput | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    errors.add(at, undefined, `comment ${index + 1}: expected an object (a pull request review comment), not ${Array.isArray(value) ? "an array" : JSON.stringify(value)}`);
    return undefined;
  }
  const record = value as Fields;
  const before = errors.total;
  const stated = idText(record.id);
  const label = stated === null ? `comment ${index + 1} of the file` : `comment ${stated}`;
  const report: Report = (field, message) => errors.add(at, field, `${label}: ${message}`);
  const name = `${at.file}: line ${at.line}: ${label}`;
  if (record.id !== undefined && record.id !== null && stated === null) report("id", `expected a number or a string, not ${JSON.stringify(record.id)}`);
  const path = typeof record.path === "string" ? record.path : null;
  if (path === null || path === "") {
    const what = record.path === undefined || record.path === null ? "no path: a review comment names the file it is on (is this a pull request review or an issue comment?)" : `expected the file's path, not ${JSON.stringify(record.path)}`;
    report("path", what);
  }
  // GitHub's bodies often end their lines with CRLF: stored with LF, as the diffs are.
  const body = record.body === null || record.body === undefined ? "" : typeof record.body === "string" ? record.body.replace(/\r\n?/g, "\n") : record.body;
  if (typeof body !== "string") report("body", `expected Markdown text, not ${JSON.stringify(body)}`);
  else if (body.length > MAX_TEXT_CHARS) report("body", `longer than ${MAX_TEXT_CHARS} characters`);
  const user = record.user as Fields | null | undefined;
  // A deleted account's comments come with user null; GitHub shows them as "ghost".
  const login = user === null ? GHOST : user && typeof user === "object" && typeof user.login === "string" ? user.login : "";
  if (user !== null && user !== undefined && (typeof user !== "object" || (user.login !== undefined && typeof user.login !== "string"))) report("user.login", "expected the author's login as text");
  // The product's export writes the system under its own key (lib/export/github-comments.ts).
  const written = record.system ?? (record.crjudge as Fields | null | undefined)?.system;
  const ownSystem = typeof written === "string" && written.trim() !== "" ? written.trim() : null;
  const inReplyTo = idText(record.in_reply_to_id);
  if (record.in_reply_to_id !== undefined && record.in_reply_to_id !== null && inReplyTo === null) report("in_reply_to_id", `expected a comment id, not ${JSON.stringify(record.in_reply_to_id)}`);
  const extra = record.metadata;
  if (extra !== undefined && extra !== null && (typeof extra !== "object" || Array.isArray(extra))) report("metadata", "expected a JSON object");
  const anchor = anchorOf(record, name, options, report, warnings);
  if (errors.total > before || anchor === undefined || path === null || typeof body !== "string") return undefined;
  const line = anchor.kind === "lines" ? anchor.line : null;
  const side = anchor.kind === "position" ? null : anchor.side;
  return {
    externalId: stated ?? derivedCommentId({ path, side, line, author: login, body }),
    path,
    anchor,
    body,
    system: ownSystem ?? options.system ?? systemOfAuthor(login, user?.type),
    author: login,
    inReplyTo,
    metadata: { ...otherFields(record, DROPPED), ...((extra ?? {}) as JsonObject) },
    at,
  };
}

/** The comments of a GitHub-shaped file (its values read by readJsonValues), and warnings about how some were read. */
export function parseGithubComments(values: readonly LocatedValue[], file: string, options: GithubCommentOptions, errors: ErrorCollector): { comments: ReviewCommentInput[]; warnings: string[] } {
  const comments: ReviewCommentInput[] = [];
  const warnings: string[] = [];
  values.forEach(({ value, line }, index) => {
    const comment = commentOf(value, { file, line }, index, options, errors, warnings);
    if (comment) comments.push(comment);
  });
  return { comments, warnings };
}
