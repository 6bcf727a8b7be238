/**
 * The session token codec with a derived key kept per secret (lib/auth/jwt.ts) writes and reads
 * exactly next-auth's format: tokens issued before the change stay valid, and the other way round.
 */
import { describe, expect, test } from "vitest";
import { decode, encode } from "next-auth/jwt";
import { decodeSessionToken, encodeSessionToken } from "@/lib/auth/jwt";

const secret = "a test secret of some length";
const token = { uid: "u1", role: "ANNOTATOR" as const, sv: 3, email: "a@example.org", name: "A" };

describe("session token codec", () => {
  test("next-auth's token decodes here, and this token decodes in next-auth", async () => {
    expect(await decodeSessionToken({ token: await encode({ token, secret }), secret })).toMatchObject(token);
    expect(await decode({ token: await encodeSessionToken({ token, secret }), secret })).toMatchObject(token);
  });

  test("a salt (next-auth's chunked or named cookies) gives a different key, as in next-auth", async () => {
    const salted = await encode({ token, secret, salt: "next-auth.session-token" });
    expect(await decodeSessionToken({ token: salted, secret, salt: "next-auth.session-token" })).toMatchObject(token);
    await expect(decodeSessionToken({ token: salted, secret })).rejects.toThrow();
  });

  test("another secret cannot read the token; an expired token is refused", async () => {
    const issued = await encodeSessionToken({ token, secret });
    await expect(decodeSessionToken({ token: issued, secret: "another secret entirely" })).rejects.toThrow();
    const expired = await encodeSessionToken({ token, secret, maxAge: -60 });
    await expect(decodeSessionToken({ token: expired, secret })).rejects.toThrow(/exp/);
    expect(await decodeSessionToken({ token: "", secret })).toBeNull();
  });
});
