import { describe, expect, test } from "vitest";
import { DiffParseError, parseUnifiedDiff, type DiffLine } from "@/lib/diff";

const compact = (lines: DiffLine[]) => lines.map((l) => [l.kind, l.oldLine, l.newLine, l.text]);

const GIT_DIFF = `commit 1234
Author: someone

    Several kinds of file changes

diff --git a/src/app.py b/src/app.py
index 83db48f..bf269f4 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,4 @@ import os
 import os
+import sys
 
 def main():
@@ -10,2 +11,2 @@ def main():
-    return 0
+    return 1
     # end
diff --git a/docs/new.md b/docs/new.md
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/docs/new.md
@@ -0,0 +1,2 @@
+# New
+text
\\ No newline at end of file
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
diff --git a/a name.js b/b name.js
similarity index 100%
rename from a name.js
rename to b name.js
diff --git a/logo.png b/logo.png
new file mode 100644
Binary files /dev/null and b/logo.png differ
`;

describe("parseUnifiedDiff", () => {
  test("a git diff with several files: paths, hunks, line numbers, sections", () => {
    const files = parseUnifiedDiff(GIT_DIFF);
    expect(files.map((f) => [f.oldPath, f.newPath, f.hunks.length])).toEqual([
      ["src/app.py", "src/app.py", 2],
      [null, "docs/new.md", 1],
      ["old.txt", null, 1],
      ["a name.js", "b name.js", 0],
      [null, "logo.png", 0],
    ]);
    const [first, second] = files[0].hunks;
    expect(first).toMatchObject({ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, section: "import os" });
    expect(compact(first.lines)).toEqual([
      ["context", 1, 1, "import os"],
      ["add", null, 2, "import sys"],
      ["context", 2, 3, ""],
      ["context", 3, 4, "def main():"],
    ]);
    expect(compact(second.lines)).toEqual([
      ["del", 10, null, "    return 0"],
      ["add", null, 11, "    return 1"],
      ["context", 11, 12, "    # end"],
    ]);
    expect(files[1].hunks[0].lines.map((l) => l.noNewline)).toEqual([false, true]);
    expect(compact(files[2].hunks[0].lines)).toEqual([["del", 1, null, "gone"]]);
  });

  test("hunk headers without counts mean one line", () => {
    const [file] = parseUnifiedDiff("@@ -3 +3 @@\n-a\n+b\n");
    expect(file).toMatchObject({ oldPath: "", newPath: "" });
    expect(file.hunks[0]).toMatchObject({ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1, section: "" });
    expect(compact(file.hunks[0].lines)).toEqual([
      ["del", 3, null, "a"],
      ["add", null, 3, "b"],
    ]);
  });

  test("bare hunks (no file header) as in review datasets, with several hunks", () => {
    const [file] = parseUnifiedDiff("@@ -1,2 +1,2 @@\n a\n-b\n+c\n@@ -8 +8,2 @@\n x\n+y\n");
    expect(file.hunks.map((h) => h.lines.map((l) => l.newLine))).toEqual([[1, null, 2], [8, 9]]);
  });

  test("GNU diff -u headers with timestamps", () => {
    const diff = "--- old/f.c\t2024-01-01 10:00:00.000000000 +0100\n+++ new/f.c\t2024-01-02 10:00:00.000000000 +0100\n@@ -1 +1 @@\n-a\n+b\n";
    expect(parseUnifiedDiff(diff).map((f) => [f.oldPath, f.newPath])).toEqual([["old/f.c", "new/f.c"]]);
  });

  test("several files without diff --git lines", () => {
    const diff = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-3\n+4\n";
    expect(parseUnifiedDiff(diff).map((f) => f.newPath)).toEqual(["x", "y"]);
  });

  test("lines that look like headers inside a hunk are body lines (counts delimit hunks)", () => {
    const diff = "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n--- not a header\n-@@ nor this\n+++ added\n+@@ x\n";
    const [file] = parseUnifiedDiff(diff);
    expect(parseUnifiedDiff(diff)).toHaveLength(1);
    expect(compact(file.hunks[0].lines)).toEqual([
      ["del", 1, null, "-- not a header"],
      ["del", 2, null, "@@ nor this"],
      ["add", null, 1, "++ added"],
      ["add", null, 2, "@@ x"],
    ]);
  });

  test("an empty line inside a hunk is blank context (trailing whitespace stripped); CR is kept", () => {
    const [file] = parseUnifiedDiff("@@ -1,3 +1,3 @@\n a\r\n\n-b\n+c\n");
    expect(compact(file.hunks[0].lines)).toEqual([
      ["context", 1, 1, "a\r"],
      ["context", 2, 2, ""],
      ["del", 3, null, "b"],
      ["add", null, 3, "c"],
    ]);
  });

  test("an empty diff has no files", () => {
    expect(parseUnifiedDiff("")).toEqual([]);
  });

  test("malformed diffs are refused with the line number", () => {
    expect(() => parseUnifiedDiff("@@ -1,2 +1,2 @@\n a\n")).toThrow(/missing 1 old and 1 new lines/);
    expect(() => parseUnifiedDiff("@@ -1 +1 @@\n a\n-b\n")).toThrow(/line 3: "-b" follows a complete hunk/);
    expect(() => parseUnifiedDiff("@@ -1,2 +1 @@\n a\n+b\n")).toThrow(/line 3: hunk has more lines than its header/);
    expect(() => parseUnifiedDiff("@@ -x +1 @@\n")).toThrow(/malformed hunk header/);
    expect(() => parseUnifiedDiff("@@ -1,2 +1,2 @@\n a\n*b\n")).toThrow(DiffParseError);
    expect(() => parseUnifiedDiff("\\ No newline at end of file\n")).toThrow(/does not follow a hunk line/);
  });
});
