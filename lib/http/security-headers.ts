/**
 * Response headers every page and route answers with (OWASP ASVS 4.0 §14.4): a Content
 * Security Policy whose scripts need this request's nonce (Next adds it to its own inline
 * scripts when it finds the policy on the request, see proxy.ts), no framing, no MIME
 * sniffing, no referrer to other sites, and HSTS when the site is served over https.
 */
import { publicUrl } from "@/lib/http/origin";
import { env } from "@/lib/env";

/** Whether the browser reached us over https (directly, through a TLS proxy, or as configured). */
export function servedOverHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https" || publicUrl()?.protocol === "https:";
}

export function contentSecurityPolicy(nonce: string, options: { https: boolean; dev: boolean }): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonced Next runtime loads are trusted, nothing else.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    // React renders style attributes (charts, widths); CSS cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

export function securityHeaders(request: Request, nonce: string): Record<string, string> {
  const https = servedOverHttps(request);
  return {
    "content-security-policy": contentSecurityPolicy(nonce, { https, dev: env().NODE_ENV === "development" }),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
    ...(https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
