import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { requireLedPullRequest } from "@/lib/data/pull-requests";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { formatImportError, type ImportRequest } from "@/lib/import";
import { runImport } from "@/lib/data/imports";
import { cli } from "./cli";
import { exportText, imported } from "./import-fixtures";
import { buildTestRepo, type TestRepo } from "./pull-request-repo";

const client = createClient(inject("databaseUrl"));
let repo: TestRepo;

beforeAll(() => {
  repo = buildTestRepo();
});
afterAll(async () => {
  repo.remove();
  await client.$disconnect();
});

const LINKS = { self: { href: "https://api.github.com/repos/acme/demo/pulls/comments/101" } };

/** A GitHub-shaped comments file as `gh api repos/OWNER/REPO/pulls/N/comments` writes it, with GitHub's extra keys. */
function githubComments(head: string): object[] {
  return [
    { id: 101, node_id: "PRRC_1", path: "src/app.js", side: "RIGHT", start_side: "RIGHT", start_line: 10, line: 12, original_line: 12, original_start_line: 10, subject_type: "line", position: 6, body: "These three lines need a test.", user: { login: "coderabbitai[bot]", type: "Bot" }, in_reply_to_id: null, commit_id: head, original_commit_id: head, diff_hunk: "@@ -7,9 +7,9 @@", _links: LINKS, html_url: "https://github.com/acme/demo/pull/7#discussion_r101", created_at: "2026-01-02T03:04:05Z", author_association: "NONE" },
    { id: 102, path: "src/app.js", side: "RIGHT", start_line: 32, line: 31, body: "Backwards range.", user: { login: "alice" }, metadata: { severity: "minor", category: "TESTING" } },
    { id: 103, path: "src/added.js", subject_type: "file", line: null, side: null, body: "A comment on the whole file.", user: { login: "alice" } },
    { id: 104, path: "src/app.js", side: "RIGHT", start_line: 10, line: 12, in_reply_to_id: 101, body: "Agreed.", user: { login: "bob", type: "User" } },
    { id: 105, path: "src/app.js", side: "RIGHT", line: 20, body: "Outside the hunks.", user: { login: "claude[bot]" }, severity: "major" },
    { id: 106, path: "src/new-name.js", side: "RIGHT", line: null, original_line: 5, original_commit_id: "0123456789abcdef0123456789abcdef01234567", body: "Outdated.", user: { login: "coderabbitai[bot]" } },
    { id: 107, path: "docs/gone.md", side: "LEFT", line: 2, body: "Why delete this?", user: { login: "alice" } },
    { id: 108, path: "src/app.js", side: "LEFT", line: 11, body: "On the old line.", user: null },
    { id: 109, path: "src/app.js", position: 4, line: null, side: null, commit_id: head, body: "Old API data: a position only.", user: { login: "carol" } },
  ];
}

const BAD = [
  { id: 201, path: "src/app.js", side: "RIGHT", line: 99, body: "No such line.", user: { login: "alice" } },
  { id: 202, path: "README.md", side: "RIGHT", line: 1, body: "Not in the pull request.", user: { login: "alice" } },
  { id: 203, path: "src/added.js", side: "LEFT", line: 1, body: "An added file has no old lines.", user: { login: "alice" } },
  { id: 204, path: "assets/logo.bin", side: "RIGHT", line: 1, body: "Binary.", user: { login: "alice" } },
];

function request(study: string, comments: object[], extra: Partial<ImportRequest> = {}): ImportRequest {
  return {
    study,
    format: "pull-request",
    files: [{ name: "comments.json", content: Buffer.from(JSON.stringify(comments, null, 2)) }],
    pullRequest: { git: { repo: repo.dir, base: "main", head: "feature", url: "https://github.com/acme/demo/pull/7", title: "Feature" } },
    ...extra,
  };
}

describe("import-pr from a git repository", () => {
  test("the three-dot diff from the merge base: renamed, added, deleted, modified and binary files", async () => {
    const summary = imported(await runImport(request("pr-git", githubComments(repo.head)), client));
    expect(summary.counts).toMatchObject({ pullRequests: { created: 1 }, codeChanges: { created: 5 }, reviewComments: { created: 9 } });
    const pr = await requireLedPullRequest(COMMAND_LINE, "pr-git", "acme/demo#7", client);
    expect(pr).toMatchObject({ repository: "acme/demo", url: "https://github.com/acme/demo/pull/7", title: "Feature", baseSha: repo.base, headSha: repo.head, mergeBaseSha: repo.mergeBase });
    expect(pr.mergeBaseSha).not.toBe(pr.baseSha);
    const files = Object.fromEntries(pr.files.map((f) => [f.path, f]));
    // README.md changed on main after the branch: not part of the pull request.
    expect(Object.keys(files).sort()).toEqual(["assets/logo.bin", "docs/gone.md", "src/added.js", "src/app.js", "src/new-name.js"]);
    expect(files["src/new-name.js"]).toMatchObject({ status: "RENAMED", oldPath: "src/old-name.js", binary: false });
    expect(files["src/new-name.js"].newFile).toContain("helper line five\n");
    expect(files["src/new-name.js"].diff).toContain("+helper line five");
    expect(files["src/added.js"]).toMatchObject({ status: "ADDED", oldPath: "", oldFile: "", language: "javascript" });
    expect(files["docs/gone.md"]).toMatchObject({ status: "DELETED", oldPath: "docs/gone.md", newFile: "" });
    expect(files["docs/gone.md"].oldFile).toBe("gone line 1\ngone line 2\ngone line 3\ngone line 4\ngone line 5\n");
    expect(files["assets/logo.bin"]).toMatchObject({ status: "ADDED", binary: true, diff: "", oldFile: "", newFile: "" });
    expect(files["src/app.js"]).toMatchObject({ status: "MODIFIED", oldPath: "src/app.js" });
    expect(files["src/app.js"].diff).toMatch(/^@@ -7,9 \+7,9 @@/m);
  });

  test("comments keep anchors, systems, authors, threads and metadata; warnings say what was read differently", async () => {
    const result = await runImport(request("pr-comments", githubComments(repo.head)), client);
    const summary = imported(result);
    const warnings = summary.warnings.join("\n");
    expect(warnings).toContain("comment 102 on src/app.js: the range 32-31 is written backwards; read as 31-32");
    expect(warnings).toContain("comment 105 on src/app.js line 20 (RIGHT) lies outside the diff's hunks; kept");
    expect(warnings).toContain("comment 106: outdated (line is null): read at its original_line 5");
    expect(warnings).not.toContain("comment 101");
    const pr = await requireLedPullRequest(COMMAND_LINE, "pr-comments", "acme/demo#7", client);
    const byId = Object.fromEntries(pr.comments.map((c) => [c.externalId, c]));
    expect(pr.comments.map((c) => c.externalId)).toEqual(["101", "102", "103", "104", "105", "106", "107", "108", "109"]);
    expect(byId["101"]).toMatchObject({ path: "src/app.js", side: "RIGHT", startSide: "RIGHT", startLine: 10, line: 12, system: "coderabbitai", author: "coderabbitai[bot]", inReplyToId: null });
    expect(byId["101"].metadata).toMatchObject({ html_url: "https://github.com/acme/demo/pull/7#discussion_r101", created_at: "2026-01-02T03:04:05Z", commit_id: repo.head });
    expect(byId["101"].metadata).not.toHaveProperty("diff_hunk");
    expect(byId["101"].metadata).not.toHaveProperty("_links");
    expect(byId["102"]).toMatchObject({ startLine: 31, line: 32, system: "human", author: "alice", metadata: { severity: "minor", category: "TESTING" } });
    expect(byId["103"]).toMatchObject({ path: "src/added.js", side: null, startLine: null, line: null });
    expect(byId["104"]).toMatchObject({ inReplyToId: byId["101"].id, system: "human", author: "bob" });
    expect(byId["105"]).toMatchObject({ system: "claude", line: 20, metadata: { severity: "major" } });
    expect(byId["106"]).toMatchObject({ path: "src/new-name.js", side: "RIGHT", line: 5 });
    expect(byId["107"]).toMatchObject({ path: "docs/gone.md", side: "LEFT", line: 2 });
    // A deleted account (user null) is GitHub's "ghost".
    expect(byId["108"]).toMatchObject({ side: "LEFT", line: 11, system: "human", author: "ghost" });
    expect(byId["109"]).toMatchObject({ side: "LEFT", line: 10 });
    expect(pr.reviews.map((r) => [r.system, r.commentIds.length])).toEqual([["coderabbitai", 2], ["human", 6], ["claude", 1]]);

    // A second import of the same comments changes nothing.
    const again = imported(await runImport(request("pr-comments", githubComments(repo.head)), client));
    expect(again.counts).toMatchObject({ pullRequests: { created: 0, unchanged: 1 }, codeChanges: { created: 0, unchanged: 5 }, reviewComments: { created: 0, unchanged: 9 } });
  });

  test("a missing line, a path not in the pull request, an added file's old side and a binary file's line refuse the import, naming id, path and line; nothing is written", async () => {
    const result = await runImport(request("pr-bad", [...githubComments(repo.head), ...BAD]), client);
    expect(result.status).toBe("refused");
    if (result.status !== "refused") return;
    const messages = result.errors.map(formatImportError);
    expect(messages).toEqual([
      expect.stringMatching(/^comments\.json: line \d+: line: comment 201: src\/app\.js line 99 \(RIGHT\) does not exist: the new file has 42 lines$/),
      expect.stringMatching(/^comments\.json: line \d+: path: comment 202: README\.md line 1 \(RIGHT\): README\.md is not a file of pull request acme\/demo#7 /),
      expect.stringMatching(/^comments\.json: line \d+: line: comment 203: src\/added\.js line 1 \(LEFT\) does not exist: the old file has no lines \(the file is added\)$/),
      expect.stringMatching(/^comments\.json: line \d+: line: comment 204: assets\/logo\.bin line 1: the file is binary/),
    ]);
    expect(await client.study.findUnique({ where: { slug: "pr-bad" } })).toBeNull();
    expect(await client.pullRequest.count({ where: { study: { slug: "pr-bad" } } })).toBe(0);
  });

  test("--skip-invalid-rows imports the other comments and lists those it left out", async () => {
    const summary = imported(await runImport(request("pr-skip", [...githubComments(repo.head), ...BAD], { skipInvalidRows: true }), client));
    expect(summary.counts.reviewComments.created).toBe(9);
    expect(summary.skippedRows.map((e) => e.message.slice(0, 11))).toEqual(["comment 201", "comment 202", "comment 203", "comment 204"]);
  });

  test("real GitHub data: CRLF bodies, start_side null, an outdated comment with only original_position, a deleted account, an outdated comment on a file no longer in the pull request and a reply to it", async () => {
    const other = "fedcba9876543210fedcba9876543210fedcba98";
    const real = [
      { id: 401, path: "src/app.js", side: "RIGHT", line: 12, body: "First line.\r\nSecond line.\r\n", user: { login: "alice" }, commit_id: repo.head, original_commit_id: repo.head, diff_hunk: "@@ -7,9 +7,9 @@" },
      { id: 402, path: "src/app.js", side: "RIGHT", start_line: 10, start_side: null, line: 12, body: "A range without its start side.", user: { login: "coderabbitai[bot]", type: "Bot" } },
      { id: 403, path: "src/app.js", side: null, line: null, original_line: null, position: null, original_position: 3, commit_id: repo.head, original_commit_id: other, body: "Outdated, old API data.", user: { login: "carol" } },
      { id: 404, path: "src/app.js", side: "RIGHT", line: 13, body: "From a deleted account.", user: null },
      { id: 405, path: "src/removed-later.js", side: "RIGHT", line: null, original_line: 3, original_commit_id: other, body: "On a file a later push took out.", user: { login: "alice" } },
      { id: 406, path: "src/removed-later.js", side: "RIGHT", line: null, original_line: 3, original_commit_id: other, in_reply_to_id: 405, body: "Reply.", user: { login: "bob" } },
      { id: 407, path: "src/app.js", side: "RIGHT", line: 14, in_reply_to_id: 405, body: "A reply placed elsewhere.", user: { login: "bob" } },
    ];
    // Without --skip-invalid-rows: refused, each error naming the comment, its path and line; nothing written.
    const refused = await runImport(request("pr-real-refused", real), client);
    expect(refused.status === "refused" && refused.errors.map(formatImportError)).toEqual([
      expect.stringMatching(/^comments\.json: line \d+: path: comment 405: src\/removed-later\.js line 3 \(RIGHT\): src\/removed-later\.js is not a file of pull request acme\/demo#7 \(a file a later push took out/),
      expect.stringMatching(/^comments\.json: line \d+: path: comment 406: src\/removed-later\.js line 3 \(RIGHT\): /),
    ]);
    expect(await client.study.findUnique({ where: { slug: "pr-real-refused" } })).toBeNull();

    const summary = imported(await runImport(request("pr-real", real, { skipInvalidRows: true }), client));
    expect(summary.counts.reviewComments.created).toBe(5);
    expect(summary.skippedRows.map((e) => e.message.slice(0, 11))).toEqual(["comment 405", "comment 406"]);
    const warnings = summary.warnings.join("\n");
    expect(warnings).toMatch(/comment 403: has only a original_position \(3\) in the diff of commit fedcba987654/);
    expect(warnings).toMatch(/comment 407 answers comment 405, which is not in the pull request; kept as a comment of its own/);
    const pr = await requireLedPullRequest(COMMAND_LINE, "pr-real", "acme/demo#7", client);
    const byId = Object.fromEntries(pr.comments.map((c) => [c.externalId, c]));
    expect(byId["401"].body).toBe("First line.\nSecond line.\n");
    expect(byId["401"].metadata).not.toHaveProperty("diff_hunk");
    expect(byId["402"]).toMatchObject({ side: "RIGHT", startSide: "RIGHT", startLine: 10, line: 12, system: "coderabbitai" });
    expect(byId["403"]).toMatchObject({ startLine: null, line: expect.any(Number) });
    expect(byId["404"]).toMatchObject({ author: "ghost", system: "human", line: 13 });
    expect(byId["407"]).toMatchObject({ inReplyToId: null, line: 14 });
    // Importing the same file again (CRLF and all) finds every comment unchanged.
    const again = imported(await runImport(request("pr-real", real, { skipInvalidRows: true }), client));
    expect(again.counts.reviewComments).toMatchObject({ created: 0, unchanged: 5 });
  });

  test("a field of the wrong type is an error with its line and field; a file that is not JSON names its line", async () => {
    const wrong = await runImport(request("pr-wrong", [{ id: 301, path: "src/app.js", side: "MIDDLE", line: "ten", body: "x", user: { login: "a" } }]), client);
    expect(wrong.status === "refused" && wrong.errors.map(formatImportError)).toEqual([
      'comments.json: line 2: side: comment 301: expected "LEFT" (the old file) or "RIGHT" (the new file), not "MIDDLE"',
      'comments.json: line 2: line: comment 301: expected a line number from 1, not "ten"',
    ]);
    const broken = await runImport({ ...request("pr-wrong", []), files: [{ name: "c.json", content: Buffer.from('[\n  {"id": 1,\n  "path": }\n]') }] }, client);
    expect(broken.status === "refused" && formatImportError(broken.errors[0])).toMatch(/^c\.json: line 2: not valid JSON/);
  });

  test("the comments JSONL carries a linked test (testPath, testText); a half-given test is an error naming its line and field", async () => {
    const jsonl = (lines: object[]) => ({ files: [{ name: "comments.jsonl", content: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n")) }] });
    const test1 = "def test_retry():\n    assert retry(3) == 3\n";
    const good = [
      { id: "t1", path: "src/app.js", side: "RIGHT", line: 12, body: "Retries are not tested.", system: "human", author: "ada", testPath: "tests/test_retry.py", testText: test1 },
      { id: "t2", path: "src/app.js", side: "RIGHT", line: 11, body: "No test here.", system: "codex" },
    ];
    const summary = imported(await runImport({ ...request("pr-tests", []), ...jsonl(good) }, client));
    expect(summary.counts.reviewComments.created).toBe(2);
    const stored = await client.reviewComment.findMany({ where: { pullRequest: { study: { slug: "pr-tests" } } }, orderBy: { position: "asc" }, select: { externalId: true, testPath: true, testText: true } });
    expect(stored).toEqual([
      { externalId: "t1", testPath: "tests/test_retry.py", testText: test1 },
      { externalId: "t2", testPath: null, testText: null },
    ]);
    // Another test on the same comment is a conflict unless --update.
    const changed = [{ ...good[0], testText: "def test_retry():\n    assert retry(0) == 0\n" }, good[1]];
    const conflict = await runImport({ ...request("pr-tests", []), ...jsonl(changed) }, client);
    expect(conflict.status === "refused" && conflict.errors.map(formatImportError).join("\n")).toMatch(/comment t1 of pull request acme\/demo#7 is stored with another anchor, text, system, author, thread or linked test/);
    const bad = [
      { id: "t3", path: "src/app.js", line: 12, body: "x", system: "human", testPath: "tests/test_x.py" },
      { id: "t4", path: "src/app.js", line: 12, body: "x", system: "human", testText: "def test_x(): pass" },
      { id: "t5", path: "src/app.js", line: 12, body: "x", system: "human", testPath: "tests/test_x.py", testText: "  " },
      { id: "t6", path: "src/app.js", line: 12, body: "x", system: "human", tests: "no such key" },
    ];
    const refused = await runImport({ ...request("pr-tests-bad", []), ...jsonl(bad) }, client);
    expect(refused.status === "refused" && refused.errors.map(formatImportError)).toEqual([
      "comments.jsonl: line 1: testText: a linked test needs its text (testText) beside its file (testPath)",
      "comments.jsonl: line 2: testPath: a linked test needs its file (testPath) beside its text (testText)",
      "comments.jsonl: line 3: testText: the linked test's text is empty",
      expect.stringMatching(/^comments\.jsonl: line 4: .*tests/),
    ]);
    expect(await client.study.findUnique({ where: { slug: "pr-tests-bad" } })).toBeNull();
  });

  test("an unknown revision is an error naming the flag", async () => {
    const result = await runImport({ ...request("pr-rev", []), pullRequest: { git: { repo: repo.dir, base: "main", head: "no-such-branch" } } }, client);
    expect(result.status === "refused" && result.errors[0].message).toBe(`--head no-such-branch: no such commit in ${repo.dir}`);
  });
});

describe("export --format github-comments", () => {
  test("the round trip import-pr, export, import-pr gives every comment back on the same file, side and lines, with its text, author and system", async () => {
    const first = imported(await runImport(request("pr-round", githubComments(repo.head)), client));
    const exported = await exportText(client, first.study.id, "github-comments");
    const lines = exported.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(9);
    expect(lines[0]).toMatchObject({ id: 101, path: "src/app.js", side: "RIGHT", start_side: "RIGHT", start_line: 10, line: 12, subject_type: "line", body: "These three lines need a test.", user: { login: "coderabbitai[bot]" }, in_reply_to_id: null, crjudge: { pullRequest: "acme/demo#7", system: "coderabbitai", questions: {} } });
    expect(lines[3]).toMatchObject({ id: 104, in_reply_to_id: 101, user: { login: "bob" } });
    expect(lines[2]).toMatchObject({ id: 103, subject_type: "file", line: null, start_line: null });

    const dir = mkdtempSync(path.join(tmpdir(), "crjudge-pr-export-"));
    try {
      const file = path.join(dir, "exported.jsonl");
      writeFileSync(file, exported);
      // The command line reads the export back, as a user would.
      const result = await cli("import-pr", "--study", "pr-round-copy", "--repo", repo.dir, "--base", "main", "--head", "feature", "--url", "https://github.com/acme/demo/pull/7", "--comments", file);
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toMatchObject({ status: "imported", counts: { reviewComments: { created: 9 } } });
      const anchor = (c: { externalId: string; path: string; side: unknown; startSide: unknown; startLine: unknown; line: unknown; body: string; author: string; system: string }) => [c.externalId, c.path, c.side, c.startSide, c.startLine, c.line, c.body, c.author, c.system];
      const original = await requireLedPullRequest(COMMAND_LINE, "pr-round", "acme/demo#7", client);
      const copy = await requireLedPullRequest(COMMAND_LINE, "pr-round-copy", "acme/demo#7", client);
      expect(copy.comments.map(anchor)).toEqual(original.comments.map(anchor));
      expect(copy.comments.map((c) => c.inReplyToId && copy.comments.find((p) => p.id === c.inReplyToId)?.externalId)).toEqual(original.comments.map((c) => c.inReplyToId && original.comments.find((p) => p.id === c.inReplyToId)?.externalId));
      // And the copy's export is the same bytes.
      const copyStudy = await client.study.findUniqueOrThrow({ where: { slug: "pr-round-copy" } });
      expect(await exportText(client, copyStudy.id, "github-comments")).toBe(exported);
      expect(readFileSync(file, "utf8")).toBe(exported);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
