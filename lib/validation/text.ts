/**
 * Text PostgreSQL cannot store or that no client can show: NUL characters (text columns refuse
 * them) and lone UTF-16 surrogates (not Unicode; they would turn into U+FFFD or an encoding
 * error on the way to the database). Every request body and import is checked before it is
 * written, so such input gets a clear 400 naming the field instead of a database error.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, or null when it can. */
export function unsafeTextReason(text: string): string | null {
  if (text.includes("\u0000")) return "contains a NUL character (\\u0000)";
  if (LONE_SURROGATE.test(text)) return "contains a lone UTF-16 surrogate (not valid Unicode)";
  return null;
}

/** The first string (value or object key) in `value` that cannot be stored, as "path: why". */
export function findUnsafeText(value: unknown, path = ""): string | null {
  if (typeof value === "string") {
    const reason = unsafeTextReason(value);
    return reason && `${path || "input"}: ${reason}`;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      const keyReason = unsafeTextReason(key);
      if (keyReason) return `${at}: the field name ${keyReason}`;
      const found = findUnsafeText(item, at);
      if (found) return found;
    }
  }
  return null;
}
