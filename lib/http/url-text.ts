/**
 * Text in a URL that no page or route may receive: a NUL character (PostgreSQL's text columns
 * and parameters refuse it) or bytes that are not UTF-8, among them the encoded halves of a
 * surrogate pair (what a lone UTF-16 surrogate becomes in a URL, e.g. %ED%A0%80). Checked once
 * for every request (proxy.ts), on the path (route parameters) and the query as the client sent
 * them, before any query runs, so such a request gets a 400 naming the part instead of a
 * database error or text silently turned into U+FFFD.
 */
import { unsafeTextReason } from "@/lib/validation/text";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });
const UTF8 = new TextEncoder();

/** A percent-encoded URL part as its text; null when its bytes are not UTF-8. */
function percentDecoded(part: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < part.length; i++) {
    const code = part.charCodeAt(i);
    if (code === 0x25 && /^[0-9a-f]{2}$/i.test(part.slice(i + 1, i + 3))) {
      bytes.push(parseInt(part.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (code < 0x80) bytes.push(code);
    else bytes.push(...UTF8.encode(part[i]));
  }
  try {
    return STRICT_UTF8.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

function partProblem(raw: string, what: string): string | null {
  const text = percentDecoded(raw);
  if (text === null) return `${what} is not valid UTF-8 (a lone surrogate or a broken byte sequence).`;
  const reason = unsafeTextReason(text);
  return reason && `${what} ${reason}.`;
}

/** Why this request target ("/path?query", percent-encoded) holds text no request may carry, or null. */
export function urlTextProblem(target: string): string | null {
  const query = target.indexOf("?");
  const [pathname, search] = query < 0 ? [target, ""] : [target.slice(0, query), target.slice(query + 1)];
  for (const segment of pathname.split("/")) {
    const problem = partProblem(segment, "A part of the path");
    if (problem) return problem;
  }
  for (const pair of search.split("#")[0].split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const [name, value] = eq < 0 ? [pair, ""] : [pair.slice(0, eq), pair.slice(eq + 1)];
    const nameText = percentDecoded(name.replaceAll("+", " "));
    const label = nameText !== null && unsafeTextReason(nameText) === null ? `The query parameter ${JSON.stringify(nameText.slice(0, 40))}` : "A query parameter's name";
    const problem = partProblem(name.replaceAll("+", " "), "A query parameter's name") ?? partProblem(value.replaceAll("+", " "), label);
    if (problem) return problem;
  }
  return null;
}
