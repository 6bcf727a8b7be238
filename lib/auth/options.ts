/** next-auth configuration: email + password, JWT sessions carrying the user's id and role. */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { cookies } from "next/headers";
import { authenticate, type SessionAccount, SignInError } from "@/lib/auth/authenticate";
import { cookieValue, DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S, issueDeviceCookie, readDeviceCookie } from "@/lib/auth/device-cookie";
import { decodeSessionToken, encodeSessionToken } from "@/lib/auth/jwt";
import { AppError, publicError } from "@/lib/errors";
import { clientAddress, trustedProxies } from "@/lib/auth/throttle";
import type { Role } from "@/lib/generated/prisma/client";
import { publicUrl } from "@/lib/http/origin";
import { authSecret } from "@/lib/env";

declare module "next-auth" {
  interface Session {
    user: SessionAccount;
    /** The account's session version at sign-in (checked on each request by getSessionAccount). */
    sessionVersion?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    role?: Role;
    sv?: number;
  }
}

const secret = authSecret();
const secureCookies = publicUrl()?.protocol === "https:";
/** The sign-in endpoint, the only one that reads the device cookie. */
const SIGN_IN_PATH = "/api/auth/callback/credentials";

/** Leaves the device cookie of this account in the browser (a sign-in just succeeded). */
async function rememberDevice(email: string): Promise<void> {
  if (!secret) return;
  (await cookies()).set(DEVICE_COOKIE, issueDeviceCookie(email, secret), { httpOnly: true, sameSite: "lax", secure: secureCookies, path: SIGN_IN_PATH, maxAge: DEVICE_COOKIE_MAX_AGE_S });
}

export const authOptions: NextAuthOptions = {
  // Credentials sign-in in next-auth 4 requires JWT sessions (no session table needed).
  session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
  jwt: { encode: encodeSessionToken, decode: decodeSessionToken },
  secret,
  // Secure (https-only, __Secure- prefixed) cookies whenever the public URL is https.
  useSecureCookies: secureCookies,
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        if (!credentials?.email || !credentials.password) throw new AppError("INVALID_INPUT", { message: "Enter your email and password." });
        const address = clientAddress(request.headers?.["x-forwarded-for"] as string | undefined, trustedProxies());
        const device = readDeviceCookie(cookieValue(request.headers?.cookie as string | undefined, DEVICE_COOKIE), secret);
        // next-auth puts the message into the sign-in page's URL: only sign-in's own messages, never a database error's.
        const user = await authenticate(credentials.email, credentials.password, address, device).catch((error: unknown) => {
          throw error instanceof SignInError ? error : new Error(publicError(error).userMessage);
        });
        await rememberDevice(user.email);
        return user;
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.role = (user as SessionAccount & { sessionVersion: number }).role;
        token.sv = (user as SessionAccount & { sessionVersion: number }).sessionVersion;
      }
      return token;
    },
    session({ session, token }) {
      session.user = { id: token.uid ?? "", email: token.email ?? "", name: token.name ?? "", role: token.role ?? "ANNOTATOR" };
      session.sessionVersion = token.sv;
      return session;
    },
  },
};
