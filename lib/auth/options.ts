/** next-auth configuration: email + password, JWT sessions carrying the user's id and role. */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { authenticate, type SessionUser, type SignedInUser, SignInError } from "@/lib/auth/authenticate";
import { decodeSessionToken, encodeSessionToken } from "@/lib/auth/jwt";
import { publicError } from "@/lib/errors";
import { clientAddress, trustedProxies } from "@/lib/auth/throttle";
import type { Role } from "@/lib/generated/prisma/client";
import { publicUrl } from "@/lib/http/origin";

declare module "next-auth" {
  interface Session {
    user: SessionUser;
    /** The account's session version at sign-in (checked on each request by getSessionUser). */
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

export const authOptions: NextAuthOptions = {
  // Credentials sign-in in next-auth 4 requires JWT sessions (no session table needed).
  session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
  jwt: { encode: encodeSessionToken, decode: decodeSessionToken },
  secret: process.env.AUTH_SECRET ?? process.env.NEXTAUTH_SECRET,
  // Secure (https-only, __Secure- prefixed) cookies whenever the public URL is https.
  useSecureCookies: publicUrl()?.protocol === "https:",
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        if (!credentials?.email || !credentials.password) throw new Error("Enter your email and password.");
        const address = clientAddress(request.headers?.["x-forwarded-for"] as string | undefined, trustedProxies());
        // next-auth puts the message into the sign-in page's URL: only sign-in's own messages, never a database error's.
        return authenticate(credentials.email, credentials.password, address).catch((error: unknown) => {
          throw error instanceof SignInError ? error : new Error(publicError(error).userMessage);
        });
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.role = (user as SignedInUser).role;
        token.sv = (user as SignedInUser).sessionVersion;
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
