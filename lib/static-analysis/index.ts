/** Static analysis of code changes for CRScore's SMELL pseudo-references (§3.1, Tables 6 and 14). */
export { analyzeChanges, type ChangeAnalysis, type ChangeToAnalyze, type ToolTally } from "./analyze";
export { analyzerStatus, detectAnalyzers, LANGUAGE_TOOLS, type AnalyzerFacts, type AnalyzerStatus, type AnalyzerTool } from "./analyzers";
export { changedNewLines, NEAR_LINES, nearChangedLine } from "./changed-lines";
export { splitIntroduced } from "./introduced";
export { analyzedLanguage } from "./language";
export { PMD_RULESET } from "./pmd";
export { PYLINT_ARGS, PYLINT_IMPORTS, PYLINT_SMELLS, pylintFindings } from "./pylint";
export { PYSCENT_LIMITS, PYSCENT_VERSION } from "./pyscent";
export { isComplexRank, RADON_RANKS } from "./radon";
export type { AnalyzedLanguage, Finding } from "./types";
