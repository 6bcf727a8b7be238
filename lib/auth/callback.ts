/** Request header in which proxy.ts passes the path of the page asked for to the page. */
export const PAGE_PATH_HEADER = "x-crjudge-page-path";

/**
 * Where sign-in returns to: the page that was asked for (`callbackUrl`), only when it is a path
 * on this site; anything else (another origin, "//host", a backslash trick) goes to the start page.
 */
export function safeCallbackPath(callbackUrl: string | null | undefined): string {
  if (!callbackUrl || !callbackUrl.startsWith("/") || callbackUrl.startsWith("//") || callbackUrl.includes("\\")) return "/";
  if (callbackUrl === "/signin" || callbackUrl.startsWith("/signin?")) return "/";
  return callbackUrl;
}

/** The sign-in page's address that returns to `path` afterwards. */
export function signInPath(path: string | null | undefined): string {
  const back = safeCallbackPath(path);
  return back === "/" ? "/signin" : `/signin?callbackUrl=${encodeURIComponent(back)}`;
}
