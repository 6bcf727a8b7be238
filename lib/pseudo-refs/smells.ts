/**
 * CRScore's static-analysis pseudo-references (§3.1): every code change in an analyzed
 * language is analyzed (lib/static-analysis) and each finding kept becomes a SMELL with its
 * tool, tool version, rule id, file and line. A run refuses to start while an analyzer its
 * study's languages need is missing, naming the install command.
 */
import { createHash } from "node:crypto";
import { studyCodeChanges } from "@/lib/data/pseudo-references";
import { AppError } from "@/lib/errors";
import { analyzeChanges, analyzedLanguage, detectAnalyzers, NEAR_LINES, PMD_RULESET, PYLINT_ARGS, PYLINT_IMPORTS, PYSCENT_LIMITS, type AnalyzedLanguage, type Finding } from "@/lib/static-analysis";
import type { Generated, GeneratedReference, PseudoReferenceSource } from "./types";

const TOOL_NAMES: Record<string, string> = { jshint: "JSHint", pmd: "PMD", pylint: "pylint", radon: "radon", pyscent: "PyScent detectors" };

const shortHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 10);

export function smellReference(finding: Finding, filePath: string): GeneratedReference {
  return {
    externalId: `smell/${finding.tool}/${finding.ruleId.split(" ")[0]}/L${finding.line}/${shortHash(finding.message)}`,
    kind: "SMELL",
    text: finding.sentence,
    source: `${TOOL_NAMES[finding.tool] ?? finding.tool} ${finding.toolVersion}`,
    metadata: {
      tool: finding.tool,
      toolVersion: finding.toolVersion,
      ruleId: finding.ruleId,
      smellType: finding.smellType,
      file: filePath,
      line: finding.line,
      endLine: finding.endLine,
      message: finding.message,
      introduced: true,
      ...(finding.facts ? { facts: finding.facts } : {}),
    },
  };
}

export const smellSource: PseudoReferenceSource = {
  async plan(_context, studyId) {
    const changes = await studyCodeChanges(studyId);
    const analyzed = changes.flatMap((c) => {
      const language = analyzedLanguage(c.language, c.filePath);
      return language ? [{ id: c.id, language }] : [];
    });
    const languages = [...new Set(analyzed.map((c) => c.language))].sort() as AnalyzedLanguage[];
    const statuses = await detectAnalyzers(languages);
    const missing = statuses.flatMap((s) => (s.available ? [] : [s.message]));
    if (missing.length > 0) throw new AppError("INVALID_INPUT", { message: missing.join(" ") });
    const versions = Object.fromEntries(statuses.flatMap((s) => (s.available ? [[s.tool, s.version]] : [])));
    const settings = { near: NEAR_LINES, pmdRuleset: PMD_RULESET, pylintArgs: PYLINT_ARGS, pylintImports: PYLINT_IMPORTS, pyscentLimits: PYSCENT_LIMITS };
    const signature = ["smells", ...Object.entries(versions).map(([tool, v]) => `${tool}=${v}`), `near=${NEAR_LINES}`, `settings=${shortHash(JSON.stringify(settings))}`].join("|");
    return { signature, params: { versions, languages, ...settings }, codeChangeIds: analyzed.map((c) => c.id) };
  },

  async generate(_context, run, changes) {
    const versions = run.params.versions as Record<string, string>;
    const skipped = (why: string): Generated => ({ references: [], detail: { skipped: why } });
    const todo = changes.flatMap((change) => {
      const language = analyzedLanguage(change.language, change.filePath);
      return language && change.newFile ? [{ change, language, newFile: change.newFile }] : [];
    });
    const analyses = await analyzeChanges(
      todo.map(({ change, language, newFile }) => ({ language, filePath: change.filePath, diff: change.diff, oldFile: change.oldFile, newFile })),
      versions,
    );
    const analyzed = new Map(todo.map((t, k) => [t.change, k]));
    return changes.map((change) => {
      const k = analyzed.get(change);
      if (k === undefined) return analyzedLanguage(change.language, change.filePath) ? skipped("the change has no new file to analyze (import it with newFile)") : skipped(`language ${change.language} has no analyzer`);
      const analysis = analyses[k];
      const seen = new Set<string>();
      const references = analysis.findings.map((f) => smellReference(f, change.filePath)).filter((r) => !seen.has(r.externalId) && seen.add(r.externalId));
      return { references, detail: { language: todo[k].language, tools: analysis.tools, ...(analysis.radonRanks ? { radonRanks: analysis.radonRanks } : {}) } };
    });
  },
};
