/**
 * CRScore Table 14 (smell types per language) and Table 6 (radon's cyclomatic-complexity ranks)
 * over a study's generated smells: Table 14 counts the SMELL pseudo-references by the language of
 * their change and their smell type, Table 6 the ranks of every block radon ranked in the new
 * files of the Python changes (the latest smells run's items).
 */
import { analyzedLanguage, RADON_RANKS } from "@/lib/static-analysis";

export interface SmellTables {
  table14: { title: string; rows: { language: string; smellType: string; count: number }[] };
  table6: { title: string; rows: { rank: string; scores: string; risk: string; blocks: number }[] };
}

/** A SMELL pseudo-reference with its change's language and file; a smells run item's detail (radon's ranks). */
export interface SmellRow {
  metadata: unknown;
  codeChange: { language: string; filePath: string };
}

/** The two tables from a study's smells and its latest smells run's items (lib/data/pseudo-references.ts reads them). */
export function smellTables(smells: readonly SmellRow[], runItems: readonly { detail: unknown }[]): SmellTables {
  const counts = new Map<string, { language: string; smellType: string; count: number }>();
  for (const s of smells) {
    const smellType = (s.metadata as { smellType?: string }).smellType;
    if (!smellType) continue;
    const language = analyzedLanguage(s.codeChange.language, s.codeChange.filePath) ?? s.codeChange.language;
    const key = `${language}\u0000${smellType}`;
    const row = counts.get(key) ?? { language, smellType, count: 0 };
    row.count++;
    counts.set(key, row);
  }
  const ranks = new Map<string, number>();
  for (const item of runItems) {
    for (const [rank, n] of Object.entries((item.detail as { radonRanks?: Record<string, number> }).radonRanks ?? {})) ranks.set(rank, (ranks.get(rank) ?? 0) + n);
  }
  return {
    table14: { title: "CRScore Table 14: smell types per language (generated SMELL pseudo-references)", rows: [...counts.values()].sort((a, b) => a.language.localeCompare(b.language) || b.count - a.count || a.smellType.localeCompare(b.smellType)) },
    table6: { title: "CRScore Table 6: radon's cyclomatic-complexity ranks of the Python blocks", rows: RADON_RANKS.map((r) => ({ rank: r.rank, scores: r.scores, risk: r.risk, blocks: ranks.get(r.rank) ?? 0 })) },
  };
}
