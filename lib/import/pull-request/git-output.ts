/** Reading git's output: `diff --raw -z`, a patch split per file, and `cat-file --batch`. */
import type { FileStatus } from "@/lib/generated/prisma/enums";

export interface RawEntry {
  status: FileStatus;
  oldPath: string | null;
  path: string;
  oldBlob: string | null;
  newBlob: string | null;
  /** A submodule's commit (mode 160000): listed, not shown. */
  gitlink: boolean;
}

const ZERO = /^0+$/;
const STATUS: Record<string, FileStatus> = { A: "ADDED", M: "MODIFIED", D: "DELETED", R: "RENAMED", T: "MODIFIED", C: "ADDED" };

/** `git diff --raw -z --no-abbrev`: `:oldmode newmode oldsha newsha STATUS\0path\0` (two paths for a rename or copy). */
export function parseRawDiff(output: string): RawEntry[] {
  const fields = output.split("\0");
  const entries: RawEntry[] = [];
  for (let i = 0; i < fields.length; ) {
    const header = fields[i++];
    if (header === "") continue;
    const [oldMode, newMode, oldSha, newSha, letters] = header.slice(1).split(" ");
    const letter = letters[0];
    const first = fields[i++];
    const second = letter === "R" || letter === "C" ? fields[i++] : null;
    const status = STATUS[letter] ?? "MODIFIED";
    entries.push({
      status,
      oldPath: status === "ADDED" ? null : first,
      path: second ?? first,
      oldBlob: ZERO.test(oldSha) ? null : oldSha,
      newBlob: ZERO.test(newSha) ? null : newSha,
      gitlink: oldMode === "160000" || newMode === "160000",
    });
  }
  return entries;
}

/** A patch of several files split at each `diff --git` line, in git's order (the order of --raw). */
export function splitPatch(patch: string): string[] {
  if (patch === "") return [];
  return patch.split(/^(?=diff --git )/m).filter((part) => part.startsWith("diff --git "));
}

/** Whether a file's patch says it is binary. */
export function isBinaryPatch(filePatch: string): boolean {
  return /^Binary files .* differ$/m.test(filePatch) || /^GIT binary patch$/m.test(filePatch);
}

/** `git cat-file --batch` output: `<sha> blob <size>\n<bytes>\n` per object, `<sha> missing` for an unknown one. */
export function parseCatFileBatch(output: Buffer): Map<string, Buffer> {
  const objects = new Map<string, Buffer>();
  let i = 0;
  while (i < output.length) {
    const end = output.indexOf(0x0a, i);
    if (end < 0) break;
    const [sha, type, size] = output.subarray(i, end).toString("latin1").split(" ");
    i = end + 1;
    if (type === "missing" || size === undefined) continue;
    const length = Number(size);
    objects.set(sha, output.subarray(i, i + length));
    i += length + 1;
  }
  return objects;
}
