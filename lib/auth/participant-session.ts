/**
 * A participant's session (crowd links): the same signed and encrypted next-auth session cookie a
 * password sign-in leaves (lib/auth/jwt.ts, keyed by AUTH_SECRET as next-auth reads it), issued
 * when the study's link makes or resumes the participant. It binds the participant to that
 * browser: their link from another browser is refused (lib/data/participants.ts joinStudy).
 */
import type { ResponseCookie } from "next/dist/compiled/@edge-runtime/cookies";
import { authOptions } from "@/lib/auth/options";
import { encodeSessionToken } from "@/lib/auth/jwt";
import { publicUrl } from "@/lib/http/origin";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";

/** next-auth's session cookie: its name (with the __Secure- prefix over https), value and attributes. */
export async function participantSessionCookie(account: { id: string; email: string; name: string; sessionVersion: number }): Promise<ResponseCookie> {
  const secret = authSecret();
  if (!secret) throw new AppError("UNAVAILABLE", { message: "AUTH_SECRET is not set." });
  const secure = publicUrl()?.protocol === "https:";
  const maxAge = authOptions.session!.maxAge!;
  const value = await encodeSessionToken({ token: { sub: account.id, uid: account.id, role: "ANNOTATOR", sv: account.sessionVersion, name: account.name, email: account.email }, secret, maxAge });
  return { name: `${secure ? "__Secure-" : ""}next-auth.session-token`, value, httpOnly: true, sameSite: "lax", path: "/", secure, maxAge };
}
