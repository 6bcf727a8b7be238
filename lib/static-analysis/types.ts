/** Findings of the static analyzers that give CRScore its SMELL pseudo-references (§3.1). */

/** The languages whose analyzers the CRScore authors ran (PMD for Java, JSHint for JavaScript, PyScent for Python). */
export type AnalyzedLanguage = "java" | "javascript" | "python";

export interface Finding {
  /** "jshint", "pmd", "pylint", "radon" or "pyscent". */
  tool: string;
  toolVersion: string;
  /** The tool's rule id (W033, UnusedLocalVariable, R0913, cc-rank-C, long-lambda). */
  ruleId: string;
  /** Table 14's smell name where the rule is one of PyScent's smells, else the rule's own name. */
  smellType: string;
  /** 1-based first and last line of what the finding is about (the same for a one-line finding). */
  line: number;
  endLine: number;
  /** The tool's own message. */
  message: string;
  /** A sentence a reviewer could have written about the finding. */
  sentence: string;
  /** Extra facts of the finding (radon's rank and complexity, a lambda's length). */
  facts?: Record<string, string | number>;
}

/** One analyzer's answer for one file. */
export interface FileAnalysis {
  findings: Finding[];
  seconds: number;
}
