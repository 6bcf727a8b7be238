/** The trimmed, non-empty entries of a comma-separated list: "a, b,,c " gives ["a", "b", "c"]. */
export function commaList(value: string): string[] {
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}
