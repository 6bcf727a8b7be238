import type { AnalyzedLanguage } from "./types";

const ALIASES: Record<string, AnalyzedLanguage> = {
  java: "java",
  js: "javascript",
  javascript: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  py: "python",
  python: "python",
  python3: "python",
};

/** The analyzed language of a code change's `language` field (or its file extension), null when none applies. */
export function analyzedLanguage(language: string, filePath = ""): AnalyzedLanguage | null {
  const byName = ALIASES[language.trim().toLowerCase()];
  if (byName) return byName;
  const ext = /\.([A-Za-z0-9]+)$/.exec(filePath)?.[1]?.toLowerCase();
  return ext ? (ALIASES[ext] ?? null) : null;
}

/** The file name an analyzer sees: the change's own base name when it has the language's extension. */
export function analyzedFileName(language: AnalyzedLanguage, filePath: string): string {
  const ext = { java: ".java", javascript: ".js", python: ".py" }[language];
  const base = filePath.split(/[\\/]/).pop() ?? "";
  if (base.endsWith(ext) && /^[\w.-]+$/.test(base)) return base;
  // PMD wants a Java file named after its public class; any safe name works for the others.
  return language === "java" ? "Changed.java" : `changed${ext}`;
}
