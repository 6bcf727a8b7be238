/**
 * PostgreSQL array literals (`{1,2,NULL}`, `{"a","b\"c"}`) for the large array parameters of
 * the metric jobs' statements, sent as text and cast in SQL (`::int[]`, `::text[]`). pg makes
 * the same literal from a JavaScript array by appending each element, quoted and escaped by two
 * regular expressions even when it is a number, to one growing string: in the CRScore job that
 * was a fifth of everything it allocated (83 of 414 MiB sampled), then flattened again to be
 * measured and written. Joined once, the literal is one flat string.
 */
import "server-only";

/** An array literal of whole numbers, NULL for null. */
export function intArrayLiteral(values: readonly (number | null)[]): string {
  return `{${values.map((v) => (v === null ? "NULL" : String(v))).join(",")}}`;
}

/** An array literal of texts, each quoted with its backslashes and double quotes escaped (as pg escapes them), NULL for null. */
export function textArrayLiteral(values: readonly (string | null)[]): string {
  return `{${values.map((v) => (v === null ? "NULL" : `"${v.replace(/[\\"]/g, "\\$&")}"`)).join(",")}}`;
}
