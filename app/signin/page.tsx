import { redirect } from "next/navigation";
import { SignInForm } from "@/components/sign-in-form";
import { getSessionAccount } from "@/lib/auth/session";
import { safeCallbackPath } from "@/lib/auth/callback";

export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string | string[] }> }) {
  const asked = (await searchParams).callbackUrl;
  const callbackPath = safeCallbackPath(typeof asked === "string" ? asked : null);
  if (await getSessionAccount()) redirect(callbackPath);
  return (
    <div className="mx-auto mt-12 max-w-sm rounded border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-xl font-semibold">Sign in</h1>
      <SignInForm callbackPath={callbackPath} />
    </div>
  );
}
