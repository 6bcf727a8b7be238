import { describe, expect, it } from "vitest";
import { FIRST_FILES, firstScreenFiles } from "@/lib/review-comments/display";

const file = (name: string, lines: number) => ({ name, diff: Array.from({ length: lines }, (_, i) => `+line ${i}`).join("\n") });

describe("firstScreenFiles", () => {
  it("sends the first file's diff with the page, however long, and the next ones while the diffs before them fill less than a screen", () => {
    expect(firstScreenFiles([file("long", 280), file("next", 3)]).map((f) => f.name)).toEqual(["long"]);
    expect(firstScreenFiles([file("short", 10), file("next", 280), file("third", 3)]).map((f) => f.name)).toEqual(["short", "next"].slice(0, FIRST_FILES));
    expect(firstScreenFiles([file("binary", 0), file("next", 5)]).map((f) => f.name)).toEqual(["binary", "next"].slice(0, FIRST_FILES));
    expect(firstScreenFiles([])).toEqual([]);
  });
});
