/**
 * Same-origin rule for requests that change something (OWASP ASVS 4.0 §13.2.3 / §3.5): browsers
 * send `Origin` and `Sec-Fetch-Site` with every POST, so a page of another site (including a
 * sibling subdomain, which SameSite=Lax cookies do not stop) is recognised and refused. A
 * request without either header does not come from a browser and carries no ambient cookie
 * the account did not hand over, so it passes (the CLI, scripts, health checks).
 */
import { env } from "@/lib/env";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const changesState = (method: string) => !SAFE_METHODS.has(method.toUpperCase());

/** The public URL the product is served at (NEXTAUTH_URL), when configured. */
export function publicUrl(): URL | null {
  const configured = env().NEXTAUTH_URL;
  return configured ? new URL(configured) : null;
}

/** Origins this server answers as: the one the request was sent to, and the public URL's. */
function ownOrigins(request: Request): string[] {
  const own: string[] = [];
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  const proto = request.headers.get("x-forwarded-proto") ?? new URL(request.url).protocol.slice(0, -1);
  if (host) own.push(`${proto}://${host}`.toLowerCase());
  const configured = publicUrl();
  if (configured) own.push(configured.origin.toLowerCase());
  return own;
}

/** Why a state-changing request is refused as coming from another site, or null. */
export function crossSiteReason(request: Request): string | null {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return `Refused: this request comes from another site (Sec-Fetch-Site: ${site.slice(0, 20)}); only this site's own pages may change data.`;
  const origin = request.headers.get("origin");
  if (origin === null || ownOrigins(request).includes(origin.toLowerCase())) return null;
  return "Refused: this request comes from another origin; only this site's own pages may change data.";
}
