import { describe, expect, test } from "vitest";
import { cookieValue, DEVICE_COOKIE_MAX_AGE_S, issueDeviceCookie, readDeviceCookie } from "@/lib/auth/device-cookie";

describe("device cookies", () => {
  const secret = "unit-secret";
  const now = Date.UTC(2025, 0, 1);

  test("a cookie issued for an account reads back as that account, with a fresh nonce each time", () => {
    const first = readDeviceCookie(issueDeviceCookie("ann@example.org", secret, now), secret, now + 1000);
    const second = readDeviceCookie(issueDeviceCookie("ann@example.org", secret, now), secret, now + 1000);
    expect(first?.email).toBe("ann@example.org");
    expect(first?.nonce).toMatch(/^[\w-]{22}$/);
    expect(second?.nonce).not.toBe(first?.nonce);
  });

  test("another secret, a changed account or nonce, a cut or expired cookie read as none", () => {
    const value = issueDeviceCookie("ann@example.org", secret, now);
    const [email, nonce, issuedAt, mac] = value.split(".");
    const otherEmail = Buffer.from("lead@example.org").toString("base64url");
    expect(readDeviceCookie(value, "other-secret", now)).toBeNull();
    expect(readDeviceCookie([otherEmail, nonce, issuedAt, mac].join("."), secret, now)).toBeNull();
    expect(readDeviceCookie([email, "x" + nonce.slice(1), issuedAt, mac].join("."), secret, now)).toBeNull();
    expect(readDeviceCookie([email, nonce, String(Number(issuedAt) + DEVICE_COOKIE_MAX_AGE_S), mac].join("."), secret, now)).toBeNull();
    expect(readDeviceCookie([email, nonce, issuedAt].join("."), secret, now)).toBeNull();
    expect(readDeviceCookie(`${value}x`, secret, now)).toBeNull();
    expect(readDeviceCookie(value, secret, now + (DEVICE_COOKIE_MAX_AGE_S + 1) * 1000)).toBeNull();
    expect(readDeviceCookie(value, undefined, now)).toBeNull();
    expect(readDeviceCookie(undefined, secret, now)).toBeNull();
  });

  test("the cookie's value is found in a Cookie header among others", () => {
    expect(cookieValue("a=1; crjudge-device=x.y.z.w; b=2", "crjudge-device")).toBe("x.y.z.w");
    expect(cookieValue("xcrjudge-device=1", "crjudge-device")).toBeUndefined();
    expect(cookieValue(undefined, "crjudge-device")).toBeUndefined();
  });
});
