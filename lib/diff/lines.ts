/**
 * Splits text into lines that keep their "\n", so that a last line without a newline differs
 * from the same text with one (as in diff and git). "" has no lines.
 */
export function splitLines(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\n)/);
}
