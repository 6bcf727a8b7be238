"use client";

import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl: "/signin" })} className="rounded px-2 py-1 text-sm text-slate-600 hover:bg-slate-100">
      Sign out
    </button>
  );
}
