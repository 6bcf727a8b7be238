import { describe, expect, test } from "vitest";
import { buildFileModels, fileLines, FIRST_SCREEN_FILE_LINES, splitRows, unifiedRows } from "@/components/diff-view/model";
import { escapeHtml } from "@/components/diff-view/highlight";
import { makeLargePythonChange } from "@/scripts/bench/diff-view";
import { unifiedDiff } from "@/lib/diff";

const oldLines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
const newLines = oldLines.slice();
newLines[9] = "line 10 changed";
newLines.splice(40, 1, "line 41a", "line 41b");
const oldFile = oldLines.join("\n") + "\n";
const newFile = newLines.join("\n") + "\n";
const diff = unifiedDiff(oldFile, newFile, { path: "src/a.py" });

describe("diff view model", () => {
  test("fileLines", () => {
    expect(fileLines("a\nb\n")).toEqual(["a", "b"]);
    expect(fileLines("a\nb")).toEqual(["a", "b"]);
    expect(fileLines("")).toEqual([]);
  });

  const [file] = buildFileModels({ key: "c1", path: "src/a.py", language: "python", diff, oldFile, newFile, primary: true });

  test("hunks, counts and hidden stretches between them", () => {
    expect(file.path).toBe("src/a.py");
    expect(file.additions).toBe(3);
    expect(file.deletions).toBe(2);
    const gaps = file.segments.filter((s) => s.type === "gap");
    expect(gaps.map((g) => g.type === "gap" && [g.oldStart, g.newStart, g.count])).toEqual([
      [1, 1, 6],
      [14, 14, 24],
      [45, 46, 16],
    ]);
    expect(file.contextHtml).not.toBeNull();
  });

  test("unified rows: nothing expanded shows gap rows; expanding reveals file lines with both line numbers", () => {
    const rows = unifiedRows(file, {});
    expect(rows.filter((r) => r.type === "gap")).toHaveLength(3);
    const gapId = (file.segments[2] as { id: string }).id;
    const expanded = unifiedRows(file, { [gapId]: { top: 2, bottom: 1 } });
    const lines = expanded.filter((r) => r.type === "line" && r.expanded);
    const text = (html: string) => html.replace(/<[^>]+>/g, "");
    expect(lines.map((r) => r.type === "line" && [r.row.oldNo, r.row.newNo, text(r.row.html)])).toEqual([
      [14, 14, "line 14"],
      [15, 15, "line 15"],
      [37, 37, "line 37"],
    ]);
    const gap = expanded.find((r) => r.type === "gap" && r.id === gapId);
    expect(gap && gap.type === "gap" && gap.hidden).toBe(21);
    const all = unifiedRows(file, { [gapId]: { top: Number.MAX_SAFE_INTEGER, bottom: 0 } });
    expect(all.some((r) => r.type === "gap" && r.id === gapId)).toBe(false);
  });

  test("every line of the new file is reachable by expanding everything", () => {
    const every = Object.fromEntries(file.segments.filter((s) => s.type === "gap").map((g) => [(g as { id: string }).id, { top: 1e9, bottom: 0 }]));
    const newNumbers = unifiedRows(file, every).flatMap((r) => (r.type === "line" && r.row.newNo !== null ? [r.row.newNo] : []));
    expect(newNumbers).toEqual(newLines.map((_, i) => i + 1));
  });

  test("split rows pair deletions with the additions that follow", () => {
    const pairs = splitRows(file, {}).filter((r) => r.type === "pair");
    const changed = pairs.filter((p) => p.type === "pair" && (p.left?.kind === "del" || p.right?.kind === "add"));
    expect(changed.map((p) => p.type === "pair" && [p.left?.oldNo ?? null, p.right?.newNo ?? null])).toEqual([
      [10, 10],
      [41, 41],
      [null, 42],
    ]);
  });

  test("files that do not match the diff give no expansion instead of wrong lines", () => {
    const [bad] = buildFileModels({ key: "c2", path: "a.py", language: "python", diff, oldFile: "something else\n", newFile });
    expect(bad.contextHtml).toBeNull();
    expect(unifiedRows(bad, {}).every((r) => r.type !== "gap" || !r.expandable)).toBe(true);
  });

  test("multi-file diffs give one model per file; a broken diff gives an error, not a crash", () => {
    const two = `diff --git a/x.js b/x.js\n--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-let a = 1\n+const a = 1\ndiff --git a/y.js b/y.js\n--- a/y.js\n+++ b/y.js\n@@ -1,0 +1 @@\n+// new\n`;
    const files = buildFileModels({ key: "pr", path: "", language: "javascript", diff: two });
    expect(files.map((f) => [f.key, f.path, f.additions, f.deletions])).toEqual([
      ["pr~0", "x.js", 1, 1],
      ["pr~1", "y.js", 1, 0],
    ]);
    expect(files[0].segments[0].type === "hunk" && files[0].segments[0].rows[1].html).toContain('<span class="tk-keyword">const</span>');
    // other files of a pull request are highlighted by their own extension
    const mixed = buildFileModels({ key: "m", path: "a.py", language: "python", diff: two.replaceAll("y.js", "y.rb").replace("// new", "# new") });
    expect(mixed[1].segments[0].type === "hunk" && mixed[1].segments[0].rows[0].html).toBe('<span class="tk-comment"># new</span>');
    const [broken] = buildFileModels({ key: "b", path: "z", language: "java", diff: "@@ -1,2 +1,2 @@\n-a\n" });
    expect(broken.error).toMatch(/missing/);
  });

  test("the first screen is highlighted as within the whole file; the rest is escaped until the whole change is", () => {
    const large = makeLargePythonChange(2000, 7);
    const source = { key: "big", path: large.path, language: "python", diff: large.diff, oldFile: large.oldFile, newFile: large.newFile };
    const [whole] = buildFileModels(source);
    const [first] = buildFileModels(source, 40);
    expect(whole.partial).toBe(false);
    expect(first.partial).toBe(true);
    const rows = (f: typeof whole) => unifiedRows(f, {}).flatMap((r) => (r.type === "line" ? [r.row] : []));
    const [wholeRows, firstRows] = [rows(whole), rows(first)];
    expect(firstRows.map((r) => [r.kind, r.oldNo, r.newNo])).toEqual(wholeRows.map((r) => [r.kind, r.oldNo, r.newNo]));
    // the first 40 lines exactly as the whole file's highlighting gives them (a docstring and strings among them)
    expect(firstRows.slice(0, 40).map((r) => r.html)).toEqual(wholeRows.slice(0, 40).map((r) => r.html));
    expect(firstRows.slice(0, 40).some((r) => r.html.includes('class="tk-string"'))).toBe(true);
    // further down, the same lines, escaped and not highlighted yet
    const [oldText, newText] = [fileLines(large.oldFile), fileLines(large.newFile)];
    const later = firstRows.slice(-20);
    expect(later.map((r) => r.html)).toEqual(later.map((r) => escapeHtml(r.kind === "del" ? oldText[r.oldNo! - 1] : newText[r.newNo! - 1])));
    expect(later.every((r) => !r.html.includes("tk-"))).toBe(true);
  });

  test("a first screen deep in a long file is shown plain, a small change is highlighted whole", () => {
    const lines = Array.from({ length: FIRST_SCREEN_FILE_LINES + 200 }, (_, i) => `x_${i} = "${i}"`);
    const changed = lines.slice();
    changed[FIRST_SCREEN_FILE_LINES + 100] = 'x = "changed"';
    const deep = { key: "d", path: "d.py", language: "python", oldFile: lines.join("\n") + "\n", newFile: changed.join("\n") + "\n", diff: unifiedDiff(lines.join("\n") + "\n", changed.join("\n") + "\n", { path: "d.py" }) };
    const [plain] = buildFileModels(deep, 100);
    expect(plain.partial).toBe(true);
    expect(unifiedRows(plain, {}).every((r) => r.type !== "line" || !r.row.html.includes("tk-"))).toBe(true);
    expect(unifiedRows(buildFileModels(deep)[0], {}).some((r) => r.type === "line" && r.row.html.includes("tk-string"))).toBe(true);
    expect(buildFileModels({ key: "s", path: "s.py", language: "python", diff, oldFile, newFile }, 100)[0].partial).toBe(false);
    expect(buildFileModels({ key: "t", path: "t.txt", language: "text", diff, oldFile, newFile }, 1)[0].partial).toBe(false);
  });
});
