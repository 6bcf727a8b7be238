import { InvariantError } from "@/lib/errors";
import type { DemoRating } from "../types";

/** A file written as a template literal that starts on the line after the backtick. */
export function source(text: string): string {
  return text.replace(/^\n/, "");
}

/** Shorthand for a stage-2 rating: Likert scores (CRScore Table 7) and linked pseudo-references. */
export function rate(conciseness: number, comprehensiveness: number, relevance: number, addresses: string[] = [], partially: string[] = []): DemoRating {
  return { conciseness, comprehensiveness, relevance, addresses, partially };
}

/** The 1-based line of `text` holding `snippet` (the demo's comments sit at real lines, found by their code). */
export function lineOf(text: string, snippet: string): number {
  const index = text.split("\n").findIndex((line) => line.includes(snippet));
  if (index < 0) throw new InvariantError(`no line holds ${JSON.stringify(snippet)}`);
  return index + 1;
}
