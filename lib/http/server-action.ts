/**
 * A server action's request, checked before Next decodes it (proxy.ts): Next answers 500 to a
 * body over its limit and to arguments React's reply decoder cannot read, so those get their
 * 413 or 400 here instead. The actions of this product take plain values (lib/actions/safe-action.ts),
 * which React's client sends as one JSON text: an array of the arguments, where a string that
 * starts with "$" is written "$$…" and undefined, NaN, ±Infinity, -0, dates and bigints are
 * written "$undefined", "$NaN", "$Infinity", "$-Infinity", "$-0", "$D…", "$n…". Any other string
 * starting with "$" is a reference into a multipart reply (React Flight's reply format), which
 * such a text cannot hold: the decoder fails on it, or waits for a part that never comes.
 */
import { AppError } from "@/lib/errors";
import { JSON_MAX_BYTES, readLimited } from "@/lib/http/body";

/** Next's own limit for action bodies (serverActions.bodySizeLimit, 1 MB = 1 MiB). */
export const ACTION_MAX_BYTES = JSON_MAX_BYTES;
/** Next refuses more arguments than this (SERVER_ACTION_ARGS_LIMIT). */
const MAX_ARGUMENTS = 1000;
/** Far deeper than any action's input; deeper JSON would overflow the decoder's recursion. */
const MAX_DEPTH = 32;

/** The strings React's client writes for plain values (see the file comment). */
const PLAIN_VALUE = /^\$(?:\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|D|n-?\d{1,300}$)/s;

const mediaTypeOf = (request: Request) => (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();

/**
 * A request Next handles as a server action: one the page's script calls (Next-Action header),
 * or a form posted to a page without scripts (multipart, whose fields name the action), which
 * no page here sends but Next decodes all the same.
 */
export function isActionRequest(request: Request): boolean {
  if (request.method !== "POST") return false;
  return request.headers.has("next-action") || (mediaTypeOf(request) === "multipart/form-data" && !new URL(request.url).pathname.startsWith("/api/"));
}

/** Why these arguments (the body of an action request) cannot be decoded, or null. */
export function actionArgumentsProblem(text: string): string | null {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return "The server action's arguments are not valid JSON.";
  }
  if (!Array.isArray(root)) return "The server action's arguments must be a JSON array.";
  if (root.length > MAX_ARGUMENTS) return `A server action takes at most ${MAX_ARGUMENTS} arguments.`;
  // Depth first with a stack of its own: a deeply nested body must not overflow this check either.
  const stack: [unknown, string, number][] = [[root, "", 0]];
  while (stack.length) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === "string") {
      if (value.startsWith("$") && !PLAIN_VALUE.test(value)) return `${path}: a text starting with "$" that is not a value (React sends such a text as "$$…").`;
    } else if (value !== null && typeof value === "object") {
      if (depth >= MAX_DEPTH) return `The server action's arguments are nested deeper than ${MAX_DEPTH} levels.`;
      for (const [key, item] of Object.entries(value)) stack.push([item, path ? `${path}.${key}` : key, depth + 1]);
    }
  }
  return null;
}

/**
 * Refuses an action request Next would answer with 500: a body over the limit (413), a
 * multipart body (415: these actions take no files, and no page posts a form), or arguments that
 * cannot be decoded (400).
 */
export async function checkActionRequest(request: Request): Promise<void> {
  const mediaType = mediaTypeOf(request);
  // Next refuses a form-encoded action call itself (404), without decoding it.
  if (mediaType === "application/x-www-form-urlencoded") return;
  const bytes = await readLimited(request, ACTION_MAX_BYTES);
  if (mediaType === "multipart/form-data")
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", { message: "Server actions here take plain values, not multipart/form-data; files go to the import route." });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("INVALID_INPUT", { message: "The server action's arguments are not valid UTF-8." });
  }
  const problem = actionArgumentsProblem(text);
  if (problem) throw new AppError("INVALID_INPUT", { message: problem });
}
