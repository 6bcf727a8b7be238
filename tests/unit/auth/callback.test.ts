import { describe, expect, test } from "vitest";
import { safeCallbackPath, signInPath } from "@/lib/auth/callback";

describe("sign-in callback", () => {
  test("returns to a path on this site, with its query", () => {
    expect(safeCallbackPath("/studies/demo/validity")).toBe("/studies/demo/validity");
    expect(safeCallbackPath("/annotate/abc?x=1")).toBe("/annotate/abc?x=1");
    expect(signInPath("/studies/demo/validity")).toBe("/signin?callbackUrl=%2Fstudies%2Fdemo%2Fvalidity");
  });

  test("never leaves the site or loops to sign-in", () => {
    for (const bad of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "evil", "", null, undefined, "/signin", "/signin?callbackUrl=%2F"]) {
      expect(safeCallbackPath(bad)).toBe("/");
    }
    expect(signInPath(null)).toBe("/signin");
  });
});
