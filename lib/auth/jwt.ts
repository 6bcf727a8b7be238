/**
 * next-auth's session token codec (A256GCM JWE with an HKDF-derived key, exactly the format of
 * next-auth/jwt's encode and decode, so tokens stay valid across the change), except that the
 * key is derived once per secret instead of on every request: every page, route and save reads
 * and re-issues the token, and the derivation was about 4 % of a save's CPU under load.
 */
import { hkdfSync, randomUUID } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";
import type { JWT, JWTDecodeParams, JWTEncodeParams } from "next-auth/jwt";

const DEFAULT_MAX_AGE_S = 30 * 24 * 60 * 60;
const keys = new Map<string, Uint8Array>();

function encryptionKey(secret: string | Buffer, salt: string): Uint8Array {
  const id = `${salt}\u0000${secret.toString()}`;
  let key = keys.get(id);
  if (!key) {
    const info = `NextAuth.js Generated Encryption Key${salt ? ` (${salt})` : ""}`;
    key = new Uint8Array(hkdfSync("sha256", secret, salt, info, 32));
    keys.set(id, key);
  }
  return key;
}

export async function encodeSessionToken({ token = {}, secret, maxAge = DEFAULT_MAX_AGE_S, salt = "" }: JWTEncodeParams): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new EncryptJWT(token)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt(now)
    .setExpirationTime(now + maxAge)
    .setJti(randomUUID())
    .encrypt(encryptionKey(secret, salt));
}

export async function decodeSessionToken({ token, secret, salt = "" }: JWTDecodeParams): Promise<JWT | null> {
  if (!token) return null;
  const { payload } = await jwtDecrypt(token, encryptionKey(secret, salt), { clockTolerance: 15 });
  return payload as JWT;
}
