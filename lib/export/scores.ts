/**
 * Likert scores in the study's dimension order (CRScore Table 7: conciseness,
 * comprehensiveness, relevance). PostgreSQL's jsonb keeps keys in its own order, so exports
 * restore the study's; dimensions the study does not list follow, alphabetically.
 */
export function orderedScores(scores: unknown, dimensions: readonly string[]): [string, number][] {
  const rank = (d: string) => {
    const i = dimensions.indexOf(d);
    return i < 0 ? dimensions.length : i;
  };
  return Object.entries(scores as Record<string, number>).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}
