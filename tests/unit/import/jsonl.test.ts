import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ErrorCollector } from "@/lib/import/errors";
import { jsonArrayElements, parseJsonl } from "@/lib/import/jsonl";
import { codeChangeJsonSchema } from "@/lib/import/jsonl-schema";
import { DEFAULT_LIKERT, type ParseResult } from "@/lib/import/parser";

const options = { likert: DEFAULT_LIKERT };

function parse(text: string): { result: ParseResult; errors: ErrorCollector } {
  const errors = new ErrorCollector();
  const result = parseJsonl({ name: "study.jsonl", content: Buffer.from(text) }, options, errors) as ParseResult;
  return { result, errors };
}

describe("jsonl format", () => {
  test("the committed JSON Schema is generated from the zod schema (see docs/jsonl-format.md to regenerate)", () => {
    expect(JSON.parse(readFileSync("public/schemas/code-change.schema.json", "utf8"))).toEqual(codeChangeJsonSchema());
  });

  test("the documented example parses into every kind of data", () => {
    const { result, errors } = parse(readFileSync("docs/examples/code-changes.jsonl", "utf8"));
    expect(errors.errors).toEqual([]);
    const { codeChanges, pullRequests, tasks } = result.bundle;
    expect(codeChanges.map((c) => c.externalId)).toEqual(["py-retry-1", "js-pr7-a", "js-pr7-b", "java-17"]);
    expect(pullRequests.map((p) => p.externalId)).toEqual(["pr-7"]);
    expect(new Set(tasks)).toEqual(new Set(["CLAIM_VERIFICATION", "REVIEW_RATING", "REFERENCE_GRADING", "COMMENT_FILTERING"]));
    const added = codeChanges[0].pseudoReferences.find((r) => r.kind === "ANNOTATOR_ADDED");
    expect(added).toMatchObject({ addedBy: { name: "grace" }, corrects: "c2" });
  });

  test("errors name the line and the JSON path, all at once", () => {
    const lines = [
      JSON.stringify({ id: "a", language: "python", diff: "", reviews: [{ id: "r", system: "s", text: "t", grades: [{ annotator: "x", grade: 6 }] }] }),
      "{\"id\": \"b\", \"language\": ",
      JSON.stringify({ id: "a", language: "python", diff: "" }),
      JSON.stringify({ id: "c", language: "python", diff: "", reviews: [{ id: "r", system: "s", text: "t", ratings: [{ annotator: "x", scores: { clarity: 3 }, addresses: ["nope"] }] }] }),
    ];
    const { errors } = parse(lines.join("\n"));
    expect(errors.errors).toEqual([
      { file: "study.jsonl", line: 1, field: "reviews[0].grades[0].grade", message: "Too big: expected number to be <=5" },
      { file: "study.jsonl", line: 2, message: expect.stringMatching(/^not valid JSON .*the line may be truncated$/) },
      { file: "study.jsonl", line: 3, field: "id", message: 'code change "a" is already on line 1' },
      { file: "study.jsonl", line: 4, field: "reviews[0].ratings[0].scores.clarity", message: "not a Likert dimension of the study (conciseness, comprehensiveness, relevance)" },
      { file: "study.jsonl", line: 4, field: "reviews[0].ratings[0].addresses", message: 'no pseudo-reference "nope" in this code change' },
    ]);
  });
  test("positions and times beyond PostgreSQL's integer are refused on their line and field, not by the database", () => {
    const lines = [
      JSON.stringify({ id: "a", language: "python", diff: "", position: 2 ** 31 }),
      JSON.stringify({ id: "b", language: "python", diff: "", position: 2 ** 31 - 1, pseudoReferences: [{ id: "p", text: "claim", kind: "CLAIM", position: -(2 ** 31) - 1 }] }),
      JSON.stringify({ id: "c", language: "python", diff: "", reviews: [{ id: "r", system: "s", text: "t", position: 3e9, grades: [{ annotator: "x", grade: 3, timeSpentMs: 2 ** 31 }] }] }),
    ];
    const { errors } = parse(lines.join("\n"));
    expect(errors.errors).toEqual([
      { file: "study.jsonl", line: 1, field: "position", message: "Too big: expected number to be <=2147483647" },
      { file: "study.jsonl", line: 2, field: "pseudoReferences[0].position", message: "Too small: expected number to be >=-2147483648" },
      { file: "study.jsonl", line: 3, field: "reviews[0].position", message: "Too big: expected number to be <=2147483647" },
      { file: "study.jsonl", line: 3, field: "reviews[0].grades[0].timeSpentMs", message: "Too big: expected number to be <=2147483647" },
    ]);
  });

  test("escapes that spell a NUL or a lone surrogate are refused on their line; an escaped backslash followed by u is text", () => {
    const lines = [
      '{"id": "a", "language": "python", "diff": "", "reviews": [{"id": "r", "system": "s", "text": "x\\u0000"}]}',
      '{"id": "b", "language": "python", "diff": "", "reviews": [{"id": "r", "system": "s", "text": "\\ud800"}]}',
      '{"id": "c", "language": "python", "diff": "", "reviews": [{"id": "r", "system": "s", "text": "C:\\\\u0000 \\u00e9 \\ud83d\\ude00"}]}',
    ];
    const { result, errors } = parse(lines.join("\n"));
    expect(errors.errors).toEqual([
      { file: "study.jsonl", line: 1, message: "reviews.0.text: contains a NUL character (\\u0000)" },
      { file: "study.jsonl", line: 2, message: "reviews.0.text: contains a lone UTF-16 surrogate (not valid Unicode)" },
    ]);
    expect(result.bundle.codeChanges.map((c) => c.reviews[0].text)).toEqual(["C:\\u0000 é 😀"]);
  });

  test("a line that fails the schema still gets its other checks: every error of the line at once", () => {
    const line = {
      id: "a",
      language: "python",
      diff: "",
      pseudoReferences: [
        { id: "p1", text: "claim", kind: "CLAIM" },
        { id: "p2", text: "claim", kind: "NOT_A_KIND" },
        { id: "p1", text: "again", kind: "CLAIM", corrects: "gone" },
      ],
      reviews: [
        { id: "r", system: "s", text: "t", ratings: [{ annotator: "x", scores: { conciseness: "high" } }, { annotator: "y", scores: { clarity: 3 }, addresses: ["p2", "nope"] }] },
      ],
    };
    const { errors } = parse(JSON.stringify(line));
    expect(errors.errors.map((e) => `${e.field}: ${e.message}`)).toEqual([
      expect.stringMatching(/^pseudoReferences\[1\]\.kind: /),
      expect.stringMatching(/^reviews\[0\]\.ratings\[0\]\.scores\.conciseness: /),
      'pseudoReferences[2].id: id "p1" is already used by pseudoReferences[0]',
      'pseudoReferences[2].corrects: no pseudo-reference "gone" in this code change',
      "reviews[0].ratings[1].scores.clarity: not a Likert dimension of the study (conciseness, comprehensiveness, relevance)",
      'reviews[0].ratings[1].addresses: no pseudo-reference "nope" in this code change',
    ]);
    expect(errors.errors.every((e) => e.line === 1)).toBe(true);
  });

  describe("a file holding one JSON array of code changes (pandas' to_json(orient=\"records\"), a pretty-printed .json)", () => {
    const example = readFileSync("docs/examples/code-changes.jsonl", "utf8");
    const changes = example.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as unknown);
    /** The bundle without its source locations, which differ between the two files. */
    const located = (result: ParseResult) => JSON.parse(JSON.stringify(result.bundle, (key, value: unknown) => (key === "at" ? undefined : value))) as unknown;

    test("reads as the same code changes as the JSONL file, pretty-printed or on one line, with a warning saying how it was read", () => {
      const lines = parse(example);
      for (const text of [JSON.stringify(changes, null, 2), JSON.stringify(changes), `\n  ${JSON.stringify(changes)}\n\n`]) {
        const array = parse(text);
        expect(array.errors.errors).toEqual([]);
        expect(located(array.result)).toEqual(located(lines.result));
        expect(array.result.warnings).toEqual([`study.jsonl: read as a JSON array of ${changes.length} code change(s)`]);
      }
    });

    test("each element's errors name the line it starts on", () => {
      const text = `[\n  {"id": "a", "language": "python", "diff": ""},\n  {"id": "b",\n   "language": "python", "diff": "", "position": "3"},\n  {"id": "a", "language": "python", "diff": "x"}\n]\n`;
      expect(jsonArrayElements(text)?.map((e) => [e.line, e.index])).toEqual([[2, 0], [3, 1], [5, 2]]);
      expect(parse(text).errors.errors).toEqual([
        { file: "study.jsonl", line: 3, field: "position", message: "Invalid input: expected number, received string" },
        { file: "study.jsonl", line: 5, field: "id", message: 'code change "a" is already on line 2' },
      ]);
    });

    test("brackets, commas and escaped quotes inside strings do not cut an element; a file that is not one whole array is read line by line", () => {
      const tricky = [{ id: 'x"],[{', language: "python", diff: '@@ -1 +1 @@\n-a = [1, {2}]\n+b = "]}\\"' }];
      expect(jsonArrayElements(JSON.stringify(tricky, null, 1))?.map((e) => JSON.parse(e.raw) as unknown)).toEqual(tricky);
      expect(jsonArrayElements(`${JSON.stringify(tricky)} trailing`)).toBeNull();
      expect(jsonArrayElements(`[${JSON.stringify(tricky[0])}`)).toBeNull();
      expect(jsonArrayElements(JSON.stringify(tricky[0]))).toBeNull();
      const truncated = parse(`[${JSON.stringify(tricky[0])},\n{"id": "y"`);
      expect(truncated.errors.errors.map((e) => e.line)).toEqual([1, 2]);
    });
  });
});
