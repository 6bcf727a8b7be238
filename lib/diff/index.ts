/** Line diffs: unified diff output (Myers), parsing of unified diffs, and applying them. */
export { applyFileDiff } from "./apply";
export { splitLines } from "./lines";
export { diffLines } from "./myers";
export type { ChangeBlock } from "./myers";
export { DiffParseError, parseUnifiedDiff } from "./parse";
export type { DiffFile, DiffHunk, DiffLine, DiffLineKind, DiffSource } from "./types";
export { unifiedDiff } from "./unified";
export type { UnifiedDiffOptions } from "./unified";
