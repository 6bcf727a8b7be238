import { describe, expect, it } from "vitest";
import { anchorText, commentCounts, commentsInReadingOrder, covers, diffPositions, readingOrder, threadsOf, type AnchoredComment } from "@/lib/review-comments/threads";
import { buildFileModels, expansionsShowing } from "@/components/diff-view/model";
import { unifiedDiff } from "@/lib/diff";

const comment = (id: string, over: Partial<AnchoredComment> = {}): AnchoredComment => ({ id, codeChangeId: "f1", side: "RIGHT", startSide: null, startLine: null, line: 1, inReplyToId: null, ...over });

describe("threadsOf", () => {
  it("orders threads by file, whole-file first, then by first line, and puts replies (and replies to replies) under their comment", () => {
    const comments = [
      comment("late", { line: 30 }),
      comment("other-file", { codeChangeId: "f0", line: 50 }),
      comment("reply-2", { inReplyToId: "reply-1", line: 30 }),
      comment("range", { startLine: 10, line: 12 }),
      comment("whole", { line: null, side: null }),
      comment("reply-1", { inReplyToId: "late", line: 30 }),
      comment("orphan", { inReplyToId: "missing", line: 5 }),
    ];
    const threads = threadsOf(comments, ["f0", "f1"]);
    expect(threads.map((t) => [t.root.id, t.replies.map((r) => r.id)])).toEqual([
      ["other-file", []],
      ["whole", []],
      ["orphan", []],
      ["range", []],
      ["late", ["reply-2", "reply-1"]],
    ]);
    expect(readingOrder(threads).map((c) => c.id)).toEqual(["other-file", "whole", "orphan", "range", "late", "reply-2", "reply-1"]);
  });

  it("orders threads on the same line by rank (an annotator's seeded order of the reviewers), replies as given", () => {
    const comments = [
      { ...comment("human", { line: 7 }), system: "human" },
      { ...comment("bot", { line: 7 }), system: "bot" },
      { ...comment("tool", { line: 7 }), system: "tool" },
      { ...comment("reply-b", { line: 7, inReplyToId: "human" }), system: "tool" },
      { ...comment("reply-a", { line: 7, inReplyToId: "human" }), system: "bot" },
      { ...comment("first", { line: 2 }), system: "tool" },
    ];
    const inOrder = (systems: string[]) => readingOrder(threadsOf(comments, ["f1"], undefined, (c) => systems.indexOf(c.system))).map((c) => c.id);
    expect(inOrder(["tool", "bot", "human"])).toEqual(["first", "tool", "bot", "human", "reply-b", "reply-a"]);
    expect(inOrder(["human", "tool", "bot"])).toEqual(["first", "human", "reply-b", "reply-a", "tool", "bot"]);
    // Without a rank: as given.
    expect(readingOrder(threadsOf(comments, ["f1"])).map((c) => c.id)).toEqual(["first", "human", "reply-b", "reply-a", "bot", "tool"]);
  });

  it("survives a cycle of replies", () => {
    const threads = threadsOf([comment("a", { inReplyToId: "b" }), comment("b", { inReplyToId: "a" })], ["f1"]);
    expect(readingOrder(threads).map((c) => c.id).sort()).toEqual(["a", "b"]);
  });
});

describe("commentsInReadingOrder", () => {
  it("places each file's comments where its unified diff shows them, old-side lines among the new ones", () => {
    const f1 = unifiedDiff("a\nb\nc\nd\n", "a\nB\nc\nd\nE\n", { path: "x.py" });
    const comments = [comment("new-5", { line: 5 }), comment("old-2", { side: "LEFT", line: 2 }), comment("new-1", { line: 1 }), comment("f0", { codeChangeId: "f0", line: 9 })];
    expect(commentsInReadingOrder(comments, [{ codeChangeId: "f0", diff: "" }, { codeChangeId: "f1", diff: f1 }]).map((c) => c.id)).toEqual(["f0", "new-1", "old-2", "new-5"]);
  });
});

describe("covers", () => {
  it("covers a one-line comment's line on its side only", () => {
    const c = comment("c", { side: "LEFT", line: 4 });
    expect([covers(c, "LEFT", 4), covers(c, "RIGHT", 4), covers(c, "LEFT", 5)]).toEqual([true, false, false]);
  });
  it("covers a range, also one written backwards, and a range from the old side to the new", () => {
    expect([9, 10, 12, 13].map((n) => covers(comment("c", { startLine: 12, line: 10 }), "RIGHT", n))).toEqual([false, true, true, false]);
    const across = comment("c", { startSide: "LEFT", startLine: 3, side: "RIGHT", line: 5 });
    expect([covers(across, "LEFT", 2), covers(across, "LEFT", 3), covers(across, "RIGHT", 5), covers(across, "RIGHT", 6)]).toEqual([false, true, true, false]);
  });
  it("covers no line of a whole-file comment", () => {
    expect(covers(comment("c", { line: null }), "RIGHT", 1)).toBe(false);
  });
});

it("counts comments per file and says where a comment is", () => {
  expect([...commentCounts([comment("a"), comment("b", { codeChangeId: "f2" }), comment("c")])]).toEqual([
    ["f1", 2],
    ["f2", 1],
  ]);
  expect([comment("a", { line: null }), comment("b", { side: "LEFT", line: 3 }), comment("c", { startLine: 12, line: 10 }), comment("d", { startSide: "LEFT", startLine: 2, line: 4 })].map(anchorText)).toEqual([
    "the whole file",
    "old line 3",
    "lines 10–12",
    "old line 2 to line 4",
  ]);
});

describe("expansionsShowing", () => {
  const oldFile = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const newFile = oldFile.replace("line 30\n", "line thirty\n");
  const [model] = buildFileModels({ key: "f", path: "a.txt", language: "", diff: unifiedDiff(oldFile, newFile, { path: "a.txt" }), oldFile, newFile });

  it("opens the context around a commented line outside the hunks, from the nearer end of its gap", () => {
    const gaps = model.segments.filter((s) => s.type === "gap");
    expect(gaps.map((g) => g.id)).toEqual(["f:0", "f:end"]);
    // Line 5 is in the first gap (lines 1-26): opened from its top (below nothing) is 5 + 3 lines; from its bottom 22 + 3.
    expect(expansionsShowing(model, [{ side: "RIGHT", line: 5 }])).toEqual({ "f:0": { top: 8, bottom: 0 } });
    // Line 20: nearer the hunk below it.
    expect(expansionsShowing(model, [{ side: "LEFT", line: 20 }])).toEqual({ "f:0": { top: 0, bottom: 10 } });
    expect(expansionsShowing(model, [{ side: "RIGHT", line: 30 }])).toEqual({});
  });
});

describe("diffPositions", () => {
  // Old: a b c d e f g h i j k l; new: a b X d e f g h i j k l NEW (c replaced, one line added at the end).
  const oldFile = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
  const newFile = "a\nb\nX\nd\ne\nf\ng\nh\ni\nj\nk\nl\nNEW\n";
  const at = diffPositions(unifiedDiff(oldFile, newFile, { path: "f.txt" }));

  it("places a deleted line before the added line that replaces it and after the new line above", () => {
    expect(at("LEFT", 3)).toBeGreaterThan(at("RIGHT", 2));
    expect(at("LEFT", 3)).toBeLessThan(at("RIGHT", 3));
  });
  it("places a context line and an old line outside the hunks at the new line shown with it", () => {
    expect(at("LEFT", 4)).toBe(4);
    expect(at("LEFT", 8)).toBe(8);
  });
  it("orders threads on both sides as the diff shows them", () => {
    const comments = [comment("new-3", { line: 3 }), comment("old-3", { side: "LEFT", line: 3 }), comment("new-2", { line: 2 })];
    expect(readingOrder(threadsOf(comments, ["f1"], (c) => at(c.side ?? "RIGHT", c.line!))).map((c) => c.id)).toEqual(["new-2", "old-3", "new-3"]);
  });
});
