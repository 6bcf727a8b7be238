/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a successful
 * sign-in leaves in the browser a cookie naming the account, with a random nonce and the time it
 * was issued, signed with a key derived from the session secret. A later sign-in to the same
 * account that carries a valid one comes from a browser that has known the password, and is
 * counted under that cookie instead of the account and the address (lib/auth/throttle.ts). The
 * cookie grants nothing else: it is no session, and the password is checked as always.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

export const DEVICE_COOKIE = "crjudge-device";
/** How long a browser stays known without signing in again. */
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600;

export interface DeviceToken {
  /** The account's e-mail (lowercase), as typed at sign-in. */
  email: string;
  /** Random, one per successful sign-in: the key its attempts are counted under. */
  nonce: string;
}

const keys = new Map<string, Buffer>();

function signingKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "", "CR Judge device cookie", 32));
    keys.set(secret, key);
  }
  return key;
}

const signature = (payload: string, secret: string) => createHmac("sha256", signingKey(secret)).update(payload).digest("base64url");

/** A new device cookie's value for the account with this e-mail. */
export function issueDeviceCookie(email: string, secret: string, now = Date.now()): string {
  const payload = [Buffer.from(email, "utf8").toString("base64url"), randomBytes(16).toString("base64url"), String(Math.floor(now / 1000))].join(".");
  return `${payload}.${signature(payload, secret)}`;
}

/** The account and nonce of a device cookie signed with `secret` and not expired; null otherwise. */
export function readDeviceCookie(value: string | undefined, secret: string | undefined, now = Date.now()): DeviceToken | null {
  if (!value || !secret) return null;
  const parts = value.split(".");
  if (parts.length !== 4) return null;
  const [email, nonce, issuedAt, mac] = parts;
  const expected = Buffer.from(signature(parts.slice(0, 3).join("."), secret));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const issuedMs = Number(issuedAt) * 1000;
  if (!Number.isFinite(issuedMs) || issuedMs > now + 60_000 || now - issuedMs > DEVICE_COOKIE_MAX_AGE_S * 1000) return null;
  return { email: Buffer.from(email, "base64url").toString("utf8"), nonce };
}

/** The value of the cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}
