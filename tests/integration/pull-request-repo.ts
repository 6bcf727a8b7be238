/**
 * A git repository the pull-request tests build in a temporary folder: main and a feature branch
 * whose pull request renames, adds, deletes and modifies files, one of them binary; main moves on
 * after the branch, so the merge base differs from main's head.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestRepo {
  dir: string;
  /** main's head after the branch (the base given), the feature's head, and their merge base. */
  base: string;
  head: string;
  mergeBase: string;
  remove: () => void;
}

const numbered = (name: string, count: number) => Array.from({ length: count }, (_, i) => `${name} line ${i + 1}\n`).join("");

export function buildTestRepo(): TestRepo {
  const dir = mkdtempSync(path.join(tmpdir(), "crjudge-pr-repo-"));
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false", ...args], { encoding: "utf8" }).trim();
  const write = (file: string, text: string | Buffer) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  git("init", "-q", "-b", "main");
  write("src/app.js", numbered("app", 40));
  write("src/old-name.js", numbered("helper", 20));
  write("docs/gone.md", numbered("gone", 5));
  write("README.md", "# Test\n");
  git("add", "-A");
  git("commit", "-q", "-m", "first");
  const mergeBase = git("rev-parse", "HEAD");

  git("checkout", "-q", "-b", "feature");
  // app.js: lines 10-12 replaced, two lines added after line 30.
  const app = numbered("app", 40).split("\n");
  app.splice(9, 3, "app changed 10", "app changed 11", "app changed 12");
  app.splice(30, 0, "app added A", "app added B");
  write("src/app.js", app.join("\n"));
  git("mv", "src/old-name.js", "src/new-name.js");
  write("src/new-name.js", numbered("helper", 20).replace("helper line 5\n", "helper line five\n"));
  write("src/added.js", numbered("added", 8));
  git("rm", "-q", "docs/gone.md");
  write("assets/logo.bin", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x00, 0xff]));
  git("add", "-A");
  git("commit", "-q", "-m", "feature");
  const head = git("rev-parse", "HEAD");

  git("checkout", "-q", "main");
  write("README.md", "# Test\n\nMain moved on.\n");
  git("commit", "-q", "-am", "main moves on");
  const base = git("rev-parse", "HEAD");
  return { dir, base, head, mergeBase, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
