/**
 * Sign-in slow-down (OWASP ASVS 2.2.1): every attempt is counted before its password is checked.
 * The first `free` attempts of a key are checked at once; after that, an attempt is checked only
 * once 1 s, 2 s, 4 s … (up to `capMs`) have passed since the last checked one, and refused
 * unchecked before. The wait is capped, so nobody can lock an account for good. The counting
 * itself is one SQL statement per key (lib/data/sign-in-throttle.ts).
 *
 * Which keys count an attempt follows OWASP's device cookies ("Slow Down Online Guessing Attacks
 * with Device Cookies", lib/auth/device-cookie.ts). A browser that has signed in to this account
 * before, and so carries its device cookie, is counted under that cookie alone: a burst of wrong
 * passwords for the account, or from the same address, slows down neither it nor anyone else's
 * trusted browser. Every other attempt is counted per account e-mail (whether or not the account
 * exists, so the answer does not tell) and per client address.
 */
import { commaList } from "@/lib/validation/list";
import { env } from "@/lib/env";

export interface ThrottlePolicy {
  /** Attempts checked without waiting. */
  free: number;
  /** The longest wait between two checked attempts. */
  capMs: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = { free: 5, capMs: 5 * 60_000 };
/** Higher: several people may sign in from one office address. */
export const ADDRESS_POLICY: ThrottlePolicy = { free: 20, capMs: 15 * 60_000 };
/** A key with no attempt for this long starts counting afresh. */
export const FORGET_AFTER_MS = 60 * 60_000;

export interface ThrottleKey {
  key: string;
  policy: ThrottlePolicy;
}

export function signInKeys(email: string, address: string): { account: ThrottleKey; address: ThrottleKey } {
  return { account: { key: `account:${email}`, policy: ACCOUNT_POLICY }, address: { key: `address:${address}`, policy: ADDRESS_POLICY } };
}

/** The key of one device cookie (its nonce): the account's slow-down, for that browser alone. */
export function deviceKey(nonce: string): ThrottleKey {
  return { key: `device:${nonce}`, policy: ACCOUNT_POLICY };
}

/**
 * The client's address from X-Forwarded-For, to which the server appends the address of the
 * connection itself (lib/http/request-start.ts), so its last entry is the address that connected.
 * With no proxy (`trustedProxies` 0) that is the client, and whatever the client wrote into the
 * header is ignored; behind `trustedProxies` reverse proxies that each append the address they
 * saw, the client is that many entries to the left of it. A header shorter than that (a request
 * that bypassed the proxies) gives its first entry.
 */
export function clientAddress(forwardedFor: string | string[] | undefined, trustedProxies: number): string {
  const entries = commaList(Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""));
  if (entries.length === 0) return "unknown";
  return entries[Math.max(0, entries.length - 1 - trustedProxies)];
}

/** TRUSTED_PROXIES: how many reverse proxies in front of the server append to X-Forwarded-For. */
export const trustedProxies = (): number => env().TRUSTED_PROXIES;
